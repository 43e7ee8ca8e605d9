import Testing
import TrackCore
@testable import TrackctlCommands

/// `trackctl pull`'s arguments: --export and --prune, and the remote commands they lead to.
@Suite struct PullArgumentsTests {
    @Test func exportAndPruneReachTheirCommands() throws {
        let parsed = try PullArguments(["bike-1", "boat", "--export", "geojson", "--prune", "--remote-log", "/srv/log"])
        #expect(parsed.hosts == ["bike-1", "boat"])
        #expect(parsed.export == .geojson)
        #expect(parsed.prune)
        let prune = parsed.pruneCommand("boat", through: "3:1234:77:9f3a11c2")
        #expect(Array(prune.suffix(9)) == ["--", "boat", "trackctl", "log", "prune", "--through", "3:1234:77:9f3a11c2", "--log", "/srv/log"])
        let send = parsed.command("boat", after: "start")
        #expect(Array(send.suffix(7)) == ["trackctl", "log", "send", "--after", "start", "--log", "/srv/log"])
        let plain = try PullArguments(["bike-1"])
        #expect(plain.export == nil)
        #expect(!plain.prune)
    }

    @Test(arguments: [
        (["bike-1", "--export"], PullArguments.Refusal.missingValue("--export")),
        (["bike-1", "--export", "shp"], .badFormat("shp")),
        (["bike-1", "--export", "GPX"], .badFormat("GPX")),
        (["--prune"], .noHosts),
        (["bike-1", "--prune=yes"], .unknownOption("--prune=yes")),
        (["../etc", "--prune"], .badHost("../etc")),
    ] as [([String], PullArguments.Refusal)])
    func badArgumentsAreRefusedByName(arguments: [String], refusal: PullArguments.Refusal) {
        #expect(throws: refusal) { try PullArguments(arguments) }
    }

    @Test func exportNamesAreTheirTimeSpanWithoutColons() {
        let first = UTCTime(millisecondsSinceEpoch: 1_750_507_289_000)
        #expect(PullExport.compact(first) == "20250621T120129Z")
        #expect(!PullExport.compact(first).contains(":"))
    }
}
