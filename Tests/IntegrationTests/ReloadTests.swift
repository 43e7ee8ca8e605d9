import Foundation
import Glibc
import TestData
import Testing

/// SIGHUP on the real trackd: every key applied or named as needing a restart; a rejected
/// reload and a fences file that did not load at start reach doctor; a bad fences file at start
/// does not stop tracking.
@Suite("reload and start-up with bad files, end to end", .serialized)
struct ReloadTests {
    static func hangUp(_ harness: DaemonHarness) {
        if let pid = harness.daemon?.processIdentifier { kill(pid, SIGHUP) }
    }

    static func receiver(_ json: [String: Any]) -> [String: Any] { json["receiver"] as? [String: Any] ?? [:] }

    @Test("SIGHUP applies the receiver's baud and device and the log's directory; a socket path needs a restart",
          .needsShared("gpsd-regress"))
    func everyKeyApplied() throws {
        let bytes = try DaemonHarness.capture(DaemonIntegrationTests.capture)
        let harness = try DaemonHarness()
        try harness.writeConfig(device: harness.slavePath, extra: "")
        // The wrong rate first, as a new user would have it.
        let config = try String(contentsOfFile: harness.configPath, encoding: .utf8)
        try config.replacingOccurrences(of: "baud = 9600", with: "baud = 4800")
            .write(toFile: harness.configPath, atomically: true, encoding: .utf8)
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        #expect(Self.receiver(try #require(try harness.waitForStatus { _ in true }))["baud"] as? Int == 4800)

        // doctor's own advice: set the rate, then SIGHUP. Also a new log directory.
        let moved = harness.directory.appendingPathComponent("log2").path
        harness.logDirectory = moved
        try harness.writeConfig(device: harness.slavePath)
        Self.hangUp(harness)
        let applied = try harness.waitForStatus { json in json["reloads"] as? Int == 1 }
        let shown = try harness.trackctl(["status"]).output
        let json = try #require(applied, "no reload: \(harness.daemonOutput) \(shown)")
        #expect(Self.receiver(json)["baud"] as? Int == 9600, "\(Self.receiver(json))")
        #expect((json["log"] as? [String: Any])?["directory"] as? String == moved)
        harness.feed(Array(bytes.prefix(20_000)))
        let logged = try harness.waitForStatus(seconds: 20) { json in
            ((json["log"] as? [String: Any])?["records"] as? Int ?? 0) > 0
        }
        let seen = try harness.trackctl(["status"]).output
        #expect(logged != nil, "nothing logged to the new directory: \(seen)")
        #expect(try harness.trackctlOffline(["log", "verify", "--log", moved]).output.contains("; 0 problems"))
        let text = try harness.trackctl(["status"]).output
        #expect(!text.contains("applied when trackd restarts"), "\(text)")

        // Another device: the port is reopened on it.
        try harness.writeConfig(device: "/dev/ttyTRACKD-RELOADED")
        Self.hangUp(harness)
        let reopened = try harness.waitForStatus { json in
            json["reloads"] as? Int == 2 && Self.receiver(json)["path"] as? String == "/dev/ttyTRACKD-RELOADED"
        }
        #expect(reopened != nil)

        // A key that cannot change while trackd runs is named.
        let text2 = try String(contentsOfFile: harness.configPath, encoding: .utf8)
        try text2.replacingOccurrences(of: "socket = \(harness.socketPath)", with: "socket = \(harness.socketPath).new")
            .write(toFile: harness.configPath, atomically: true, encoding: .utf8)
        Self.hangUp(harness)
        _ = try harness.waitForStatus { json in json["reloads"] as? Int == 3 }
        let status = try harness.trackctl(["status"]).output
        #expect(status.contains("changed, applied when trackd restarts: control.socket"), "\(status)")
        let doctor = try harness.trackctl(["doctor"]).output
        #expect(doctor.contains("error config: changed by the last reload but applied only when trackd restarts: control.socket"),
                "\(doctor)")
    }

    @Test("a rejected reload reaches doctor, which warns the next start would fail")
    func rejectedReloadInDoctor() throws {
        let harness = try DaemonHarness()
        try harness.start()
        try "[filter]\nmax-accuracy = fifty\n".write(toFile: harness.configPath, atomically: true, encoding: .utf8)
        Self.hangUp(harness)
        var doctor = ""
        for _ in 0..<50 {
            doctor = try harness.trackctl(["doctor"]).output
            if doctor.contains("error config") { break }
            usleep(100_000)
        }
        #expect(doctor.contains("error config: the last reload was rejected:"), "\(doctor)")
        #expect(doctor.contains("max-accuracy"), "\(doctor)")
        #expect(doctor.contains("will not start with it"), "\(doctor)")
        #expect(!doctor.contains("ok all links work"))
    }

    @Test("a bad fences file at start: trackd tracks without fences, says so loudly, and SIGHUP loads a good one",
          .needsShared("gpsd-regress"))
    func badFencesAtStartDoNotStopTracking() throws {
        let bytes = try DaemonHarness.capture(DaemonIntegrationTests.capture)
        let harness = try DaemonHarness()
        let fences = harness.directory.appendingPathComponent("fences.geojson")
        try """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"tiny","radius":2},
             "geometry":{"type":"Point","coordinates":[9,48]}}]}
            """.write(to: fences, atomically: true, encoding: .utf8)
        try harness.writeConfig(device: harness.slavePath, extra: "[fences]\nfile = \(fences.path)\n")
        try harness.start()
        #expect(harness.daemon?.isRunning == true, "a bad fences file stopped trackd")
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.feed(Array(bytes.prefix(20_000)))
        let logging = try harness.waitForStatus(seconds: 20) { json in
            ((json["sampling"] as? [String: Any])?["recorded"] as? Int ?? 0) > 0
        }
        #expect(logging != nil, "trackd did not track without its fences")
        #expect(harness.daemonOutput.contains("STARTING WITHOUT FENCES"))
        let status = try harness.trackctl(["status"]).output
        #expect(status.contains("NO FENCES: not loaded at start:"), "\(status)")
        let doctor = try harness.trackctl(["doctor"]).output
        #expect(doctor.contains("error fences: not loaded at start:"), "\(doctor)")
        #expect(doctor.contains("radius 2.0 m is outside the configured range"), "\(doctor)")
        #expect(!doctor.contains("ok all links work"), "\(doctor)")

        try """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"home","radius":200},
             "geometry":{"type":"Point","coordinates":[-122.6269,38.1105]}}]}
            """.write(to: fences, atomically: true, encoding: .utf8)
        Self.hangUp(harness)
        let loaded = try harness.waitForStatus { json in
            (json["fences"] as? [String: Any])?["count"] as? Int == 1 && json["reloads"] as? Int == 1
        }
        #expect(loaded != nil)
        #expect(!(try harness.trackctl(["doctor"]).output.contains("error fences")))
    }

    @Test("trackd --check says when there is no configuration file or no fences file")
    func checkSaysWhatIsMissing() throws {
        let harness = try DaemonHarness()
        try harness.writeConfig(device: harness.slavePath, extra: "[fences]\nfile = \(harness.directory.path)/none.geojson\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackd"))
        process.arguments = ["--check", "--config", harness.configPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output.contains("no fences file at \(harness.directory.path)/none.geojson: no fences"), "\(output)")
    }
}
