import Testing
import TrackCore
@testable import TrackctlCommands

/// `trackctl log export`'s arguments: what each option sets, and the error that names a bad
/// option and its value.
@Suite struct LogExportArgumentsTests {
    static func time(_ text: String) -> UTCTime? { UTCTime(iso8601: text) }

    @Test func nothingGivenIsGPXOfTheDaemonsLog() throws {
        let parsed = try LogExportArguments([])
        #expect(parsed.format == .gpx && parsed.directory == LogCommand.defaultDirectory)
        #expect(parsed.options.since == nil && parsed.options.until == nil)
        #expect(parsed.options.simplifyMillimetres == nil && parsed.options.datum == .wgs84)
        #expect(parsed.naming == LogExportNaming())
    }

    @Test func everyOptionSetsItsValue() throws {
        let parsed = try LogExportArguments([
            "-f", "geojson", "--log", "/tmp/log", "--since", "2026-11-30", "--until", "2026-11-30T12:00:00Z",
            "--simplify", "2.5m", "--datum", "gcj02", "--trip", "3", "--places", "p.bin", "--fences", "f.geojson",
        ])
        #expect(parsed.format == .geojson && parsed.directory == "/tmp/log")
        #expect(parsed.options.since == Self.time("2026-11-30T00:00:00Z"))
        #expect(parsed.options.until == Self.time("2026-11-30T12:00:00Z"))
        #expect(parsed.options.simplifyMillimetres == 2_500 && parsed.options.datum == .gcj02)
        #expect(parsed.naming == LogExportNaming(trip: 3, places: "p.bin", fences: "f.geojson"))
    }

    @Test(arguments: ExportFormat.allCases)
    func everyFormatByItsName(format: ExportFormat) throws {
        #expect(try LogExportArguments(["--format", format.rawValue]).format == format)
    }

    @Test(arguments: [("5", 5_000), ("5m", 5_000), ("2.5", 2_500), ("0.25m", 250), ("0", 0), ("1000000", 1_000_000_000),
                      ("007.125", 7_125)] as [(String, Int64)])
    func simplifyTakesMetres(text: String, millimetres: Int64) {
        #expect(LogExportArguments.millimetres(text) == millimetres)
    }

    @Test(arguments: ["", "m", "-5", "+5", "5 m", "5km", "0.0001", "1000001", "five", "5.5.5", "1e3", ".", "5mm"])
    func simplifyRefusesWhatIsNotMetres(text: String) {
        #expect(LogExportArguments.millimetres(text) == nil)
    }

    @Test(arguments: [
        (["--format", "gpz"], LogExportArgumentError.unknownFormat("gpz"),
         "unknown format 'gpz' (gpx, geojson, kml or csv)"),
        (["--datum", "nad27"], .unknownDatum("nad27"), "unknown datum 'nad27' (wgs84, gcj02 or bd09)"),
        (["--since", "yesterday"], .badTime(option: "--since", "yesterday"),
         "--since 'yesterday': not an ISO 8601 time (e.g. 2026-11-30T12:00:00Z, or 2026-11-30 for its midnight UTC)"),
        (["--until", "2026-13-01"], .badTime(option: "--until", "2026-13-01"),
         "--until '2026-13-01': not an ISO 8601 time (e.g. 2026-11-30T12:00:00Z, or 2026-11-30 for its midnight UTC)"),
        (["--simplify", "-5"], .badSimplify("-5"),
         "--simplify '-5': not a distance in metres (e.g. 5, 5m or 2.5; at most three decimals)"),
        (["--format"], .missingValue(option: "--format"), "--format needs a value"),
        (["--format", "csv", "--log"], .missingValue(option: "--log"), "--log needs a value"),
        (["--gpx"], .unknownOption("--gpx"), "unknown option '--gpx'"),
        (["--trip", "0"], .unknownOption("--trip 0"), "unknown option '--trip 0'"),
        (["--trip", "two"], .unknownOption("--trip two"), "unknown option '--trip two'"),
        (["--since", "2026-11-30T12:00:00Z", "--until", "2026-11-30T12:00:00Z"], .emptyWindow,
         "--until must be after --since"),
    ] as [([String], LogExportArgumentError, String)])
    func badArgumentsAreNamed(arguments: [String], error: LogExportArgumentError, message: String) {
        #expect(throws: error) { try LogExportArguments(arguments) }
        #expect(error.description == message)
    }
}
