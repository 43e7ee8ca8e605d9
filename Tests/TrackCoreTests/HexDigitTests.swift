import Testing
import TrackCore

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

    @Test(arguments: [
        ("0", 0), ("f", 15), ("F", 15), ("9f3a11c2", 0x9F3A_11C2), ("9F3A11C2", 0x9F3A_11C2), ("0db8", 0xDB8),
        ("0000", 0), ("ffffffffffffffff", UInt64.max), ("00000000000000001", nil),
        // Negative cases: empty, a prefix, a sign, spaces, not a digit, too long.
        ("", nil), ("0x1F", nil), ("-1", nil), ("+1", nil), (" 1f", nil), ("1f ", nil), ("g", nil), ("1:2", nil),
        ("10000000000000000", nil),
    ] as [(String, UInt64?)])
    func hexNumbersAreRead(text: String, expected: UInt64?) {
        #expect(HexDigit.read(Array(text.utf8)[...]) == expected)
    }

    @Test("a range of a larger text is read alone")
    func hexNumberInARange() {
        let bytes = Array("[2001:db8::1]".utf8)
        #expect(HexDigit.read(bytes.span, 1..<5) == 0x2001)
        #expect(HexDigit.read(bytes.span, 6..<9) == 0xDB8)
        #expect(HexDigit.read(bytes.span, 5..<9) == nil)
    }
}
