import Foundation
import Glibc
import TestData
import Testing

/// The real trackd on a pseudo-terminal fed with real receiver captures, queried with the
/// real trackctl. Serialized: each test starts its own daemon.
@Suite("trackd and trackctl, end to end", .serialized)
struct DaemonIntegrationTests {
    static let capture = "ublox-neo-m9n-nmea.log"

    @Test("status, where and mark on a real capture", .needsShared("gpsd-regress"))
    func statusWhereMark() throws {
        let bytes = try DaemonHarness.capture(Self.capture)
        let harness = try DaemonHarness()
        try harness.start()
        harness.feed(bytes)
        let status = try harness.waitForStatus { json in
            ((json["filter"] as? [String: Any])?["accepted"] as? Int ?? 0) > 10
        }
        let json = try #require(status, "trackd accepted no fix from \(Self.capture)")
        let receiver = try #require(json["receiver"] as? [String: Any])
        #expect(receiver["path"] as? String == harness.slavePath)
        #expect(receiver["open"] as? Bool == true)
        let counters = try #require(receiver["counters"] as? [String: Any])
        #expect(counters["accepted"] as? Int ?? 0 > 100)
        #expect(counters["badChecksum"] as? Int == 0)
        let fix = try #require(json["fix"] as? [String: Any])
        // The TPV a gpsd client gets: at first boot nothing of where leaves, so mode 1 (the
        // text status below still says 3D).
        #expect(fix["mode"] as? Int == 1)
        #expect(fix["lat"] == nil)

        let text = try harness.trackctl(["status"])
        #expect(text.status == 0)
        #expect(text.output.contains("receiver  \(harness.slavePath)"))
        #expect(text.output.contains("fix       3D"))

        // First boot: no position leaves and nothing is logged until someone allows it.
        let hidden = try harness.trackctl(["where"])
        #expect(hidden.status == 1)
        #expect(hidden.output.contains("error not-allowed: tracking is not-determined: no position is shown"))
        let refused = try harness.trackctl(["mark", "too", "early"])
        #expect(refused.status == 1)
        #expect(refused.output.contains("no waypoint is recorded"))
        let firstBoot = try harness.trackctl(["doctor"])
        #expect(firstBoot.status == 1)
        #expect(firstBoot.output.contains("error permission: tracking is not allowed (not-determined)"))
        let allow = try harness.trackctl(["privacy", "allow", "always"])
        #expect(allow.status == 0)
        #expect(allow.output.hasPrefix("always, precise"))
        // A current fix: the capture is fed again so `where` answers from a fix seconds old.
        harness.feed(Array(bytes.prefix(20_000)))

        let whereReply = try harness.trackctl(["where"])
        #expect(whereReply.status == 0, "\(whereReply.output)")
        // The capture was recorded near 38.11°N 122.63°W.
        #expect(whereReply.output.hasPrefix("38.1105"))
        #expect(whereReply.output.contains("°N, 122.626"))
        #expect(whereReply.output.contains("°W, "))
        #expect(whereReply.output.hasSuffix(" ago\n"))
        let plain = try harness.trackctl(["where", "--plain"])
        #expect(plain.output.hasPrefix("38.1105"))
        #expect(plain.output.contains(",-122.626"))

        let mark = try harness.trackctl(["mark", "old", "bridge"])
        #expect(mark.status == 0)
        #expect(mark.output.hasPrefix("waypoint 1 at 38.1105"))
        let after = try harness.trackctl(["status"])
        #expect(after.output.contains("1 waypoints (last \"old bridge\")"))
        let doctor = try harness.trackctl(["doctor"])
        #expect(doctor.status == 0, "\(doctor.output)")
        #expect(doctor.output.contains("ok permission: always"))
        #expect(doctor.output.contains("ok all links work"))
    }

    @Test("privacy survives a restart; approximate snaps positions; bad requests are refused",
          .needsShared("gpsd-regress"))
    func privacyPersists() throws {
        let bytes = try DaemonHarness.capture(Self.capture)
        let harness = try DaemonHarness()
        try harness.start()
        #expect(try harness.trackctl(["privacy"]).output.hasPrefix("not-determined, precise (nothing is logged)"))
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        #expect(try harness.trackctl(["privacy", "approximate"]).status == 0)
        let bad = try harness.trackctl(["privacy", "precise", "--for", "forever"])
        #expect(bad.status == 1)
        #expect(bad.output.contains("error usage"))
        harness.stop()
        try harness.start()
        let privacy = try harness.trackctl(["privacy"])
        #expect(privacy.output.hasPrefix("always, approximate"))
        harness.feed(bytes)
        _ = try harness.waitForStatus { json in
            ((json["filter"] as? [String: Any])?["accepted"] as? Int ?? 0) > 5
        }
        // The capture is at 38.110500°N 122.626918°W; approximate mode answers with a cell centre.
        let whereReply = try harness.trackctl(["where", "--plain"])
        #expect(!whereReply.output.hasPrefix("38.1105"))
        #expect(whereReply.output.hasPrefix("38.11"))
        #expect(try harness.trackctl(["privacy", "precise", "--for", "30m"]).output.contains("precise for 30m00s more"))
        #expect(try harness.trackctl(["where", "--plain"]).output.hasPrefix("38.11") == true)
    }

