import Testing
import TrackCore
@testable import TrackctlCommands

/// `trackctl simulate`'s command line (the suite's name matches `--filter Simulator`).
@Suite struct SimulatorCommandTests {
    @Test func everyOptionLandsInTheSettings() {
        let parsed = SimulateCommand.parse([
            "route.gpx", "--speed", "2.5", "--rate", "10", "--noise", "3", "--cold-start", "30", "--seed", "9",
            "--loop", "--pty", "/run/gps0",
        ])
        var expected = SimulateCommand.Options()
        expected.route = "route.gpx"
        expected.simulation = NMEASimulator.Configuration(
            speedFactor: 2.5, rateHertz: 10, noiseMetres: 3, coldStartSeconds: 30, loops: true, seed: 9)
        expected.linkPath = "/run/gps0"
        #expect(parsed == .run(expected))
    }

    @Test func defaultsReplayTheRouteAsRecorded() {
        var expected = SimulateCommand.Options()
        expected.route = "r.gpx"
        expected.toStandardOutput = true
        #expect(SimulateCommand.parse(["--stdout", "r.gpx"]) == .run(expected))
        #expect(SimulateCommand.parse(["--help"]) == .help)
    }

    /// On a pseudo-terminal the receiver's clock is the system's, as a receiver's; with
    /// --stdout the route's own times; --clock says which either way.
    @Test(arguments: [
        (["r.gpx"], true), (["r.gpx", "--stdout"], false), (["r.gpx", "--clock", "route"], false),
        (["r.gpx", "--stdout", "--clock", "now"], true),
    ] as [([String], Bool)])
    func theClockIsTheSystemsOnAPseudoTerminal(arguments: [String], startsNow: Bool) throws {
        guard case .run(let options) = SimulateCommand.parse(arguments) else {
            Issue.record("\(arguments) did not parse")
            return
        }
        #expect(options.startsNow == startsNow)
    }

    @Test(arguments: [
        (["r.gpx", "--clock", "gps"], "--clock takes now or route"),
        (["r.gpx", "--clock"], "--clock takes now or route"),
        ([], "which route? give a GPX file"),
        (["r.gpx", "--rate", "2"], "--rate takes 1, 5 or 10"),
        (["r.gpx", "--speed", "0"], "--speed needs a number above 0, e.g. --speed 10"),
        (["r.gpx", "--speed", "1e3"], "--speed needs a number above 0, e.g. --speed 10"),
        (["r.gpx", "--noise"], "--noise needs metres, e.g. --noise 2.5"),
        (["r.gpx", "--cold-start", "-1"], "--cold-start needs whole seconds, e.g. --cold-start 30"),
        (["r.gpx", "other.gpx"], "unexpected argument 'other.gpx'"),
        (["r.gpx", "--fast"], "unexpected argument '--fast'"),
        (["r.gpx", "--stdout", "--pty", "/tmp/x"], "--pty and --stdout exclude each other"),
    ] as [([String], String)])
    func mistakesAreUsageErrors(arguments: [String], message: String) {
        #expect(SimulateCommand.parse(arguments) == .usageError(message))
    }

    @Test(arguments: [("2.5", 2.5), ("10", 10), ("0.25", 0.25), (".5", 0.5)] as [(String, Double)])
    func decimals(text: String, value: Double) {
        #expect(SimulateCommand.decimal(text) == value)
    }
}
