/// Why log bytes were rejected; every case names the byte offset (from the start of the bytes
/// the decoder was given) where the problem was found, so a reader can report it and skip on.
public enum LogError: Error, Equatable, Sendable {
    /// The chunk at `offset` starts with neither a keyframe magic `89 54 4C 4B` nor a valid
    /// data chunk length.
    case badMagic(offset: Int)
    /// The keyframe or parity chunk at `offset` has a format version this reader does not know
    /// (it knows 3 to 6).
    case unsupportedVersion(UInt8, offset: Int)
    /// The bytes end at `offset` inside something that needs more (a header, payload or CRC).
    case truncated(offset: Int)
    /// The CRC stored at `offset` is `found`; the bytes it covers give `computed`.
    case crcMismatch(computed: UInt32, found: UInt32, offset: Int)
    /// The varint starting at `offset` is longer than 10 bytes or exceeds 64 bits.
    case malformedVarint(offset: Int)
    /// The record at `offset` starts with a kind byte this reader does not know.
    case unknownRecordKind(UInt8, offset: Int)
    /// A field ending at `offset` decodes to a value outside its type (e.g. latitude > Int32).
    case valueOutOfRange(offset: Int)
    /// The payload's code does not describe valid records (a value too wide for its field, or
    /// a code that reads past the payload), found at `offset`.
    case malformedPayload(offset: Int)
    /// The data chunk at `offset` passed its CRC but no keyframe was read before it (the reader
    /// started there or the chunk before it was damaged): it is skipped until the next keyframe.
    case missingKeyframe(offset: Int)

    /// The byte offset the error names.
    public var offset: Int {
        switch self {
        case .badMagic(let offset), .unsupportedVersion(_, let offset), .truncated(let offset),
             .crcMismatch(_, _, let offset), .malformedVarint(let offset), .unknownRecordKind(_, let offset),
             .valueOutOfRange(let offset), .malformedPayload(let offset),
             .missingKeyframe(let offset):
            return offset
        }
    }

    /// One line naming the problem, e.g. `"CRC mismatch at offset 40"`.
    public var description: String {
        switch self {
        case .badMagic(let offset): return String(joining: "bad magic at offset ", String(offset))
        case .unsupportedVersion(let version, let offset): return String(joining: "unsupported version ", String(version), " at offset ", String(offset))
        case .truncated(let offset): return String(joining: "truncated at offset ", String(offset))
        case .crcMismatch(_, _, let offset): return String(joining: "CRC mismatch at offset ", String(offset))
        case .malformedVarint(let offset): return String(joining: "malformed varint at offset ", String(offset))
        case .unknownRecordKind(let kind, let offset): return String(joining: "unknown record kind ", String(kind), " at offset ", String(offset))
        case .valueOutOfRange(let offset): return String(joining: "value out of range at offset ", String(offset))
        case .malformedPayload(let offset): return String(joining: "malformed payload at offset ", String(offset))
        case .missingKeyframe(let offset): return String(joining: "chunk without its keyframe at offset ", String(offset))
        }
    }
}
