import Foundation
import Testing
import TrackCore

// Fence geometry against an independent oracle: Fixtures/fences/oracle.{geojson,tsv}
// (scripts/gen-fence-fixtures: GeographicLib geodesics and shapely). Circles agree with the
// oracle to micrometres (both are Karney's inverse); polygons to within the difference between
// a great circle on the sphere of geodetic coordinates and the WGS-84 geodesic, which grows with
// the square of the edge length: under 5 cm on the small fences, under a metre on 60 km edges;
// tens of kilometres away the plane's scale adds up to 6e-5 of the distance.

/// One oracle point: the fence, the point, its signed distance in metres (positive inside).
struct FenceOracleCase: Sendable, CustomTestStringConvertible {
    var fenceID: String
    var point: Coordinate
    var signedMetres: Double

    var testDescription: String { "\(fenceID) (\(point.latitudeNanodegrees), \(point.longitudeNanodegrees))" }

    static let fenceFile: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "oracle", withExtension: "geojson", subdirectory: "Fixtures/fences"),
              let data = try? Data(contentsOf: url) else { return [] }
        return [UInt8](data)
    }()

    static let all: [FenceOracleCase] = {
        guard let url = Bundle.module.url(forResource: "oracle", withExtension: "tsv", subdirectory: "Fixtures/fences"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4, let latitude = nanodegrees(fields[1]), let longitude = nanodegrees(fields[2]),
                  let metres = Double(fields[3]) else { return nil }
            return FenceOracleCase(fenceID: fields[0], point: Coordinate(latitudeNanodegrees: latitude, longitudeNanodegrees: longitude),
                                   signedMetres: metres)
        }
    }()

    /// Exact nanodegrees from nine-decimal text.
    static func nanodegrees(_ text: String) -> Int64? {
        let negative = text.hasPrefix("-")
        let parts = text.drop(while: { $0 == "-" }).split(separator: ".")
        guard parts.count == 2, parts[1].count == 9, let whole = Int64(parts[0]), let fraction = Int64(parts[1]) else { return nil }
        let value = whole * 1_000_000_000 + fraction
        return negative ? -value : value
    }

    /// Allowed difference from the oracle, metres: the great-circle-versus-geodesic bound for
    /// the fence's longest edge and a floor for rounding, plus 0.1 m per km of distance (the
    /// local plane's metres drift away from its centre; only distances within an accuracy
    /// circle of the edge decide anything).
    static func tolerance(_ id: String, metres: Double = 0) -> Double {
        base(id) + abs(metres) * 1e-4
    }

    static func base(_ id: String) -> Double {
        switch id {
        case "large-60km": 1.0
        case "circle-large", "circle-small", "circle-antimeridian", "circle-pole": 0.001
        default: 0.05
        }
    }
}

@Suite struct FenceOracleTests {
    static let fences: FenceSet? = try? FenceFile.parse(FenceOracleCase.fenceFile, settings: FenceSettings())

    @Test func fixtureLoadsAndCoversEveryFence() throws {
        let fences = try #require(Self.fences)
        #expect(fences.count == 13)
        #expect(FenceOracleCase.all.count == 1040)
        let ids = Set(FenceOracleCase.all.map(\.fenceID))
        #expect(ids == Set(fences.fences.map(\.id)))
        // Both sides of every fence are represented.
        for id in ids {
            let cases = FenceOracleCase.all.filter { $0.fenceID == id }
            #expect(cases.contains { $0.signedMetres > 1 } && cases.contains { $0.signedMetres < -1 }, "\(id)")
        }
    }

    @Test(arguments: FenceOracleCase.all)
    func signedDistanceMatchesOracle(_ oracle: FenceOracleCase) throws {
        let fences = try #require(Self.fences)
        let fence = try #require(fences.fences.firstIndex { $0.id == oracle.fenceID })
        let limit = 1e9
        let distance = fences.signedDistance(of: fence, to: GeoVector(oracle.point), coordinate: oracle.point, limitMetres: limit)
        let tolerance = FenceOracleCase.tolerance(oracle.fenceID, metres: oracle.signedMetres)
        #expect(abs(distance - oracle.signedMetres) <= tolerance,
                "trackd \(distance) m, oracle \(oracle.signedMetres) m")
        // Side of the boundary: must agree wherever the oracle is clear of the tolerance.
        if abs(oracle.signedMetres) > tolerance {
            #expect((distance > 0) == (oracle.signedMetres > 0))
        }
    }

    /// The single-fix state with an accuracy circle: unknown exactly when the circle straddles
    /// the boundary by the oracle's distance.
    @Test(arguments: [0.0, 3.0, 25.0])
    func singleFixStatesFollowAccuracy(accuracyMetres: Double) throws {
        let fences = try #require(Self.fences)
        var checked = 0
        for oracle in FenceOracleCase.all {
            let tolerance = FenceOracleCase.tolerance(oracle.fenceID)
            guard abs(abs(oracle.signedMetres) - accuracyMetres) > tolerance else { continue }
            let expected: FenceState = oracle.signedMetres > accuracyMetres ? .inside
                : oracle.signedMetres < -accuracyMetres ? .outside : .unknown
            var got: FenceState?
            fences.states(at: oracle.point, accuracyMetres: accuracyMetres) { index, state in
                if fences.fences[index].id == oracle.fenceID { got = state }
            }
            #expect(got == expected, "\(oracle.testDescription): oracle \(oracle.signedMetres) m")
            checked += 1
        }
        #expect(checked > 900)
    }

    /// The index finds every fence that a point is inside or near: a query around each oracle
    /// point with its distance as margin must return the fence.
    @Test func indexFindsEveryNearbyFence() throws {
        let fences = try #require(Self.fences)
        for oracle in FenceOracleCase.all where oracle.signedMetres > -100 {
            let fence = try #require(fences.fences.firstIndex { $0.id == oracle.fenceID })
            var found = false
            let margin = max(-oracle.signedMetres, 0) + 1
            fences.boxesAround(oracle.point, metres: margin) { box in
                fences.index.query(box) { if $0 == fence { found = true } }
            }
            #expect(found, "\(oracle.testDescription) at \(oracle.signedMetres) m")
        }
    }
}
