import Testing
import TrackCore

@Suite struct PermissionApproximateGridTests {
    static func point(_ lat: Double, _ lon: Double) -> Coordinate {
        Coordinate(latitudeNanodegrees: Int64(lat * 1e9), longitudeNanodegrees: Int64(lon * 1e9))
    }

    static let places: [(Double, Double)] = [
        (48.1173, 11.5167), (0, 0), (-33.8688, 151.2093), (51.4779, -0.0015), (64.1466, -21.9426),
        (78.2232, 15.6267), (89.9, 45), (89.995, 120), (89.999_999, -179.9), (90, 0), (-90, 0), (-89.993, 10),
        (0.004, 179.999_99), (0.004, -179.999_99), (-16.5, 180), (-16.5, -180), (52.52, 13.405),
    ]

    @Test(arguments: places)
    func cellsAreAtLeastOneKilometre(_ place: (Double, Double)) {
        let centre = ApproximateGrid.snap(Self.point(place.0, place.1))
        let row = (centre.latitudeNanodegrees + 90_000_000_000) / ApproximateGrid.rowNanodegrees
        let columns = ApproximateGrid.columnCount(row: row)
        let south = row * ApproximateGrid.rowNanodegrees - 90_000_000_000
        let north = south + ApproximateGrid.rowNanodegrees
        let width = 360_000_000_000 / columns
        // Height along the meridian, and width along the cell's narrower (poleward) edge.
        let height = Coordinate(latitudeNanodegrees: south, longitudeNanodegrees: 0)
            .distance(to: Coordinate(latitudeNanodegrees: north, longitudeNanodegrees: 0))
        #expect(height >= 1_000)
        let edge = abs(south) > abs(north) ? south : north
        if columns > 1 {
            let across = Coordinate(latitudeNanodegrees: edge, longitudeNanodegrees: 0)
                .distance(to: Coordinate(latitudeNanodegrees: edge, longitudeNanodegrees: min(width, 179_000_000_000)))
            #expect(across >= 1_000)
        }
    }

    @Test(arguments: places)
    func snappingIsStable(_ place: (Double, Double)) {
        let original = Self.point(place.0, place.1)
        let centre = ApproximateGrid.snap(original)
        #expect(ApproximateGrid.snap(centre) == centre)
        // Points near the original land in the same cell when they lie in the same cell.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(bitPattern: original.longitudeNanodegrees)
        for _ in 0..<200 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let dLat = Int64(state >> 40) % 20_000_000 - 10_000_000
            let dLon = Int64((state >> 16) & 0xFF_FFFF) % 20_000_000 - 10_000_000
            let other = Coordinate(
                latitudeNanodegrees: original.latitudeNanodegrees + dLat,
                longitudeNanodegrees: original.longitudeNanodegrees + dLon
            )
            let otherCentre = ApproximateGrid.snap(other)
            #expect(ApproximateGrid.snap(otherCentre) == otherCentre)
            // The snapped point is within half a cell of the point in latitude.
            #expect(abs(otherCentre.latitudeNanodegrees - max(-90_000_000_000, min(90_000_000_000, other.latitudeNanodegrees)))
                    <= ApproximateGrid.rowNanodegrees / 2)
        }
    }

    @Test func knownCells() {
        let munich = ApproximateGrid.snap(Self.point(48.1173, 11.5167))
        #expect(munich == Coordinate(latitudeNanodegrees: 48_115_000_000, longitudeNanodegrees: 11_512_150_466))
        #expect(ApproximateGrid.snap(Self.point(48.1101, 11.5167)) == munich)
        #expect(ApproximateGrid.snap(Self.point(48.1199, 11.5167)) == munich)
        #expect(ApproximateGrid.snap(Self.point(48.1201, 11.5167)) != munich)
        #expect(ApproximateGrid.columnCount(row: 9_000) == 35_999)
        #expect(ApproximateGrid.columnCount(row: 0) == 1)
        #expect(ApproximateGrid.columnCount(row: 17_999) == 1)
        #expect(ApproximateGrid.snap(Self.point(90, 77)) == Coordinate(latitudeNanodegrees: 89_995_000_000, longitudeNanodegrees: 0))
    }

    @Test func antimeridianIsOneMeridian() {
        #expect(ApproximateGrid.snap(Self.point(-16.5, 180)) == ApproximateGrid.snap(Self.point(-16.5, -180)))
        #expect(ApproximateGrid.snap(Self.point(-16.5, 540)) == ApproximateGrid.snap(Self.point(-16.5, -180)))
        let east = ApproximateGrid.snap(Self.point(0.004, 179.999_99))
        let west = ApproximateGrid.snap(Self.point(0.004, -179.999_99))
        #expect(east.longitudeNanodegrees < 180_000_000_000 && east.longitudeNanodegrees > 179_990_000_000)
        #expect(west.longitudeNanodegrees > -180_000_000_000 && west.longitudeNanodegrees < -179_990_000_000)
    }
}
