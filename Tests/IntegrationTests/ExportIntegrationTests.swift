import Foundation
import TestData
import Testing

/// `trackctl log export` on a log the real trackd wrote: every format carries the recorded
/// fixes and the waypoint, and the real consumers (when scripts/setup installed them) read the
/// waypoint's escaped name back unchanged.
@Suite struct ExportIntegrationTests {
    /// Runs the real trackctl; standard output and standard error apart.
    static func trackctl(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackctl"))
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Standard error is a line or two; read standard output to its end first.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Runs a consumer (`gpsbabel`, `ogrinfo`, the gpxpy venv's python) when it is installed.
    static func consumer(_ path: String, _ arguments: [String]) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : "exit \(process.terminationStatus)"
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("a log trackd wrote exports in every format, waypoint included", .needsShared("gpsd-regress"))
    func recordedLogExports() throws {
        let (harness, recorded) = try DaemonHarness.recording("ublox-neo-m9n-nmea.log")
        try #require(recorded != nil, "trackd recorded no fix")
        #expect(try harness.trackctl(["mark", "old", "&", "<bridge>"]).status == 0)
        harness.stop()
        let log = harness.logDirectory

        var exports: [String: String] = [:]
        for format in ["gpx", "geojson", "kml", "csv"] {
            let result = try Self.trackctl(["log", "export", "--format", format, "--log", log])
            #expect(result.status == 0, "\(format): \(result.errors)")
            #expect(result.errors.contains("; 0 log problems"), "\(format): \(result.errors)")
            exports[format] = result.output
            try result.output.write(toFile: harness.directory.appendingPathComponent("out.\(format)").path,
                                    atomically: true, encoding: .utf8)
        }
        let gpx = exports["gpx"] ?? ""
        let fixes = Self.count("<trkpt ", in: gpx)
        #expect(fixes > 0)
        #expect(gpx.contains("<name>old &amp; &lt;bridge&gt;</name><desc>waypoint</desc><type>waypoint</type></wpt>"))
        #expect(Self.count(",fix,\n", in: exports["csv"] ?? "") == fixes, "one CSV row per trkpt")
        #expect((exports["csv"] ?? "").contains(",,,waypoint,old & <bridge>\n"), "the waypoint is a CSV row too")
        #expect(Self.count("\n", in: exports["kml"] ?? "") > fixes, "one KML tuple per line")
        #expect((exports["geojson"] ?? "").contains(#""kind":"waypoint","name":"old & <bridge>""#))
        #expect((exports["kml"] ?? "").contains("<Placemark><name>old &amp; &lt;bridge&gt;</name>"))

        // The consumers, where installed.
        let path = harness.directory.appendingPathComponent("out.gpx").path
        if let babel = try Self.consumer("/usr/bin/gpsbabel", ["-i", "gpx", "-f", path, "-o", "unicsv", "-F", "-"]) {
            #expect(babel.contains("old & <bridge>"), "gpsbabel: \(babel.prefix(300))")
        }
        if let ogr = try Self.consumer("/usr/bin/ogrinfo", ["-ro", "-q", path, "waypoints"]) {
            #expect(ogr.contains("name (String) = old & <bridge>"), "ogrinfo: \(ogr.prefix(300))")
        }
        let python = DaemonHarness.root.appendingPathComponent(".build/export-venv/bin/python").path
        let script = "import gpxpy,sys; g=gpxpy.parse(open(sys.argv[1])); "
            + "print(len(g.waypoints), g.waypoints[0].name, sum(len(s.points) for t in g.tracks for s in t.segments))"
        if let parsed = try Self.consumer(python, ["-c", script, path]) {
            #expect(parsed == "1 old & <bridge> \(fixes)\n", "gpxpy: \(parsed)")
        }
    }

    @Test("bad arguments and a missing log are refused, naming what and where")
    func refusals() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-log-\(UUID().uuidString)").path
        let cases: [([String], Int32, String)] = [
            (["--log", missing], 1, missing + ": cannot read the log directory"),
            (["--format", "gpz"], 2, "unknown format 'gpz' (gpx, geojson, kml or csv)"),
            (["--since", "2026-11-30T12:00:00"], 2, "--since '2026-11-30T12:00:00': not an ISO 8601 time"),
            (["--until", "yesterday"], 2, "--until 'yesterday'"),
            (["--since", "2026-12-01", "--until", "2026-11-30"], 2, "--until must be after --since"),
            (["--simplify", "-5"], 2, "--simplify '-5': not a distance in metres"),
            (["--datum", "wgs72"], 2, "unknown datum 'wgs72'"),
            (["--log"], 2, "--log needs a value"),
            (["--fromat", "gpx"], 2, "unknown option '--fromat'"),
            (["--points"], 2, "--points is for --format geojson"),
        ]
        for (arguments, status, message) in cases {
            let result = try Self.trackctl(["log", "export"] + arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
            #expect(result.output.isEmpty, "\(arguments): nothing on standard output")
        }
    }
}
