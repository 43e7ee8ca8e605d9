import Foundation
@testable import TrackCore
import TestData
import Testing

// Fences on real recordings from ../shared/data/tracks (see its README), skipped when absent:
// the stationary receiver (static-nmea-ams, gps.log: 20 minutes of jitter, ±22 m) must not
// change state with an edge anywhere through its cloud, though single fixes flip sides.

/// Filtered fixes from NMEA text through the real receiver core and filter: (position,
/// accuracy in mm, UTC ms).
func filteredFixes(nmea: [UInt8]) -> [(Coordinate, Int64, Int64)] {
    var receiver = NMEAReceiver()
    var fixes: [Fix] = []
    nmea.withUnsafeBytes { receiver.consume($0) { fixes.append(copy $0) } }
    receiver.finish { fixes.append(copy $0) }
    return filtered(fixes)
}

/// Fixes through the default filter, the monotonic clock following the fix times.
func filtered(_ fixes: [Fix]) -> [(Coordinate, Int64, Int64)] {
    var filter = FixFilter()
    var result: [(Coordinate, Int64, Int64)] = []
    guard let first = fixes.first?.time?.millisecondsSinceEpoch else { return [] }
    for fix in fixes {
        guard let time = fix.time?.millisecondsSinceEpoch, let position = fix.position else { continue }
        guard case .accepted(let accuracy) = filter.evaluate(fix, now: .milliseconds(time - first)) else { continue }
        result.append((position, accuracy, time))
    }
    return result
}

@Suite struct FenceRealTrackTests {
    static let stationaryPath: URL? = TestData.shared("tracks/original/gps.log")

    static let stationary: [(Coordinate, Int64, Int64)] = {
        guard let path = stationaryPath, let data = try? Data(contentsOf: path) else { return [] }
        return filteredFixes(nmea: [UInt8](data))
    }()

    /// The median position of the cloud.
    static var median: Coordinate {
        let latitudes = stationary.map(\.0.latitudeNanodegrees).sorted()
        let longitudes = stationary.map(\.0.longitudeNanodegrees).sorted()
        return Coordinate(latitudeNanodegrees: latitudes[latitudes.count / 2], longitudeNanodegrees: longitudes[longitudes.count / 2])
    }

    /// Fences whose edge passes `offset` metres from the median along `azimuth` (the edge
    /// runs square to it): a 2 km circle and a 1 km square polygon on the far side.
    static func fences(azimuth: Double, offset: Double) throws -> FenceSet {
        var fences = FenceSet()
        let edgePoint = Geodesic.direct(from: median, azimuthDegrees: azimuth, distanceMetres: offset)
        let centre = Geodesic.direct(from: edgePoint, azimuthDegrees: azimuth, distanceMetres: 2_000)
        fences.appendCircle(Fence(id: "circle", kind: .circle(radiusMetres: 2_000)), centre: centre, radiusMetres: 2_000)
        let left = Geodesic.direct(from: edgePoint, azimuthDegrees: azimuth - 90, distanceMetres: 500)
        let right = Geodesic.direct(from: edgePoint, azimuthDegrees: azimuth + 90, distanceMetres: 500)
        let farRight = Geodesic.direct(from: right, azimuthDegrees: azimuth, distanceMetres: 1_000)
        let farLeft = Geodesic.direct(from: left, azimuthDegrees: azimuth, distanceMetres: 1_000)
        try fences.appendPolygon(Fence(id: "square", kind: .polygon(rings: 1)), parts: [[[left, right, farRight, farLeft, left]]])
        fences.buildIndex()
        return fences
    }

    @Test(.needsShared("tracks/original/gps.log"),
          arguments: [0.0, 90.0, 180.0, 270.0])
    func noFlappingOnTheStationaryCapture(azimuth: Double) throws {
        #expect(Self.stationary.count > 1100, "the 20-minute capture at 1 Hz, nearly all accepted")
        for offset in stride(from: -20.0, through: 20.0, by: 2.0) {
            let fences = try Self.fences(azimuth: azimuth, offset: offset)
            var monitor = FenceMonitor(fences: fences, settings: FenceSettings())
            var transitions: [String] = []
            for (position, accuracy, time) in Self.stationary {
                monitor.update(position: position, accuracyMillimetres: accuracy, timeMilliseconds: time) { fence, transition in
                    if case .initial = transition { return }
                    transitions.append("\(fences.fences[fence].id) \(transition.name) at \(time)")
                }
            }
            #expect(transitions.isEmpty, "edge \(offset) m from the median at \(azimuth)°: \(transitions)")
            // Every fence got its initial state.
            #expect((0..<monitor.fences.count).allSatisfy { monitor.track($0).sinceMilliseconds != nil })
        }
        // Without the window and the band, single fixes flip across the edge through the median.
        let fences = try Self.fences(azimuth: azimuth, offset: 0)
        var flips = 0
        var previous: FenceState?
        for (position, _, _) in Self.stationary {
            fences.states(at: position, accuracyMetres: 0) { fence, state in
                guard fence == 0 else { return }
                if let previous, previous != state { flips += 1 }
                previous = state
            }
        }
        #expect(flips >= 5, "single fixes crossed the edge \(flips) times")
    }
}

/// Enter, exit and dwell on a real drive (car-sbn-nl) against events worked out by hand:
/// Fixtures/fences/drive-sbn.{geojson,events}.
@Suite struct FenceDriveTests {
    static func fixture(_ name: String, _ ext: String) -> Data? {
        Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures/fences").flatMap { try? Data(contentsOf: $0) }
    }

    @Test(.needsShared("tracks/csv"))
    func eventsOnTheDriveMatchTheHandWorkedOnes() throws {
        let fences = try FenceFile.parse([UInt8](try #require(Self.fixture("drive-sbn", "geojson"))), settings: FenceSettings())
        let expectedText = String(decoding: try #require(Self.fixture("drive-sbn", "events")), as: UTF8.self)
        let expected = expectedText.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            $0.split(separator: "\t").map(String.init)
        }.map { fields in "\(SharedTracks.utcTime(fields[0])?.millisecondsSinceEpoch ?? -1) \(fields[1]) \(fields[2])" }
        let track = try #require(try SharedTracks.load().first { $0.name == "car-sbn-nl" })
        let fixes = filtered(track.fixes)
        #expect(fixes.count == track.fixes.count, "every row passes the filter")
        var monitor = FenceMonitor(fences: fences, settings: FenceSettings())
        var events: [String] = []
        for (position, accuracy, time) in fixes {
            #expect(accuracy == 7_500)
            monitor.update(position: position, accuracyMillimetres: accuracy, timeMilliseconds: time) { fence, transition in
                events.append("\(time) \(fences.fences[fence].id) \(transition.name)")
            }
        }
        // Within one fix the order of fences is the monitor's; compare in time, then id order.
        let byTimeThenID: (String, String) -> Bool = { a, b in
            let x = a.split(separator: " "), y = b.split(separator: " ")
            return Int64(x[0])! != Int64(y[0])! ? Int64(x[0])! < Int64(y[0])! : x[1] < y[1]
        }
        #expect(events.sorted(by: byTimeThenID) == expected.sorted(by: byTimeThenID))
    }
}
