import Testing
import TrackCore

private let munich = Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: 11_516_700_000)
private let sydney = Coordinate(latitudeNanodegrees: -33_868_820_000, longitudeNanodegrees: 151_209_296_000)

/// A coordinate from degrees written as nanodegree integers, for short tables.
private func point(_ latitude: Int64, _ longitude: Int64) -> Coordinate {
    Coordinate(latitudeNanodegrees: latitude, longitudeNanodegrees: longitude)
}

/// SplitMix64, seeded, for the round-trip sweep.
private struct RoundTripGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private let signedSeconds = CoordinateFormat(notation: .degreesMinutesSeconds, hemispheres: false, fractionDigits: 2)
private let wholeDegrees = CoordinateFormat(notation: .decimalDegrees, hemispheres: true, fractionDigits: 0)

struct CoordinateFormatTests {
    @Test(arguments: [
        (munich, CoordinateFormat.decimalDegrees, "48.117300°N, 11.516700°E"),
        (munich, .signedDecimalDegrees, "48.1173,11.5167"),
        (munich, .degreesDecimalMinutes, "48°07.038'N 11°31.002'E"),
        (munich, .degreesMinutesSeconds, "48°07'02.3\"N 11°31'00.1\"E"),
        (sydney, .decimalDegrees, "33.868820°S, 151.209296°E"),
        (sydney, .signedDecimalDegrees, "-33.86882,151.209296"),
        (sydney, .degreesDecimalMinutes, "33°52.129'S 151°12.558'E"),
        (point(-48_117_300_000, -11_516_700_000), signedSeconds, "-48°07'02.28\" -11°31'00.12\""),
        // Rounds to zero: printed without a sign or a southern/western hemisphere.
        (point(-100, -400), .decimalDegrees, "0.000000°N, 0.000000°E"),
        // 47.999999999° is 47°59.99999994': the rounding carries into the degrees.
        (point(47_999_999_999, -59_999_999_999), .degreesDecimalMinutes, "48°00.000'N 60°00.000'W"),
        (point(90_000_000_000, -180_000_000_000), .signedDecimalDegrees, "90,-180"),
        (point(90_000_000_000, -180_000_000_000), .degreesMinutesSeconds, "90°00'00.0\"N 180°00'00.0\"W"),
        (point(1, -1), .signedDecimalDegrees, "0.000000001,-0.000000001"),
        (point(0, 0), .signedDecimalDegrees, "0,0"),
        (point(48_500_000_000, -11_499_999_999), wholeDegrees, "49°N, 11°W"),
    ])
    func formats(_ coordinate: Coordinate, _ format: CoordinateFormat, _ expected: String) {
        #expect(coordinate.formatted(format) == expected)
        var buffer = TextBuffer()
        buffer.append(coordinate, format: format)
        #expect(buffer.string == expected)
    }

