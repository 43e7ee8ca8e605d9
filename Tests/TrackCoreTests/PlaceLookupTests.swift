import Foundation
import TestData
import Testing
import TrackCore

/// The gazetteer's tree search against a scan of the whole table (`BruteForcePlaces`), on
/// seeded points: anywhere on the sphere (mostly sea), near places (land), along the
/// antimeridian and near both poles.
@Suite struct PlaceLookupTests {
    /// Which points, how many, from which seed.
    enum Region: String, CaseIterable, Sendable {
        case anywhere, nearPlaces, antimeridian, poles

        var count: Int {
            switch self {
            case .anywhere: 6_000
            case .nearPlaces: 3_000
            case .antimeridian: 1_000
            case .poles: 1_000
            }
        }
    }

    static func points(_ region: Region, _ table: PlaceTable, _ bytes: [UInt8]) -> [Coordinate] {
        var random = PlacePoints(state: UInt64(Region.allCases.firstIndex(of: region)! + 1) * 7_919)
        return (0..<region.count).map { _ in
            switch region {
            case .anywhere:
                return random.anywhere()
            case .nearPlaces:
                // Within about 30 km of a random place: towns, suburbs, the countryside between.
                let place = table.position(Int(random.next() % UInt64(table.placeCount)), in: bytes.span)
                return Geodesic.direct(from: place.coordinate, azimuthDegrees: random.unit() * 360,
                                       distanceMetres: random.unit() * random.unit() * 30_000)
            case .antimeridian:
                let longitude = random.unit() < 0.5 ? 180 - random.unit() * 2 : -180 + random.unit() * 2
                return PlacePoints.coordinate(random.unit() * 140 - 70, random.unit() < 0.05 ? 180 : longitude)
            case .poles:
                let latitude = 80 + random.unit() * 10
                return PlacePoints.coordinate(random.unit() < 0.5 ? latitude : -latitude, random.unit() * 360 - 180)
            }
        }
    }

    static let oracle: BruteForcePlaces? = PlaceTestTable.load().map { BruteForcePlaces($0.1, $0.0) }

    @Test(.needsGazetteer, arguments: Region.allCases)
    func treeFindsTheBruteForceNearest(_ region: Region) throws {
        let (bytes, table) = try #require(PlaceTestTable.load())
        let oracle = try #require(Self.oracle)
        var worst = 0.0
        for point in Self.points(region, table, bytes) {
            let expected = try #require(oracle.nearest(to: point))
            let nearest = table.nearest(to: point, withinMetres: .infinity, in: bytes.span)
            let found = try #require(nearest, "nothing found for \(point)")
            let difference = abs(found.distanceMetres - expected.distanceMetres)
            worst = max(worst, difference)
            #expect(difference <= 1, "\(point): tree \(found), brute force \(expected)")
            #expect(found.index == expected.index || difference == 0, "\(point): tree \(found), brute force \(expected)")
        }
        #expect(worst <= 1)
    }

    @Test(.needsGazetteer) func aLimitLeavesOutFartherPlaces() throws {
        let (bytes, table) = try #require(PlaceTestTable.load())
        let oracle = try #require(Self.oracle)
        var random = PlacePoints(state: 42)
        var named = 0
        for _ in 0..<1_000 {
            let point = random.anywhere()
            let expected = try #require(oracle.nearest(to: point))
            let found = table.nearest(to: point, withinMetres: 50_000, in: bytes.span)
            if expected.distanceMetres <= 50_000 {
                named += 1
                #expect(found?.index == expected.index, "\(point)")
            } else {
                #expect(found == nil, "\(point): \(String(describing: found)) beyond 50 km")
            }
        }
        #expect(named > 50)
    }
}
