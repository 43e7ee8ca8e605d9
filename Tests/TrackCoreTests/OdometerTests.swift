import Testing
import TrackCore

@Suite struct PermissionOdometerTests {
    static func north(_ metres: Double) -> Coordinate {
        // ~111 km per degree near 48°N; exact values come from the geodesic below.
        Coordinate(latitudeNanodegrees: 48_000_000_000 + Int64(metres / 111_200 * 1e9), longitudeNanodegrees: 11_000_000_000)
    }

    @Test func addsGeodesicMillimetres() {
        var odometer = Odometer()
        #expect(odometer.add(Self.north(0), accuracyMillimetres: 3_000) == 0)
        let added = odometer.add(Self.north(1_000), accuracyMillimetres: 3_000)
        let expected = Int64(Self.north(0).distance(to: Self.north(1_000)) * 1000)
        #expect(added == expected)
        #expect(odometer.totalMillimetres == expected)
        #expect(abs(expected - 1_000_000) < 5_000)
    }

    struct JitterCase: Sendable, CustomTestStringConvertible {
        var metres: [Double]
        var accuracyMillimetres: Int32?
        var expectedMetres: Double
        var testDescription: String { "\(metres) ±\(accuracyMillimetres.map(String.init) ?? "nil")" }
    }

    static let jitterTable: [JitterCase] = [
        .init(metres: [0, 2, -1, 3, 0, 1], accuracyMillimetres: 5_000, expectedMetres: 0),
        .init(metres: [0, 2, -1, 3, 0, 1], accuracyMillimetres: nil, expectedMetres: 0),
        .init(metres: [0, 4, 8, 12], accuracyMillimetres: 5_000, expectedMetres: 8),
        .init(metres: [0, 10, 20, 30], accuracyMillimetres: 5_000, expectedMetres: 30),
        .init(metres: [0, 10, 9, 11, 10, 20], accuracyMillimetres: 5_000, expectedMetres: 20),
        .init(metres: [0, 0.5, 1.0], accuracyMillimetres: 0, expectedMetres: 1.0),
    ]

    @Test(arguments: jitterTable)
    func jitterIsIgnored(_ c: JitterCase) {
        var odometer = Odometer()
        var last: Int64 = 0
        for metres in c.metres {
            _ = odometer.add(Self.north(metres), accuracyMillimetres: c.accuracyMillimetres)
            #expect(odometer.totalMillimetres >= last)
            last = odometer.totalMillimetres
        }
        #expect(abs(Double(odometer.totalMillimetres) / 1000 - c.expectedMetres) < 0.05)
    }

    @Test func neverBackwards() {
        var odometer = Odometer(totalMillimetres: Int64.max - 10)
        _ = odometer.add(Self.north(0), accuracyMillimetres: 1)
        _ = odometer.add(Self.north(100), accuracyMillimetres: 1)
        #expect(odometer.totalMillimetres == Int64.max)
        #expect(Odometer(totalMillimetres: -5).totalMillimetres == 0)
    }

    /// Another capture, a receiver clock jump: far from the last fix in little (or negative)
    /// time is never distance travelled, and the track goes on from the new place.
    @Test(arguments: [Int64(1_000), 0, -3_600_000, 60_000])
    func jumpsAddNothing(elapsedMilliseconds: Int64) {
        var odometer = Odometer()
        let t0: Int64 = 1_700_000_000_000
        _ = odometer.add(Self.north(0), accuracyMillimetres: 3_000, timeMilliseconds: t0)
        // 11,700 km away.
        let far = Coordinate(latitudeNanodegrees: -33_000_000_000, longitudeNanodegrees: 151_000_000_000)
        #expect(odometer.add(far, accuracyMillimetres: 3_000, timeMilliseconds: t0 + elapsedMilliseconds) == 0)
        let onwards = Coordinate(latitudeNanodegrees: -33_000_000_000 + 90_000, longitudeNanodegrees: 151_000_000_000)
        let added = odometer.add(onwards, accuracyMillimetres: 3_000, timeMilliseconds: t0 + elapsedMilliseconds + 1_000)
        #expect(added > 9_900 && added < 10_100, "10 m onwards from the new place counts: \(added) mm")
        #expect(odometer.totalMillimetres == added)
    }

    @Test func breakSkipsTheGap() {
        var odometer = Odometer(totalMillimetres: 7)
        _ = odometer.add(Self.north(0), accuracyMillimetres: 1_000)
        odometer.breakTrack()
        #expect(odometer.add(Self.north(5_000), accuracyMillimetres: 1_000) == 0)
        #expect(odometer.totalMillimetres == 7)
    }
}
