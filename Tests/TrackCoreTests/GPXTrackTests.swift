import Foundation
import Testing
@testable import TrackCore

@Suite struct GPXTrackTests {
    static func parse(_ text: String) throws(GPXError) -> GPXTrack {
        try GPXTrack(parsing: Array(text.utf8))
    }

    static func gpx(_ body: String, version: String = "version=\"1.1\"") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx \(version) creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        \(body)
        </gpx>
        """
    }

    static func time(_ text: String) -> UTCTime? { UTCTime(iso8601: Array(text.utf8), form: .recorded) }

    @Test func readsTrackAndRoutePointsWithElevationAndTime() throws {
        let text = "\u{FEFF}" + Self.gpx("""
              <metadata><name>Test &amp; more</name><time>2024-01-01T00:00:00Z</time></metadata>
              <!-- a comment with <trkpt> inside -->
              <wpt lat="1" lon="2"><ele>9</ele><time>2020-01-01T00:00:00Z</time></wpt>
              <trk><name>ride</name><desc><![CDATA[<b>fast</b>]]></desc><trkseg>
                <trkpt lat="48.1173" lon='-11.5167'>
                  <ele> 545.4 </ele>
                  <time>2024-05-01T10:00:00Z</time>
                  <extensions><speed>3.2</speed></extensions>
                </trkpt>
                <trkpt lat="-33.8688000" lon="151.2093"/>
              </trkseg></trk>
              <rte><rtept lat="0" lon="180"><time>2024-05-01T12:00:01.250+02:00</time></rtept></rte>
            """)
        let track = try Self.parse(text)
        #expect(track.points == [
            GPXPoint(
                position: Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: -11_516_700_000),
                elevationMillimetres: 545_400, time: Self.time("2024-05-01T10:00:00Z"), line: 7),
            GPXPoint(
                position: Coordinate(latitudeNanodegrees: -33_868_800_000, longitudeNanodegrees: 151_209_300_000),
                line: 12),
            GPXPoint(
                position: Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: 180_000_000_000),
                time: Self.time("2024-05-01T10:00:01.250Z"), line: 14),
        ])
    }

    @Test func windowsLineEndingsCountLinesTheSame() throws {
        let text = Self.gpx("<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"/>\n</trkseg></trk>")
            .replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Self.parse(text).points.map(\.line) == [4])
    }

    static let point = "<trkpt lat=\"48.1\" lon=\"11.5\"><time>2024-05-01T10:00:00Z</time></trkpt>"

    @Test(arguments: [
        ("<kml></kml>", 1, GPXError.Problem.notGPX(root: "kml")),
        (gpx("<trk/>", version: "version=\"1.0\""), 2, .unsupportedVersion("1.0")),
        (gpx("<trk/>", version: ""), 2, .unsupportedVersion(nil)),
        (gpx("<trk><trkseg>\n<trkpt lon=\"1\"/></trkseg></trk>"), 4, .missingAttribute(element: "trkpt", attribute: "lat")),
        (gpx("<trk><trkseg><trkpt lat=\"1\"/></trkseg></trk>"), 3, .missingAttribute(element: "trkpt", attribute: "lon")),
        (gpx("<trk><trkseg><trkpt lat=\"91.5\" lon=\"1\"/></trkseg></trk>"), 3, .outOfRange(field: "lat", text: "91.5")),
        (gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"-180.1\"/></trkseg></trk>"), 3, .outOfRange(field: "lon", text: "-180.1")),
        (gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"abc\"/></trkseg></trk>"), 3, .invalidNumber(field: "lon", text: "abc")),
        (gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"2\">\n<ele>12,5</ele></trkpt></trkseg></trk>"), 4, .invalidNumber(field: "ele", text: "12,5")),
        (gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"><ele>99999999</ele></trkpt></trkseg></trk>"), 3, .outOfRange(field: "ele", text: "99999999")),
        (gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>yesterday</time></trkpt></trkseg></trk>"), 3, .invalidTime("yesterday")),
        (gpx("<trk><trkseg>\(point)\n<trkpt lat=\"1\" lon=\"2\"><time>2024-05-01T09:59:59Z</time></trkpt></trkseg></trk>"), 4, .timeGoesBackwards("2024-05-01T09:59:59Z")),
        (gpx("<trk><trkseg>\(point)\n</trk>"), 4, .mismatchedTag(expected: "trkseg", found: "trk")),
        (gpx("<trk><trkseg>\(point)</trkseg></trk>\n<!-- never closed"), 4, .unexpectedEnd("a comment")),
        (gpx("<trk><trkseg>\(point)</trkseg></trk>\n<!-- a -- b -->"), 4, .malformedTag("\"--\" inside a comment")),
        ("<gpx version=\"1.1\"><trk><trkseg>\(point)", 1, .unexpectedEnd("<trkseg>")),
        (gpx("<metadata/>"), 4, .noPoints),
        (gpx("<trk><trkseg>\(point)</trkseg></trk>") + "\ntrailing text", 5, .unexpectedContent("text outside the root element")),
        (gpx("<trk><trkseg><trkpt lat=48 lon=\"1\"/></trkseg></trk>"), 3, .malformedTag("the value of lat is not quoted")),
        (gpx("<trk><trkseg><trkpt lat=\"1\"lon=\"1\"/></trkseg></trk>"), 3, .malformedTag("<trkpt> has a stray character")),
    ] as [(String, Int, GPXError.Problem)])
    func badFilesNameTheLineAndTheProblem(text: String, line: Int, problem: GPXError.Problem) {
        #expect(throws: GPXError(line: line, problem)) { _ = try Self.parse(text) }
    }

    @Test func aPointOutsideATrackSegmentIsNotAPoint() throws {
        // <trkpt> belongs in <trk><trkseg>; anywhere else it is someone's extension.
        let text = Self.gpx("""
            <extensions><trkpt lat="1" lon="2"/></extensions>
            <trk><trkseg><trkpt lat="3" lon="4"><trkpt lat="5" lon="6"/></trkpt></trkseg></trk>
            """)
        #expect(try Self.parse(text).points.map(\.position.latitudeNanodegrees) == [3_000_000_000])
    }

    @Test func errorsReadAsOneLine() {
        #expect(GPXError(line: 12, .outOfRange(field: "lat", text: "91.5")).description
            == "line 12: lat \"91.5\" is out of range")
        #expect(GPXError(line: 3, .unsupportedVersion("1.0")).description == "line 3: GPX version \"1.0\" is not 1.1")
    }

    @Test func theBundledDemoRouteIsATenMinuteLoop() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("board/demo-route.gpx")
        let track = try GPXTrack(parsing: Array(try Data(contentsOf: url)))
        #expect(track.points.count >= 100)
        #expect(track.points.allSatisfy { $0.time != nil && $0.elevationMillimetres != nil })
        #expect(track.durationMilliseconds == 600_000)
        #expect(track.points.first?.position == track.points.last?.position)
    }
}
