import Testing
@testable import TrackctlCommands

// `trackctl log export --points`: GeoJSON's Point per fix, refused with the other formats.
@Suite struct LogExportArgumentsTests {
    @Test func pointsAreForGeoJSON() throws {
        #expect(try LogExportArguments(["--format", "geojson", "--points"]).points)
        #expect(try LogExportArguments(["--points", "--format", "geojson"]).points)
        #expect(try !LogExportArguments(["--format", "geojson"]).points)
        for format in ["gpx", "kml", "csv"] {
            #expect(throws: LogExportArgumentError.pointsNeedGeoJSON) { try LogExportArguments(["--format", format, "--points"]) }
        }
        #expect(LogExportArgumentError.pointsNeedGeoJSON.description.hasPrefix("--points is for --format geojson"))
    }
}