    @Test("precise --for ends on time while the receiver is silent; a duration needs its unit in one word")
    func preciseForExpiresWithoutFixes() throws {
        let harness = try DaemonHarness()
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        #expect(try harness.trackctl(["privacy", "approximate"]).status == 0)
        for bad in [["1", "m"], ["90"], ["5d"], ["m"], ["-5m"]] {
            let reply = try harness.trackctl(["privacy", "precise", "--for"] + bad)
            #expect(reply.status == 1, "--for \(bad): \(reply.output)")
            #expect(reply.output.contains("error usage"), "--for \(bad): \(reply.output)")
        }
        #expect(try harness.trackctl(["privacy"]).output.hasPrefix("always, approximate"))
        let granted = try harness.trackctl(["privacy", "precise", "--for", "2s"])
        #expect(granted.output.hasPrefix("always, precise for 2.0s more"), "\(granted.output)")
        // Nothing arrives on the port: the grant must end by the clock alone.
        let ended = try harness.waitForStatus(seconds: 6) { json in
            (json["permission"] as? [String: Any])?["accuracy"] as? String == "approximate"
        }
        #expect(ended != nil, "precise --for 2s still in force with a silent receiver")
        #expect(try harness.trackctl(["privacy"]).output.hasPrefix("always, approximate"))
    }

    @Test("a receiver that jumps to another place (another capture) adds nothing to the odometer",
          .needsShared("gpsd-regress"))
    func odometerIgnoresAJump() throws {
        let california = try DaemonHarness.capture(Self.capture)
        let ijsselmeer = try DaemonHarness.capture("bundg_zeus_9.log")
        let harness = try DaemonHarness()
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.feed(california)
        let first = try harness.waitForStatus { json in
            ((json["sampling"] as? [String: Any])?["recorded"] as? Int ?? 0) > 0
        }
        let before = first?["odometer"] as? Double ?? 0
        // The boat's capture, 8,800 km and years away: the filter accepts it after a few fixes.
        harness.feed(Array(ijsselmeer.prefix(40_000)))
        let moved = try harness.waitForStatus(seconds: 60) { json in
            let fix = json["fix"] as? [String: Any]
            return (fix?["lon"] as? Double ?? -100) > 0
        }
        let seen = try harness.trackctl(["status"]).output
        #expect(moved != nil, "the second capture's fixes never arrived: \(seen)")
        let after = try #require(try harness.waitForStatus { _ in true })
        let odometer = after["odometer"] as? Double ?? 0
        // The boat moves about 3 m/s for the few minutes of its capture.
        #expect(odometer - before < 5_000, "the odometer jumped \(odometer - before) m")
    }

    @Test("SIGTERM stops trackd within a second, exit code 0")
    func terminate() throws {
        let harness = try DaemonHarness()
        try harness.start()
        let daemon = try #require(harness.daemon)
        let started = Date()
        daemon.terminate()
        daemon.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 1.0)
        #expect(daemon.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: harness.socketPath))
    }

    @Test("doctor names a missing device, and trackd keeps running")
    func doctorMissingDevice() throws {
        let harness = try DaemonHarness(device: "/dev/ttyTRACKD-MISSING")
        try harness.start()
        let doctor = try harness.trackctl(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.output.contains("error port: /dev/ttyTRACKD-MISSING is not open"))
        #expect(doctor.output.contains("does not exist"))
        #expect(harness.daemon?.isRunning == true)
    }

    @Test("doctor names a wrong baud rate (bytes but no valid sentence)")
    func doctorGarbage() throws {
        let harness = try DaemonHarness()
        try harness.start()
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4000).map { _ in UInt8.random(in: 0x80...0xFF, using: &generator) }
        harness.feed(noise)
        _ = try harness.waitForStatus { json in
            ((json["receiver"] as? [String: Any])?["bytes"] as? Int ?? 0) >= 4000
        }
        let doctor = try harness.trackctl(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.output.contains("error baud"))
    }

    @Test("doctor without a daemon says so")
    func doctorNoDaemon() throws {
        let harness = try DaemonHarness()
        let doctor = try harness.trackctl(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.output.contains("error daemon"))
        #expect(doctor.output.contains("is trackd running?"))
    }

    @Test("SIGHUP with a broken config keeps the old one and says why")
    func reloadRejected() throws {
        let harness = try DaemonHarness()
        try harness.start()
        try "[sampling]\nprofile = sometimes\n".write(toFile: harness.configPath, atomically: true, encoding: .utf8)
        kill(harness.daemon!.processIdentifier, SIGHUP)
        var status = try harness.trackctl(["status"])
        for _ in 0..<40 where !status.output.contains("last reload rejected") {
            usleep(50_000)
            status = try harness.trackctl(["status"])
        }
        #expect(status.output.contains("last reload rejected"))
        #expect(status.output.contains("sampling.profile"))
        #expect(harness.daemon?.isRunning == true)
    }

    @Test("clients that send garbage, flood or hang never stall the loop")
    func hostileClients() throws {
        let harness = try DaemonHarness()
        try harness.start()
        // A client that connects and says nothing, one that floods, one that sends binary.
        let hung = try connect(harness.socketPath)
        let flood = try connect(harness.socketPath)
        let flooded = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)
        _ = flooded.withUnsafeBytes { send(flood, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        let binary = try connect(harness.socketPath)
        let junk: [UInt8] = [0, 1, 2, 0xFF, 10]
        _ = junk.withUnsafeBytes { send(binary, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let started = Date()
        let status = try harness.trackctl(["status"])
        #expect(status.status == 0)
        #expect(Date().timeIntervalSince(started) < 1.0)
        close(hung)
        close(flood)
        close(binary)
    }

    func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return fd
    }
}
