/// UTF-8 as RFC 3629 allows it, one multi-byte sequence at a time: what the JSON reader accepts
/// and what the gpsd writer lets through unchanged.
public enum UTF8Sequence {
    /// The length (2…4) of the well-formed multi-byte sequence starting at `start`, or nil when
    /// none starts there (an ASCII byte, a stray continuation byte, an overlong form, a
    /// surrogate, a code point past U+10FFFF, a sequence cut short). Table 3-7 of the Unicode
    /// standard: the second byte's range depends on the first. E.g. `C3 A9` ("é") → 2,
    /// `ED A0 80` (a surrogate) → nil.
    public static func length(_ bytes: Span<UInt8>, at start: Int) -> Int? {
        let first = bytes[start]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard start + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[start + offset]
            let (minimum, maximum) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= minimum && byte <= maximum else { return nil }
        }
        return length
    }
}
