/// Hexadecimal digits, read and written in one place: NMEA checksums, JSON's `\u` escapes,
/// IPv6 addresses, log cursors' CRCs and the bytes error messages name.
public enum HexDigit {
    /// The value of one hex digit in either case, e.g. `"7"` → 7, `"c"` and `"C"` → 12; nil
    /// for any other byte.
    @inline(__always)
    public static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- 48
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- 55
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- 87
        default: nil
        }
    }

    /// The hex number that is all of `bytes[range]`, 1 … 16 digits in either case, e.g.
    /// `"9f3a11c2"` and `"9F3A11C2"` → 0x9F3A11C2, `"0db8"` → 0xDB8; nil when the range is
    /// empty, longer than 16 digits or holds anything but hex digits (`0x1F`, `-1`, ` 1f`).
    public static func read(_ bytes: Span<UInt8>, _ range: Range<Int>) -> UInt64? {
        guard !range.isEmpty, range.count <= 16 else { return nil }
        var result: UInt64 = 0
        for offset in range {
            guard let digit = value(bytes[offset]) else { return nil }
            result = result << 4 | UInt64(digit)
        }
        return result
    }

    /// `read(_:_:)` of all of `text`, e.g. `Array("ff".utf8)[...]` → 255.
    public static func read(_ text: ArraySlice<UInt8>) -> UInt64? {
        read(text.span, 0..<text.count)
    }

    /// The digit for the low four bits of `nibble`, e.g. 12 → `"c"`, or `"C"` when `uppercase`
    /// (NMEA checksums are written in upper case, JSON escapes in lower).
    @inline(__always)
    public static func character(_ nibble: UInt8, uppercase: Bool = false) -> UInt8 {
        let value = nibble & 0x0F
        return value < 10 ? value &+ 48 : value &+ (uppercase ? 55 : 87)
    }

    /// `0x` and two upper-case digits, e.g. 0x7D → `"0x7D"` (error messages).
    public static func byteText(_ byte: UInt8) -> String {
        String(decoding: [UInt8(ascii: "0"), UInt8(ascii: "x"), character(byte >> 4, uppercase: true),
                          character(byte, uppercase: true)], as: UTF8.self)
    }
}
