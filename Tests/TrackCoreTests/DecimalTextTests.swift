import Testing
import TrackCore

/// The one decimal reader behind every number the project reads (`DecimalText`): scaled, exact
/// and whole.
@Suite struct DecimalTextTests {
    static func read(_ text: String, scale: Int) -> Int64? {
        DecimalText.read(Array(text.utf8)[...], scale: scale)
    }

    @Test(arguments: [
        ("48.1173", 9, 48_117_300_000), ("-0.000000001", 9, -1), ("+5", 3, 5000), (".5", 3, 500),
        ("1.23456789051", 9, 1_234_567_891), ("-1.0000000004", 9, -1_000_000_000), ("0", 0, 0),
        ("545.4", 3, 545_400), ("-30.45", 3, -30_450), ("1.2345", 2, 123), ("-1.235", 2, -124),
        ("-0.32347952", 7, -3_234_795), ("39.40794834", 7, 394_079_483), ("12.34", 1, 123),
        // A point without fraction digits is a decimal (XML Schema's and NMEA receivers' "48.").
        ("48.", 9, 48_000_000_000), ("-.5", 1, -5), ("007.50", 2, 750),
        ("99999999999999999", 0, 99_999_999_999_999_999), ("999999999999999.999", 3, 999_999_999_999_999_999),
    ] as [(String, Int, Int64)])
    func decimalsAreExact(text: String, scale: Int, expected: Int64) {
        #expect(Self.read(text, scale: scale) == expected)
    }

    @Test(arguments: [
        "", "-", "+", ".", "-.", "1.2.3", "1e5", "12,5", " 1", "1 ", "0x10", "１", "--1", "+-1", "1-",
        // Too many digits once scaled: malformed, not a trap.
        "9999999999999999", "1000000000000000000", "9223372036854775.808",
    ])
    func malformedDecimalsAreRejected(text: String) {
        #expect(Self.read(text, scale: 3) == nil)
    }

    @Test("a range of a larger text is read alone")
    func rangeOfText() {
        let bytes = Array("GPGGA,545.4,M".utf8)
        #expect(DecimalText.read(bytes.span, 6..<11, scale: 3) == 545_400)
        #expect(DecimalText.read(bytes.span, 6..<6, scale: 3) == nil)
        #expect(DecimalText.read(bytes.span, 0..<11, scale: 3) == nil)
    }

    static func unsigned(_ text: String, maximum: Int64 = DecimalText.maximum) -> Result<Int64, DecimalText.Problem> {
        Result { () throws(DecimalText.Problem) in try DecimalText.unsigned(Array(text.utf8)[...], maximum: maximum) }
    }

    @Test(arguments: [
        ("0", 0), ("7", 7), ("007", 7), ("2947", 2947), ("65535", 65_535),
        ("999999999999999999", 999_999_999_999_999_999),
        // Leading zeros count towards the 18 digits.
        ("000000000000000001", 1),
    ] as [(String, Int64)])
    func wholeNumbersAreRead(text: String, expected: Int64) {
        #expect(Self.unsigned(text) == .success(expected))
        #expect(throws: Never.self) { try DecimalText.unsigned(text) }
    }

    @Test(arguments: [
        ("", DecimalText.Problem.malformed), ("-1", .malformed), ("+1", .malformed), ("1.0", .malformed),
        ("1.", .malformed), (" 1", .malformed), ("1 ", .malformed), ("0x1F", .malformed), ("1e3", .malformed),
        ("１", .malformed), ("12a", .malformed),
        // Overflow: more than 18 digits, whatever they are.
        ("1000000000000000000", .tooLarge), ("99999999999999999999999", .tooLarge), ("0000000000000000001", .tooLarge),
    ])
    func notWholeNumbersAreRefused(text: String, problem: DecimalText.Problem) {
        #expect(Self.unsigned(text) == .failure(problem))
    }

    @Test(arguments: [
        ("65535", 65_535, true), ("65536", 65_535, false), ("0", 0, true), ("1", 0, false), ("255", 255, true), ("256", 255, false),
    ] as [(String, Int64, Bool)])
    func theMaximumIsInclusive(text: String, maximum: Int64, fits: Bool) {
        #expect(Self.unsigned(text, maximum: maximum) == (fits ? .success(Int64(text)!) : .failure(.tooLarge)))
    }

    @Test("a range of a larger text is read alone, as the NMEA fields are")
    func wholeNumberInARange() throws {
        let bytes = Array("GPGSV,3,1,11".utf8)
        #expect(try DecimalText.unsigned(bytes.span, 6..<7) == 3)
        #expect(throws: DecimalText.Problem.malformed) { try DecimalText.unsigned(bytes.span, 6..<8) }
        #expect(throws: DecimalText.Problem.malformed) { try DecimalText.unsigned(bytes.span, 6..<6) }
    }

    @Test(arguments: [
        ("2.5", 25, 1), ("2.50", 25, 1), ("-3", -3, 0), ("+3", 3, 0), ("0.0001", 1, 4), ("7.000", 7, 0), ("007.50", 75, 1),
        ("48.", 48, 0), (".5", 5, 1), ("-0", 0, 0), ("0.000000000000000001", 1, 18),
        ("1.000000000000000000000", 1, 0), ("999999999999999999", 999_999_999_999_999_999, 0),
    ] as [(String, Int64, Int)])
    func exactDecimalsKeepEveryDigit(text: String, mantissa: Int64, decimals: Int) throws {
        let bytes = Array(text.utf8)
        let value = try DecimalText.exact(bytes.span, 0..<bytes.count)
        #expect(value.mantissa == mantissa && value.decimals == decimals)
    }

    @Test(arguments: [
        ("", DecimalText.Problem.malformed), ("-", .malformed), (".", .malformed), ("1.2.3", .malformed), ("1e5", .malformed),
        ("--1", .malformed), ("1-", .malformed),
        ("1000000000000000000", .tooLarge), ("1.000000000000000001", .tooLarge),
        ("0.0000000000000000001", .tooPrecise),
        // Malformed before precise: the second point is the first problem.
        ("0.0000000000000000001.", .malformed),
    ])
    func notExactDecimalsAreRefused(text: String, problem: DecimalText.Problem) {
        let bytes = Array(text.utf8)
        #expect(throws: problem) { try DecimalText.exact(bytes.span, 0..<bytes.count) }
    }

    @Test(arguments: [("2.5m", 3), ("-1.2.3 s", 6), ("m", 0), ("", 0), ("+5", 2), ("10 ms", 2), ("5-", 1), ("1e3", 1)])
    func aNumberFollowedByTextEndsWhereItsBytesEnd(text: String, length: Int) {
        let bytes = Array(text.utf8)
        #expect(DecimalText.length(bytes.span, 0..<bytes.count) == length)
    }
}
