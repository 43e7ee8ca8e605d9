import Foundation
import TestData
import Testing
import TrackCore
@testable import TrackctlCommands
import TrackIO

/// `trackctl log trips` and `trackctl log plot` on a log of two walks (a 700 s gap between
/// them), run as trackctl runs them. Without a gazetteer (a fresh clone, a laptop without the
/// package) they work: positions by their coordinates, and one note on standard error saying
/// so and how to get names.
@Suite struct LogTripsTests {
    /// A log of two trips in a fresh folder; the folder, the log and a gazetteer path that
    /// does not exist there (the "installed" one, for the context).
    static func twoTrips() throws -> (folder: TemporaryFolder, log: String, noTable: String) {
        let folder = try TemporaryFolder()
        let records = SyntheticLog.walk(300) + SyntheticLog.walk(300, from: 1_000)
        _ = try LogImport.write(records, to: folder.file("log"), files: PosixLogFiles())
        return (folder, folder.file("log"), folder.file("places.bin"))
    }

    static func note(_ command: String, _ path: String) -> String {
        command + ": no gazetteer at " + path + ": places are named by their coordinates "
            + "(scripts/build-places in the source tree builds one; --places FILE or $TRACKD_PLACES names it)\n"
    }

    /// The first fix of each walk, as the trips name it without a gazetteer.
    static let firstStart = Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: 11_516_700_000).formatted()

    @Test func tripsWithoutAGazetteerAreNamedByTheirCoordinatesAndSaySoOnce() throws {
        let (folder, log, noTable) = try Self.twoTrips()
        defer { folder.remove() }
        var context = CommandContext.captured(installedPlaces: noTable)
        #expect(LogTrips.run(["--log", log], &context) == 0)
        #expect(context.errors == Self.note("trackctl log trips", noTable))
        let lines = context.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("trip ") }.count == 2, "\(context.output)")
        #expect(lines.first?.hasPrefix("trip 1  " + Self.firstStart + " → ") == true, "\(context.output)")
        #expect(lines.contains("  from   2025-06-21T12:01:29.000Z  " + Self.firstStart), "\(context.output)")
        #expect(!context.output.contains(" of "), "no place names: \(context.output)")
    }

    @Test func tripsAsJSONWithoutAGazetteerCarryTheCoordinatesAsPlaces() throws {
        let (folder, log, noTable) = try Self.twoTrips()
        defer { folder.remove() }
        var context = CommandContext.captured(installedPlaces: noTable)
        #expect(LogTrips.run(["--log", log, "--json"], &context) == 0)
        #expect(context.errors == Self.note("trackctl log trips", noTable))
        let trips = try #require(try JSONSerialization.jsonObject(with: Data(context.output.utf8)) as? [[String: Any]])
        #expect(trips.count == 2)
        let start = try #require(trips.first?["start"] as? [String: Any])
        #expect(start["place"] as? String == Self.firstStart)
        #expect(start["lat"] as? Double == 48.1173 && start["lon"] as? Double == 11.5167)
        #expect((trips.first?["name"] as? String)?.hasPrefix(Self.firstStart + " → ") == true)
    }

    @Test func plotWithoutAGazetteerDrawsTheLastTripLabelledByCoordinatesAndSaysSoOnce() throws {
        let (folder, log, noTable) = try Self.twoTrips()
        defer { folder.remove() }
        var context = CommandContext.captured(installedPlaces: noTable)
        #expect(LogPlot.run(["--log", log], &context) == 0)
        let errors = context.errors.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(errors.count == 3 && errors[2].isEmpty, "two lines: \(context.errors)")
        #expect(errors.first.map { $0 + "\n" } == Self.note("trackctl log plot", noTable))
        #expect(errors.dropFirst().first?.hasPrefix("trackctl log plot: trip 2 of 2: ") == true, "\(context.errors)")
        let svg = context.output
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"), "\(svg.prefix(80))")
        #expect(svg.hasSuffix("</svg>\n"))
        // Trip 2 starts 1,000 s into the walk: 9 µ° a second further north, and its
        // longitude's zigzag (13 µ° a step, 17 steps) at step 14.
        let secondStart = Coordinate(latitudeNanodegrees: 48_126_300_000, longitudeNanodegrees: 11_516_700_000 + 14 * 13_000)
        #expect(svg.contains("Start 12:18 · " + secondStart.formatted()), "\(svg)")
        #expect(svg.contains(">" + secondStart.formatted() + " → "), "the title: \(svg)")
    }

    @Test func aTripNumberPastTheLastIsRefusedNamingHowManyThereAre() throws {
        let (folder, log, noTable) = try Self.twoTrips()
        defer { folder.remove() }
        var context = CommandContext.captured(installedPlaces: noTable)
        #expect(LogPlot.run(["--log", log, "--trip", "3"], &context) == 1)
        #expect(context.errors.hasSuffix("trackctl log plot: --trip 3: the log has 2 trips (trackctl log trips lists them)\n"))
        #expect(context.output.isEmpty)
    }

    /// A gazetteer named explicitly, by `--places` or `$TRACKD_PLACES`, must be there: its
    /// absence is an error, not a note.
    @Test(arguments: [true, false])
    func aNamedGazetteerThatIsMissingIsAnError(byOption: Bool) throws {
        let (folder, log, noTable) = try Self.twoTrips()
        defer { folder.remove() }
        let named = folder.file("named.bin")
        for verb in ["trips", "plot"] {
            var context = CommandContext.captured(environment: byOption ? [:] : ["TRACKD_PLACES": named], installedPlaces: noTable)
            let arguments = ["--log", log] + (byOption ? ["--places", named] : [])
            #expect((verb == "trips" ? LogTrips.run(arguments, &context) : LogPlot.run(arguments, &context)) == 1)
            #expect(context.errors == "trackctl log \(verb): " + named + ": No such file or directory\n")
            #expect(context.output.isEmpty)
        }
    }

    @Test func anEmptyLogHasNoTripsAndNothingToPlot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("log"), withIntermediateDirectories: true)
        var trips = CommandContext.captured(installedPlaces: folder.file("places.bin"))
        #expect(LogTrips.run(["--log", folder.file("log")], &trips) == 0)
        #expect(trips.output == "no trips\n")
        var plot = CommandContext.captured(installedPlaces: folder.file("places.bin"))
        #expect(LogPlot.run(["--log", folder.file("log")], &plot) == 1)
        #expect(plot.errors.hasSuffix("trackctl log plot: no trips in " + folder.file("log") + "\n"))
        #expect(plot.output.isEmpty)
    }

    @Test(arguments: [["--stop-minutes", "0"], ["--stop-metres", "x"], ["--trip", "1"], ["--json", "--log"], ["--frobnicate"]])
    func badOptionsAreUsageErrors(arguments: [String]) {
        var context = CommandContext.captured()
        #expect(LogTrips.run(arguments, &context) == 2)
        #expect(context.errors.hasPrefix("trackctl log trips: bad or incomplete option '"), "\(context.errors)")
        #expect(context.errors.contains("usage: trackctl log trips"))
    }

    @Test(.needsGazetteer)
    func withTheGazetteerTripsAreNamedAndNothingIsNoted() throws {
        let (folder, log, _) = try Self.twoTrips()
        defer { folder.remove() }
        var context = CommandContext.captured(installedPlaces: TestData.gazetteer)
        #expect(LogTrips.run(["--log", log], &context) == 0)
        #expect(context.errors.isEmpty, "\(context.errors)")
        #expect(context.output.hasPrefix("trip 1  Neuried → Munich, "), "\(context.output)")
    }
}
