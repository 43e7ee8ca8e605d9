import Foundation
import Testing
@testable import TrackCore

/// The SVG map's geometry and determinism (the pictures themselves: scripts/plot-check renders
/// them with rsvg-convert and Chromium).
@Suite struct TripPlotTests {
    static func track() -> [LogFix] {
        (0...120).map { step in
            let angle = Double(step) * 3 * Double.pi / 180
            return LogFix(time: UTCTime(millisecondsSinceEpoch: Synthetic.originMilliseconds + Int64(step) * 5_000),
                          position: LogPosition(Synthetic.coordinate(north: 500 * sin(angle), east: 800 * (1 - cos(angle)))),
                          speedCentimetresPerSecond: Int32(300 + step * 10), mode: .threeD)
        }
    }

    @Test(arguments: [(0.0, 0.0, 0.5, 0.5), (0, 180, 1, 0.5), (0, -180, 0, 0.5), (85.05112878, 0, 0.5, 0),
                      (-85.05112878, 90, 0.75, 1), (48.1173, 11.5167, 0.531990833, 0.347126911)])
    func webMercatorMatchesTheStandardFormula(_ latitude: Double, _ longitude: Double, _ x: Double, _ y: Double) {
        let point = WebMercator.project(PlacePoints.coordinate(latitude, longitude))
        #expect(abs(point.x - x) < 1e-8)
        // y = 0.5 − ln(tan(π/4 + φ/2)) / 2π, with Foundation's libm.
        let reference = 0.5 - log(tan(Double.pi / 4 + latitude * Double.pi / 360)) / (2 * Double.pi)
        #expect(abs(point.y - reference) < 1e-12)
        #expect(abs(point.y - y) < 1e-6)
    }

    @Test func sameTripSameBytes() {
        var plot = TripPlot(title: "Tübingen → Tübingen, 3.2 km, 10 min", fixes: Self.track())
        plot.markers = [TripPlot.Marker(kind: "waypoint", position: Self.track()[40].position, label: "old <bridge> & mill")]
        #expect(plot.svg() == plot.svg())
        #expect(plot.svg().contains("old &lt;bridge&gt; &amp; mill"))
    }

    @Test func everyFixLandsInsideTheMapFrame() {
        for fixes in [Self.track(), Array(Self.track().prefix(1)), Array(Self.track().prefix(2))] {
            let plot = TripPlot(title: "t", fixes: fixes)
            let frame = TripPlot.mapFrame
            for fix in fixes {
                let point = plot.view.canvas(fix.position.coordinate)
                #expect(point.x >= frame.x + 39 && point.x <= frame.x + frame.width - 39)
                #expect(point.y >= frame.y + 39 && point.y <= frame.y + frame.height - 39)
            }
        }
    }

    @Test func aTripAcrossTheAntimeridianIsDrawnWhole() {
        let fixes = [179.99, 179.995, -179.995, -179.99].enumerated().map { index, longitude in
            LogFix(time: UTCTime(millisecondsSinceEpoch: Int64(index) * 1000),
                   position: LogPosition(PlacePoints.coordinate(-16.5, longitude)), mode: .threeD)
        }
        let plot = TripPlot(title: "t", fixes: fixes)
        let xs = fixes.map { plot.view.canvas($0.position.coordinate).x }
        #expect(xs == xs.sorted(), "west to east in one piece: \(xs)")
        #expect(xs.last! - xs.first! < TripPlot.mapFrame.width)
    }

    @Test func everyNumberInTheSVGIsOnTheCanvas() throws {
        var plot = TripPlot(title: "t", fixes: Self.track())
        plot.startLabel = "Start 07:30 · in Tübingen, Baden-Wurttemberg, DE"
        let svg = plot.svg()
        // x and y attributes and path coordinates (absolute commands only: M and L).
        let attributes = try Regex(#"(?:x|y|cx|cy)="(-?[0-9.]+)""#)
        for match in svg.matches(of: attributes) {
            let value = try #require(Double(String(match.output[1].substring!)))
            #expect(value >= 0 && value <= 1000, "\(match.output[0])")
        }
        let points = try Regex(#"[ML](-?[0-9.]+) (-?[0-9.]+)"#)
        for match in svg.matches(of: points) {
            let x = try #require(Double(String(match.output[1].substring!)))
            let y = try #require(Double(String(match.output[2].substring!)))
            #expect(x >= 0 && x <= 1000 && y >= 0 && y <= 760, "\(match.output[0])")
        }
    }

    @Test(arguments: [0.001, 0.5, 1, 2, 10, 1e-300, 1e300, 123_456.789])
    func logarithmAgreesWithLibm(_ x: Double) {
        let expected = log(x)
        let ours = WebMercator.logarithm(x)
        #expect(abs(ours - expected) <= 4 * expected.magnitude.ulp + 1e-15)
    }
}
