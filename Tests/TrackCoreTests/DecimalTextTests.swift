import Testing
import TrackCore

/// The one decimal reader behind NMEA fields, track CSV and GPX (`DecimalText`).
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
}

/// The hex digit reader and writer (`HexDigit`).
@Suite struct HexDigitTests {
    @Test func everyByteReadsAsAtMostOneDigit() {
        var values: [UInt8: UInt8] = [:]
        for byte in UInt8.min...UInt8.max {
            if let value = HexDigit.value(byte) { values[byte] = value }
        }
        let expected = Dictionary(uniqueKeysWithValues: Array("0123456789abcdefABCDEF".utf8).enumerated().map {
            ($0.element, UInt8($0.offset < 16 ? $0.offset : $0.offset - 6))
        })
        #expect(values == expected)
    }

    @Test func digitsAreWrittenInEitherCase() {
        let lower = (0..<16).map { HexDigit.character(UInt8($0)) }
        let upper = (0..<16).map { HexDigit.character(UInt8($0), uppercase: true) }
        #expect(String(decoding: lower, as: UTF8.self) == "0123456789abcdef")
        #expect(String(decoding: upper, as: UTF8.self) == "0123456789ABCDEF")
        #expect(HexDigit.byteText(0x7D) == "0x7D")
        #expect(HexDigit.byteText(0x00) == "0x00")
    }
}

/// The JSON string writer (`TextBuffer.appendJSONString`).
@Suite struct JSONStringTests {
    @Test(arguments: [
        ("camp", #""camp""#), (#"say "hi""#, #""say \"hi\"""#), (#"a\b"#, #""a\\b""#),
        ("line\nnext\r\ttab", #""line\nnext\r\ttab""#), ("\u{01}\u{1F}", #""\u0001\u001f""#),
        ("Tübingen €", "\"Tübingen €\""), ("/", "\"/\""), ("", "\"\""),
    ])
    func stringsAreEscaped(text: String, json: String) {
        var buffer = TextBuffer()
        buffer.appendJSONString(text)
        #expect(buffer.string == json)
    }
}
