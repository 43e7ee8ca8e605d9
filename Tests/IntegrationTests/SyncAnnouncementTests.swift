import Foundation
import TestData
import Testing

/// `[log] announce-syncs = yes`: trackd says on stderr when a sync made records durable, and
/// what it says matches the log on disk; without the key it says nothing of the kind.
@Suite struct SyncAnnouncementTests {
    static var pattern: Regex<(Substring, Substring, Substring)> { #/trackd: log synced: (\d+) records durable, last fix (-|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)/# }

    @Test(.needsShared("gpsd-regress"), arguments: [true, false])
    func syncsAreAnnouncedOnlyWhenAsked(announce: Bool) throws {
        let bytes = try DaemonHarness.capture("ublox-neo-m9n-nmea.log")
        let harness = try DaemonHarness(extraConfig: announce ? "announce-syncs = yes" : "")
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.feed(bytes)
        _ = try harness.waitForStatus { json in
            ((json["log"] as? [String: Any])?["records"] as? Int ?? 0) >= 2
        }
        harness.stop()
        let output = harness.daemonOutput
        let lines = output.split(separator: "\n").compactMap { try? Self.pattern.wholeMatch(in: $0) }
        guard announce else {
            #expect(lines.isEmpty, "announced without announce-syncs: \(output)")
            return
        }
        let counts = lines.compactMap { Int($0.output.1) }
        #expect(!counts.isEmpty, "\(output)")
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "counts only grow: \(counts)")
        #expect(lines.last.map { $0.output.2 != "-" } == true, "the capture's fixes were synced")
        // The last announcement (SIGTERM's final sync) counts every record the log holds.
        let verify = try harness.trackctlOffline(["log", "verify", "--log", harness.logDirectory])
        #expect(verify.output.contains(" \(counts.last ?? -1) records;"), "\(verify.output) vs \(counts)")
    }
}
