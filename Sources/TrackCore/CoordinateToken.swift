// The lexical layer of coordinate parsing: UTF-8 bytes to a short list of tokens (numbers,
// signs, hemisphere letters, degree/minute/second marks, commas), each with the character
// offset it starts at. No allocation: the list is a fixed inline array.

/// One lexical unit of coordinate text.
struct CoordinateToken: Equatable {
    enum Kind: Equatable {
        case number
        case sign
        case hemisphere
        case mark
        case comma
    }

    var kind: Kind = .comma
    /// Character (Unicode scalar) offset of the token's first character.
    var offset = 0
    /// Numbers: the value in units of 10^-12 (12 fraction digits are kept, the rest ignored:
    /// a picodegree is 0.1 µm).
    var value: UInt64 = 0
    /// Numbers: whether a decimal point was written.
    var hasFraction = false
    /// Signs: true for minus. Hemispheres: true for S and W.
    var negative = false
    /// Hemispheres: true for N and S. Marks: 0 degree, 1 minute, 2 second.
    var latitude = false
    var rank = 0

    static let fractionScale: UInt64 = 1_000_000_000_000
}

/// The tokens of one text, at most `capacity` of them.
struct CoordinateTokens {
    static let capacity = 24
    var items: [24 of CoordinateToken] = .init(repeating: CoordinateToken())
    var count = 0
    /// Character count of the whole text, the offset reported for "ended too early".
    var end = 0

    subscript(index: Int) -> CoordinateToken { items[index] }

    init<Bytes: Collection<UInt8>>(scanning bytes: Bytes) throws(CoordinateParseError) {
        var index = bytes.startIndex
        var offset = 0
        while index != bytes.endIndex {
            let start = offset
            let byte = bytes[index]
            var token = CoordinateToken()
            token.offset = start
            bytes.formIndex(after: &index)
            offset += 1
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                token.kind = .number
                try Self.scanNumber(first: byte, bytes, &index, &offset, into: &token)
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                token.kind = .sign
                token.negative = byte == UInt8(ascii: "-")
            case UInt8(ascii: "N"), UInt8(ascii: "n"), UInt8(ascii: "S"), UInt8(ascii: "s"):
                token.kind = .hemisphere
                token.latitude = true
                token.negative = byte | 0x20 == UInt8(ascii: "s")
            case UInt8(ascii: "E"), UInt8(ascii: "e"), UInt8(ascii: "W"), UInt8(ascii: "w"):
                token.kind = .hemisphere
                token.negative = byte | 0x20 == UInt8(ascii: "w")
            case UInt8(ascii: "'"):
                token.kind = .mark
                token.rank = 1
                // Two apostrophes are a common stand-in for the seconds mark.
                if index != bytes.endIndex && bytes[index] == UInt8(ascii: "'") {
                    token.rank = 2
                    bytes.formIndex(after: &index)
                    offset += 1
                }
            case UInt8(ascii: "\""):
                token.kind = .mark
                token.rank = 2
            case UInt8(ascii: ","):
                token.kind = .comma
            case 0xC2...0xEF:
                guard let scalar = Self.decode(lead: byte, bytes, &index) else {
                    throw .unexpectedCharacter(offset: start)
                }
                switch scalar {
                case 0xA0:  // no-break space
                    continue
                case 0xB0, 0xBA, 0x2DA:  // degree sign, masculine ordinal, ring above
                    token.kind = .mark
                case 0x2032, 0x2019:  // prime, right single quotation mark
                    token.kind = .mark
                    token.rank = 1
                case 0x2033, 0x201D:  // double prime, right double quotation mark
                    token.kind = .mark
                    token.rank = 2
                case 0x2212:  // minus sign
                    token.kind = .sign
                    token.negative = true
                default:
                    throw .unexpectedCharacter(offset: start)
                }
            default:
                throw .unexpectedCharacter(offset: start)
            }
            guard count < Self.capacity else { throw .unexpectedText(offset: start) }
            items[count] = token
            count += 1
        }
        end = offset
    }

    /// Digits, optionally a point and more digits; the first digit is already consumed.
    private static func scanNumber<Bytes: Collection<UInt8>>(
        first: UInt8, _ bytes: Bytes, _ index: inout Bytes.Index, _ offset: inout Int,
        into token: inout CoordinateToken
    ) throws(CoordinateParseError) {
        // Integer parts of 1,000 or more are out of range for any part: saturate there, which
        // also keeps degrees · 3600 · 10^12 within 64 bits.
        var whole = UInt64(first - UInt8(ascii: "0"))
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var inFraction = false
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
                token.hasFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if !inFraction {
                    whole = min(whole * 10 + digit, 1_000)
                } else if fractionDigits < 12 {
                    fraction = fraction * 10 + digit
                    fractionDigits += 1
                }
            } else {
                break
            }
            bytes.formIndex(after: &index)
            offset += 1
        }
        // "48." has no digit after its point.
        if inFraction && fractionDigits == 0 { throw .expectedNumber(offset: offset) }
        for _ in fractionDigits..<12 { fraction *= 10 }
        token.value = whole * CoordinateToken.fractionScale + fraction
    }

    /// The scalar of a two- or three-byte UTF-8 sequence whose lead byte is consumed; nil if
    /// malformed.
    private static func decode<Bytes: Collection<UInt8>>(lead: UInt8, _ bytes: Bytes, _ index: inout Bytes.Index)
        -> UInt32?
    {
        let length = lead >= 0xE0 ? 3 : 2
        var scalar = UInt32(lead & (length == 3 ? 0x0F : 0x1F))
        for _ in 1..<length {
            guard index != bytes.endIndex, bytes[index] & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(bytes[index] & 0x3F)
            bytes.formIndex(after: &index)
        }
        return scalar
    }
}
