import Foundation
import Testing
@testable import TrackCore

// The monitor's shortcut for polygons (FenceSet+Clearance.swift) gives signedDistance's value,
// bit for bit, fix after fix: far from the edges without them, near a boundary of thousands of
// vertices from the window round the nearest edge, and after every jump, vertex and touch.

@Suite struct FenceClearanceTests {
    /// A municipality-like ring of `count` vertices (a wandering circle), a hole, a small
    /// polygon and a two-part multi-polygon near Tübingen.
    static func fences() throws -> FenceSet {
        var random = SplitMix64(seed: 31)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func ring(_ latitude: Double, _ longitude: Double, metres: Double, count: Int, wander: Double) -> [Coordinate] {
            var positions: [Coordinate] = []
            var radius = metres
            for k in 0..<count {
                radius = min(max(radius * (1 + wander * (unit() - 0.5)), metres * 0.8), metres * 1.2)
                let angle = 2 * Double.pi * Double(k) / Double(count)
                positions.append(Coordinate(latitudeNanodegrees: Int64(((latitude + radius * cos(angle) / 111_320) * 1e9).rounded()),
                                            longitudeNanodegrees: Int64(((longitude + radius * sin(angle) / 73_800) * 1e9).rounded())))
            }
            positions.append(positions[0])
            return positions
        }
        var set = FenceSet()
        try set.appendPolygon(Fence(id: "municipality", kind: .polygon(rings: 2)),
                              parts: [[ring(48.5, 9.05, metres: 3_000, count: 2_400, wander: 0.02),
                                       ring(48.5, 9.05, metres: 600, count: 300, wander: 0.05).reversed()]])
        try set.appendPolygon(Fence(id: "yard", kind: .polygon(rings: 1)), parts: [[ring(48.51, 9.06, metres: 80, count: 12, wander: 0.1)]])
        try set.appendPolygon(Fence(id: "parts", kind: .polygon(rings: 2)),
                              parts: [[ring(48.49, 9.03, metres: 400, count: 200, wander: 0.05)],
                                      [ring(48.49, 9.045, metres: 300, count: 150, wander: 0.05)]])
        set.buildIndex()
        return set
    }

    @Test(arguments: 0..<3)
    func sameDistanceAsEveryEdge(seed: Int) throws {
        let fences = try Self.fences()
        var random = SplitMix64(seed: 500 + UInt64(seed))
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var clearances = Array(repeating: FenceClearance(), count: fences.count)
        var latitude = 48.5 + 0.026
        var longitude = 9.05
        var heading = unit() * 2 * Double.pi
        var shortcuts = 0
        var compared = 0
        for step in 0..<6_000 {
            // A car: 0-30 m a fix, turning; now and then a jump, or a stop on a vertex.
            heading += (unit() - 0.5) * 0.6
            let metres = step % 500 == 0 ? 800 * unit() : 30 * unit()
            latitude += metres * cos(heading) / 111_320
            longitude += metres * sin(heading) / 73_800
            if abs(latitude - 48.5) > 0.04 || abs(longitude - 9.05) > 0.06 { heading += Double.pi }
            var coordinate = Coordinate(latitudeNanodegrees: Int64((latitude * 1e9).rounded()),
                                        longitudeNanodegrees: Int64((longitude * 1e9).rounded()))
            if step % 97 == 0 { coordinate = Coordinate(latitudeNanodegrees: 48_526_000_000, longitudeNanodegrees: 9_050_000_000) }
            let point = GeoVector(coordinate)
            let limit = 3 + 60 * unit()
            for fence in 0..<fences.count {
                let before = clearances[fence]
                let expected = fences.signedDistance(of: fence, to: point, coordinate: coordinate, limitMetres: limit)
                let got = fences.signedDistance(of: fence, to: point, coordinate: coordinate, limitMetres: limit,
                                                clearance: &clearances[fence])
                #expect(got.bitPattern == expected.bitPattern, "fence \(fence), step \(step): \(got) against \(expected)")
                if clearances[fence] == before && before.metres > 0 { shortcuts += 1 }
                compared += 1
            }
        }
        // Most fixes were answered without every edge, so the shortcut was what was tested.
        #expect(shortcuts > compared / 2, "\(shortcuts) of \(compared)")
    }

    /// A fix near the municipality's boundary looks at its window, not its 2,700 vertices.
    @Test func nearTheBoundaryTheWindowIsSmall() throws {
        let fences = try Self.fences()
        let coordinate = Coordinate(latitudeNanodegrees: 48_526_900_000, longitudeNanodegrees: 9_050_000_000)
        var clearance = FenceClearance()
        _ = fences.signedDistance(of: 0, to: GeoVector(coordinate), coordinate: coordinate, limitMetres: 20, clearance: &clearance)
        // At the ring's first vertex: the window runs round past it.
        #expect(clearance.count > 20 && clearance.count <= UInt32(FenceSet.windowEdges))
        #expect(clearance.start > clearance.ringEdges / 2)
        #expect(clearance.metres > 100)
    }
}
