/// Why a sentence was rejected; each case carries what explains the failure, so a caller can
/// count it, drop the sentence and say exactly what was wrong.
public enum NMEAError: Error, Equatable, Sendable {
    /// The checksum after `*` does not match the XOR of the sentence, e.g. `*7C` for `0x7D`.
    case badChecksum(expected: UInt8, found: UInt8)
    /// The line ended without a `*hh` checksum.
    case missingChecksum
    /// The checksum after `*` is not two hex digits followed by the line end.
    case malformedChecksum
    /// The line exceeded `NMEASentence.maximumLength` characters before its end.
    case overlong
    /// A byte that cannot appear in a sentence (NUL, a control byte, non-ASCII) at `offset`.
    case invalidByte(UInt8, offset: Int)
    /// A new `$` arrived before the previous sentence ended (collided or truncated sentence).
    case truncated
    /// More than `NMEASentence.maximumFields` comma-separated fields.
    case tooManyFields
    /// Fewer fields than the sentence type needs (`count` counts the address field too).
    case tooFewFields(SentenceType, count: Int)
    /// A field whose syntax is wrong, e.g. `12a4.5` where a number belongs (field 1 = first after the address).
    case malformedField(SentenceType, field: Int)
    /// A well-formed field whose value is impossible, e.g. minutes ≥ 60 or latitude > 90°.
    case outOfRange(SentenceType, field: Int)

    /// One line of text naming the problem, e.g. `"GGA field 2: out of range"`.
    public var description: String {
        switch self {
        case .badChecksum(let expected, let found):
            return String(joining: "bad checksum: computed ", HexDigit.byteText(expected), ", sentence says ", HexDigit.byteText(found))
        case .missingChecksum: return "missing checksum"
        case .malformedChecksum: return "malformed checksum"
        case .overlong: return String(joining: "sentence longer than ", String(NMEASentence.maximumLength), " characters")
        case .invalidByte(let byte, let offset): return String(joining: "invalid byte ", HexDigit.byteText(byte), " at offset ", String(offset))
        case .truncated: return "sentence cut off by the next '$'"
        case .tooManyFields: return String(joining: "more than ", String(NMEASentence.maximumFields), " fields")
        case .tooFewFields(let type, let count): return String(joining: type.name, ": only ", String(count), " fields")
        case .malformedField(let type, let field): return String(joining: type.name, " field ", String(field), ": malformed")
        case .outOfRange(let type, let field): return String(joining: type.name, " field ", String(field), ": out of range")
        }
    }
}
