import Foundation
import TestData
import Testing

/// trackd writes its track log: a replay of a real capture ends up in the segments, with the
/// boot marker, the permission change and a waypoint, synced on SIGTERM.
@Suite struct LogIntegrationTests {
    @Test("a replay ends up in the log, readable by trackctl log list and verify", .needsShared("gpsd-regress"))
    func replayEndsUpInTheLog() throws {
        let (harness, status) = try DaemonHarness.recording("ublox-neo-m9n-nmea.log")
        let shown = try harness.trackctl(["status"]).output
        let json = try #require(status, "trackd recorded no fix: \(shown)")
        #expect(try harness.trackctl(["mark", "old", "bridge"]).status == 0)
        let log = try #require(json["log"] as? [String: Any])
        #expect(log["directory"] as? String == harness.logDirectory)
        #expect(log["open"] as? Bool == true)
        #expect(log["storageError"] as? Bool == false)
        let text = try harness.trackctl(["status"])
        #expect(text.output.contains("log       \(harness.logDirectory): "))
        let doctor = try harness.trackctl(["doctor"])
        #expect(doctor.output.contains("ok storage: \(harness.logDirectory) writable"), "\(doctor.output)")
        let final = try harness.waitForStatus { _ in true }
        let recorded = ((final?["sampling"] as? [String: Any])?["recorded"] as? Int) ?? 0
        harness.stop()

        let list = try harness.trackctlOffline(["log", "list", "--log", harness.logDirectory])
        #expect(list.status == 0)
        #expect(list.output.contains("0000000001.tlog"))
        let verify = try harness.trackctlOffline(["log", "verify", "--log", harness.logDirectory])
        #expect(verify.status == 0, "\(verify.output)")
        // Boot marker, permission change, the fixes recorded, the waypoint.
        let records = verify.output.split(separator: ";").first?.split(separator: ",").last?
            .split(separator: " ").first.flatMap { Int($0) } ?? 0
        #expect(records >= recorded + 3, "\(verify.output)")
        // Without --log the log commands read the configuration's [log] directory.
        let configured = try harness.trackctlOffline(["log", "verify", "--config", harness.configPath])
        #expect(configured.output == verify.output, "\(configured.output)")
        let exported = try harness.trackctlOffline(["log", "export", "--format", "csv", "--config", harness.configPath])
        #expect(exported.status == 0 && exported.output.contains(",fix,"), "\(exported.output)")
        let missing = try harness.trackctlOffline(["log", "list", "--config", harness.directory.path + "/none.conf"])
        #expect(missing.status == 1 && missing.output.contains("none.conf"), "\(missing.output)")
    }
}
