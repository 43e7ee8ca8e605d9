/// The header of a chunk that passed its checks.
public struct LogChunkHeader: Equatable, Sendable {
    /// Offset of the chunk's first byte in the bytes given to the reader.
    public var offset: Int
    /// True for a keyframe chunk (starts a prediction context), false for a data chunk.
    public var isKeyframe: Bool
    /// The writer's chunk sequence number, stored in keyframe chunks only (nil in data chunks).
    public var sequence: UInt32?
    /// Bytes between the header and the CRC, 1…16,383.
    public var payloadByteCount: Int
    /// The whole chunk's length: header, payload and CRC, e.g. 1 + 10 + 4 = 15.
    public var byteCount: Int

    /// The offset of the chunk after this one.
    public var end: Int { offset + byteCount }
}

/// Reads the log chunk by chunk: checks each chunk's framing and CRC32C before it returns any of
/// its records, and carries the prediction context from a keyframe to the data chunks after it.
///
/// Pass the same bytes to every call. After any error the context is dropped: data chunks are
/// then refused with `.missingKeyframe` until the next keyframe, which a caller finds with
/// `LogChunkFormat.nextKeyframe`. Example:
///
///     var reader = LogChunkReader()
///     let header = try reader.open(bytes.span, at: 0)    // throws(LogError), e.g. .crcMismatch
///     while let record = try reader.next(bytes.span) { … }
///     // the next chunk starts at header.end
public struct LogChunkReader: Sendable {
    var context: LogPredictor?
    var input: LogArithmeticDecoder?
    /// Records read from the open chunk.
    var recordsRead = 0

    /// A reader with no context: the first chunk it opens must be a keyframe.
    public init() {}

    /// Validates the chunk starting at `offset` and prepares its records. Errors: `.truncated`
    /// when the bytes end inside it (a torn tail), `.badMagic`, `.unsupportedVersion`,
    /// `.crcMismatch`, `.missingKeyframe`, and field errors
    /// from a keyframe's values.
    public mutating func open(_ bytes: Span<UInt8>, at offset: Int) throws(LogError) -> LogChunkHeader {
        // The probabilities learn from every record and from the end of the chunk, so a chunk
        // left half read is read to its end (quietly) before the next one continues its context.
        while input != nil, context != nil {
            do throws(LogError) { _ = try next(bytes) } catch { break }
        }
        let state = context
        context = nil
        input = nil
        recordsRead = 0
        var fields = LogByteReader(offset: offset, end: bytes.count)
        let first = try fields.byte(bytes)
        let isKeyframe = first == LogChunkFormat.magic.0
        var sequence: UInt32?
        let payload: Int
        if isKeyframe {
            for index in 1..<4 {
                guard try fields.byte(bytes) == LogChunkFormat.magicByte(index) else { throw .badMagic(offset: offset) }
            }
            let version = try fields.byte(bytes)
            guard version == LogChunkFormat.version else { throw .unsupportedVersion(version, offset: offset + 4) }
            sequence = UInt32(truncatingIfNeeded: try fields.littleEndian(byteCount: 4, bytes))
            payload = Int(try fields.littleEndian(byteCount: 2, bytes))
        } else if first >= 0x01 && first < 0x80 {
            payload = Int(first)
        } else if first >= 0xC0 {
            payload = Int(first & 0x3F) << 8 | Int(try fields.byte(bytes))
        } else {
            throw .badMagic(offset: offset)
        }
        guard payload >= 1, payload <= LogChunkFormat.maximumPayloadByteCount else {
            throw .badMagic(offset: offset)
        }
        let payloadStart = fields.offset
        let crcOffset = payloadStart + payload
        guard crcOffset + LogChunkFormat.crcByteCount <= bytes.count else { throw .truncated(offset: bytes.count) }
        var trailer = LogByteReader(offset: crcOffset, end: bytes.count)
        let found = UInt32(truncatingIfNeeded: try trailer.littleEndian(byteCount: 4, bytes))
        let computed = CRC32C.checksum(of: bytes, offset..<crcOffset)
        guard computed == found else { throw .crcMismatch(computed: computed, found: found, offset: crcOffset) }
        let endBit = crcOffset * 8
        var next: LogPredictor
        var bitStart = payloadStart * 8
        if isKeyframe {
            var values = LogByteReader(offset: payloadStart, end: crcOffset)
            next = try LogPredictor.readKeyframe(&values, bytes)
            bitStart = values.offset * 8
        } else {
            guard let state else { throw .missingKeyframe(offset: offset) }
            next = state
        }
        context = next
        input = LogArithmeticDecoder(bit: bitStart, endBit: endBit, bytes)
        return LogChunkHeader(offset: offset, isKeyframe: isKeyframe, sequence: sequence,
                              payloadByteCount: payload, byteCount: crcOffset + LogChunkFormat.crcByteCount - offset)
    }

    /// The next record of the open chunk, or nil after its last. Throws (naming the offset, and
    /// dropping the context) when a record is malformed.
    public mutating func next(_ bytes: Span<UInt8>) throws(LogError) -> LogRecord? {
        guard var state = context, var decoder = input else { return nil }
        context = nil
        input = nil
        // After the n-th record, one decision says whether another follows.
        if recordsRead > 0 && decoder.decode(&state.more[min(recordsRead, 7)], bytes) == 0 {
            context = state
            return nil
        }
        let record = try state.decode(&decoder, bytes)
        // A well-formed chunk never makes the decoder read more than 32 bits past its payload.
        guard decoder.isWithinPayload else { throw .malformedPayload(offset: decoder.endBit >> 3) }
        recordsRead += 1
        context = state
        input = decoder
        return record
    }
}
