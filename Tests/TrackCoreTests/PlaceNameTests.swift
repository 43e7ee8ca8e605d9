import Foundation
import TestData
import Testing
import TrackCore

/// The words for a position, the throttled namer, and the table's refusals of damaged files.
@Suite struct PlaceNameTests {
    static func at(_ latitude: Double, _ longitude: Double) -> Coordinate { PlacePoints.coordinate(latitude, longitude) }

    struct Said: Sendable, CustomTestStringConvertible {
        var latitude: Double
        var longitude: Double
        var words: String
        var testDescription: String { "\(latitude), \(longitude) → \(words)" }
    }

    static let said: [Said] = [
        // Tübingen's own position (GeoNames), then 2.8 km NE of it: inside its 2.9 km radius.
        Said(latitude: 48.52266, longitude: 9.05222, words: "in Tübingen, Baden-Wurttemberg, DE"),
        Said(latitude: 48.54, longitude: 9.08, words: "in Tübingen, Baden-Wurttemberg, DE"),
        // The middle of the Atlantic and the South Pole: nothing within 50 km.
        Said(latitude: 30, longitude: -40, words: "30.000000°N, 40.000000°W"),
        Said(latitude: -90, longitude: 0, words: "90.000000°S, 0.000000°E"),
    ]

    @Test(.needsGazetteer, arguments: said)
    func wordsForAPosition(_ example: Said) throws {
        let (bytes, table) = try #require(PlaceTestTable.load())
        let name = PlaceName.lookUp(Self.at(example.latitude, example.longitude), table: table, bytes: bytes.span)
        let words = name.text(bytes: bytes.span)
        #expect(words == example.words)
    }

    @Test(.needsGazetteer) func outsideTheRadiusItSaysHowFarAndWhichWay() throws {
        let (bytes, table) = try #require(PlaceTestTable.load())
        // 6 km due east of a place's own position, where no other place is nearer: find one.
        var random = PlacePoints(state: 3)
        var checked = 0
        while checked < 50 {
            let index = Int(random.next() % UInt64(table.placeCount))
            let place = table.place(index, in: bytes.span)
            let point = Geodesic.direct(from: place.position.coordinate, azimuthDegrees: 90, distanceMetres: 6_000)
            let name = PlaceName.lookUp(point, table: table, bytes: bytes.span)
            guard name.match?.index == index, !name.isInside else { continue }
            checked += 1
            let text = name.text(bytes: bytes.span)
            #expect(text.hasPrefix("6.0 km E of ") || text.hasPrefix("5.9 km E of ") || text.hasPrefix("6.1 km E of "), "\(text)")
            #expect(text.hasSuffix(", " + place.countryCodeText))
        }
    }

    @Test(arguments: [(0.0, "N"), (22.4, "N"), (22.5, "NE"), (46.8, "NE"), (90, "E"), (135, "SE"), (180, "S"),
                      (-180, "S"), (-135, "SW"), (-90, "W"), (-45, "NW"), (-22.6, "NW"), (-10, "N"), (359.9, "N"), (720, "N")])
    func compassPoints(_ azimuth: Double, _ expected: String) {
        #expect(CompassPoint(azimuthDegrees: azimuth).abbreviation.description == expected)
    }

    @Test(arguments: [(1_000.0, 1_000.0), (10_000, 1_000), (83_416, 2_888.2), (630_305, 7_939.2), (8_804_190, 20_000)])
    func radiusGrowsWithPopulation(_ population: Double, _ metres: Double) {
        let record = PlaceRecord(index: 0, position: LogPosition(latitudeE7: 0, longitudeE7: 0), name: .empty, admin1: .empty,
                                 countryCode: (0, 0), population: UInt32(population))
        #expect(abs(record.radiusMetres - metres) < 0.1)
    }

    // MARK: the throttle

    @Test(.needsGazetteer) func namerLooksUpAgainOnlyAfterMoving200Metres() throws {
        let (bytes, table) = try #require(PlaceTestTable.load())
        var namer = PlaceNamer()
        let start = Self.at(48.52266, 9.05222)
        let looked1 = namer.update(start, approximate: false, allowed: true, table: table, bytes: bytes.span)
        #expect(looked1)
        for metres in [50.0, 120, 199] {
            let moved = Geodesic.direct(from: start, azimuthDegrees: 30, distanceMetres: metres)
            let looked2 = namer.update(moved, approximate: false, allowed: true, table: table, bytes: bytes.span)
            #expect(!looked2, "\(metres) m")
        }
        let far = Geodesic.direct(from: start, azimuthDegrees: 30, distanceMetres: 201)
        let looked3 = namer.update(far, approximate: false, allowed: true, table: table, bytes: bytes.span)
        #expect(looked3)
        #expect(namer.lookupCount == 2)
        #expect(namer.name?.position == far)
        let words = namer.name?.text(bytes: bytes.span)
        #expect(words == "in Tübingen, Baden-Wurttemberg, DE")
    }