    @Test(arguments: [
        ("48.117300°N, 11.516700°E", munich),
        ("48.1173,11.5167", munich),
        ("48°07.038'N 11°31.002'E", munich),
        ("48°07'02.3\"N 11°31'00.1\"E", point(48_117_305_556, 11_516_694_444)),
        ("N 48 07.038 E 11 31.002", munich),
        ("N48°07.038' E011°31.002'", munich),
        ("48 07.038 N, 11 31.002 E", munich),
        ("11°31.002'E 48°07.038'N", munich),
        ("48º07'02.3''N 11º31'00.1''E", point(48_117_305_556, 11_516_694_444)),
        ("48°07′02.3″N 11°31′00.1″E", point(48_117_305_556, 11_516_694_444)),
        ("48 7 2.3 11 31 0.1", point(48_117_305_556, 11_516_694_444)),
        ("48 07 11 31", point(48_116_666_667, 11_516_666_667)),
        ("48.1173 11.5167", munich),
        ("  48.1173 ,\t11.5167\r\n", munich),
        ("+48.1173, +11.5167", munich),
        ("48.1173n 11.5167e", munich),
        ("-33.86882 151.209296", sydney),
        ("−33.86882, 151.209296", sydney),
        ("33.86882 S 151.209296 E", sydney),
        ("-48.1173 -11.5167", point(-48_117_300_000, -11_516_700_000)),
        ("90S 180W", point(-90_000_000_000, -180_000_000_000)),
        ("90, 180", point(90_000_000_000, 180_000_000_000)),
        // Half a nanodegree rounds away from zero.
        ("0.0000000005, -0.0000000005", point(1, -1)),
        ("0.00000000049999, 0.123456789123456789", point(0, 123_456_789)),
    ])
    func parses(_ text: String, _ expected: Coordinate) throws {
        #expect(try Coordinate(parsing: text) == expected)
        #expect(try Coordinate.parse(utf8: Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        ("", CoordinateParseError.empty),
        ("   ", .empty),
        ("48.1173", .missingLongitude(offset: 7)),
        ("48.1173,", .expectedNumber(offset: 8)),
        ("48., 11", .expectedNumber(offset: 3)),
        ("48x, 11", .unexpectedCharacter(offset: 2)),
        ("48.1173,11.5167😀", .unexpectedCharacter(offset: 15)),
        ("48°60'N 11°E", .minutesOutOfRange(offset: 3)),
        ("48°07'60\"N 11°E", .secondsOutOfRange(offset: 6)),
        ("48°07'59.99\"N 11°60.0'E", .minutesOutOfRange(offset: 17)),
        ("91, 0", .latitudeOutOfRange(offset: 0)),
        ("-90.000000001, 0", .latitudeOutOfRange(offset: 0)),
        ("0, 180.000000001", .longitudeOutOfRange(offset: 3)),
        ("12345678901234567890, 0", .latitudeOutOfRange(offset: 0)),
        ("48.5°07'N 11°E", .fractionNotLast(offset: 5)),
        ("48°N 11°N", .misplacedHemisphere(offset: 8)),
        ("48°E 11°W", .misplacedHemisphere(offset: 8)),
        ("48°NN 11°E", .misplacedHemisphere(offset: 9)),
        ("-48°S, 11°E", .signAndHemisphere(offset: 4)),
        ("48 7 11", .ambiguousSplit(offset: 3)),
        ("48.1, 11.5, 3", .unexpectedText(offset: 10)),
        ("48'07°, 11", .unexpectedText(offset: 2)),
        ("48°07'02\"03, 11", .unexpectedText(offset: 9)),
        ("N, 11E", .expectedNumber(offset: 1)),
    ])
    func rejects(_ text: String, _ expected: CoordinateParseError) {
        #expect(throws: expected) { try Coordinate(parsing: text) }
    }

    @Test(arguments: [
        CoordinateFormat.decimalDegrees, .signedDecimalDegrees, .degreesDecimalMinutes, .degreesMinutesSeconds,
        signedSeconds, wholeDegrees,
        CoordinateFormat(notation: .degreesDecimalMinutes, hemispheres: false, fractionDigits: 8),
        CoordinateFormat(notation: .degreesMinutesSeconds, hemispheres: true, fractionDigits: 7, trimsTrailingZeros: true),
    ])
    func roundTrips(_ format: CoordinateFormat) throws {
        // Half the last printed unit, in nanodegrees: what one rounding may move a value.
        let resolution: Double
        switch format.notation {
        case .decimalDegrees: resolution = 1e9 / pow10(format.fractionDigits)
        case .degreesDecimalMinutes: resolution = 1e9 / 60 / pow10(min(format.fractionDigits, 8))
        case .degreesMinutesSeconds: resolution = 1e9 / 3600 / pow10(min(format.fractionDigits, 7))
        }
        var generator = RoundTripGenerator(state: 7)
        for _ in 0..<2_000 {
            let original = point(
                Int64.random(in: -90_000_000_000...90_000_000_000, using: &generator),
                Int64.random(in: -180_000_000_000...180_000_000_000, using: &generator))
            let text = original.formatted(format)
            let parsed = try Coordinate(parsing: text)
            // Printing the parsed value gives the same text, and it moved by at most half a unit.
            #expect(parsed.formatted(format) == text)
            #expect(Double((parsed.latitudeNanodegrees - original.latitudeNanodegrees).magnitude) <= resolution / 2 + 0.5)
            #expect(Double((parsed.longitudeNanodegrees - original.longitudeNanodegrees).magnitude) <= resolution / 2 + 0.5)
            if format == .signedDecimalDegrees { #expect(parsed == original, "\(text)") }
        }
    }
}

private func pow10(_ exponent: Int) -> Double {
    var result = 1.0
    for _ in 0..<exponent { result *= 10 }
    return result
}