    @Test(.needsGazetteer) func namerInApproximateModeNamesOnlyTheGridCellInWholeKilometres() throws {
        let (bytes, table) = try #require(PlaceTestTable.load())
        var namer = PlaceNamer()
        let point = Self.at(48.60, 9.20)
        let looked4 = namer.update(point, approximate: true, allowed: true, table: table, bytes: bytes.span)
        #expect(looked4)
        let name = try #require(namer.name)
        #expect(name.position == ApproximateGrid.snap(point))
        #expect(name.wholeKilometres)
        // Anywhere else in the same cell: no new lookup, however far it moved.
        let sameCell = Self.at(48.6049, 9.2049)
        #expect(ApproximateGrid.snap(sameCell) == name.position)
        let looked5 = namer.update(sameCell, approximate: true, allowed: true, table: table, bytes: bytes.span)
        #expect(!looked5)
        let words = name.text(bytes: bytes.span)
        #expect(!words.contains("."), "no decimals in approximate mode: \(words)")
        // Back to precise: looked up again at the real position.
        let looked6 = namer.update(point, approximate: false, allowed: true, table: table, bytes: bytes.span)
        #expect(looked6)
        #expect(namer.name?.position == point)
    }

    @Test(.needsGazetteer) func namerForgetsWhileTrackingIsNotAllowed() throws {
        let (bytes, table) = try #require(PlaceTestTable.load())
        var namer = PlaceNamer()
        let point = Self.at(48.52266, 9.05222)
        namer.update(point, approximate: false, allowed: true, table: table, bytes: bytes.span)
        let looked7 = namer.update(point, approximate: false, allowed: false, table: table, bytes: bytes.span)
        #expect(!looked7)
        #expect(namer.name == nil)
        let looked8 = namer.update(point, approximate: false, allowed: true, table: table, bytes: bytes.span)
        #expect(looked8)
    }

    @Test func namerWithoutATableGivesTheCoordinates() {
        var namer = PlaceNamer()
        let empty: [UInt8] = []
        let looked9 = namer.update(Self.at(48.5, 9.05), approximate: false, allowed: true, table: nil, bytes: empty.span)
        #expect(looked9)
        let words = namer.name?.text(bytes: empty.span)
        #expect(words == "48.500000°N, 9.050000°E")
    }

    // MARK: damaged files

    static func damaged(_ change: (inout [UInt8]) -> Void) -> [UInt8]? {
        guard var bytes = PlaceTestTable.bytes else { return nil }
        change(&bytes)
        return bytes
    }

    static func put(_ value: UInt32, at offset: Int, _ bytes: inout [UInt8]) {
        for shift in 0..<4 { bytes[offset + shift] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(shift))) }
    }

    @Test(.needsGazetteer, arguments: [
        ("empty", PlaceTableError.tooShort(byteCount: 0)),
        ("magic", .notAPlaceTable),
        ("version", .unsupportedVersion(2)),
        ("leaf", .badHeader(field: "leaf size", value: 0)),
        ("regions", .badHeader(field: "region count", value: 70_000)),
    ])
    func refusesADamagedHeader(_ damage: String, _ expected: PlaceTableError) throws {
        _ = try #require(PlaceTestTable.load())
        let bytes = try #require(Self.damaged { bytes in
            switch damage {
            case "empty": bytes = []
            case "magic": bytes[0] = UInt8(ascii: "X")
            case "version": Self.put(2, at: 8, &bytes)
            case "leaf": Self.put(0, at: 20, &bytes)
            default: Self.put(70_000, at: 16, &bytes)
            }
        })
        #expect(throws: expected) { try PlaceTable(bytes.span) }
        #expect(!expected.description.isEmpty)
    }

    @Test(.needsGazetteer) func refusesATruncatedOrPaddedFile() throws {
        let (original, _) = try #require(PlaceTestTable.load())
        let truncated = Array(original.dropLast(100))
        #expect(throws: PlaceTableError.badSize(expected: original.count, actual: original.count - 100)) {
            try PlaceTable(truncated.span)
        }
        let padded = original + [0]
        #expect(throws: PlaceTableError.badSize(expected: original.count, actual: original.count + 1)) {
            try PlaceTable(padded.span)
        }
        var moved = original
        Self.put(UInt32(PlaceTable.headerSize + 4), at: 24, &moved)
        #expect(throws: PlaceTableError.misplacedSection("coordinates", expectedOffset: 64, offset: 68)) {
            try PlaceTable(moved.span)
        }
    }

    @Test(.needsGazetteer) func aNameOutsideTheTextPoolReadsAsEmptyNotATrap() throws {
        let (original, table) = try #require(PlaceTestTable.load())
        var bytes = original
        // Place 0's name offset (first field of its details) pointed past the pool.
        let details = PlaceTable.headerSize + 8 * table.placeCount
        Self.put(0xFFFF_FFF0, at: details, &bytes)
        let place = table.place(0, in: bytes.span)
        #expect(place.name == .empty)
        #expect(table.source(in: bytes.span).string(in: bytes.span).hasPrefix("GeoNames cities1000"))
    }
}
