/// The header of a chunk that passed its checks.
public struct LogChunkHeader: Equatable, Sendable {
    /// Offset of the chunk's first byte in the bytes given to the reader.
    public var offset: Int
    /// True for a keyframe chunk (starts a prediction context), false for a data chunk.
    public var isKeyframe: Bool
    /// True for a parity chunk (format version 4): no records, no sequence number; its group is
    /// the bytes before it (`LogParityChunk`).
    public var isParity = false
    /// The writer's chunk sequence number, stored in keyframe chunks only (nil in data and
    /// parity chunks).
    public var sequence: UInt32?
    /// Bytes between the header and the CRC, 1…16,383: for a data chunk, its code rounded up to
    /// a byte (from version 5 its last byte also holds the first bits of the check).
    public var payloadByteCount: Int
    /// The whole chunk's length: header (11 bytes for a keyframe, none for a data chunk),
    /// payload and CRC, e.g. 0 + 16 + 4 = 20 (a version-5 data chunk: its code and 16 to 23
    /// bits of check, e.g. 18).
    public var byteCount: Int

    /// The offset of the chunk after this one.
    public var end: Int { offset + byteCount }
}

/// Reads the log chunk by chunk: checks each chunk's framing and CRC32C (a version-5 data chunk:
/// its shorter check, `LogDataCheck`) before it returns any of
/// its records, and carries the prediction context from a keyframe to the data chunks after it.
///
/// Pass the same bytes to every call (or the same bytes with more after them). After
/// `.truncated` at the end of the bytes the reader keeps its context, so a caller that holds only
/// the start of a log can add bytes and open the same offset again. After any other error the
/// context is dropped: data chunks are then refused with `.missingKeyframe` until the next
/// keyframe, which a caller finds with `LogChunkFormat.nextKeyframe`. A data chunk has no
/// length: `open` decodes it once to find its CRC. Example:
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
    /// How far a well-formed chunk's code can make the decoder read: 32 bits past its payload.
    var limitBit = 0

    /// A reader with no context: the first chunk it opens must be a keyframe.
    public init() {}

    /// Validates the chunk starting at `offset` and prepares its records. Errors: `.truncated`
    /// when the bytes end inside it (a torn tail), `.badMagic`, `.unsupportedVersion`,
    /// `.crcMismatch`, `.missingKeyframe` (a data chunk with no context to decode it), and field
    /// errors from a keyframe's values or, for a data chunk, from its records (decoding them is
    /// how its end is found). A parity chunk opens with no records and keeps the context.
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
        do throws(LogError) {
            return try openChunk(bytes, at: offset, state)
        } catch {
            // Bytes that end inside the chunk are not damage: called again with more bytes, at
            // the same offset, the reader still has the context a data chunk needs.
            if case .truncated(let at) = error, at >= bytes.count { context = state }
            throw error
        }
    }

    private mutating func openChunk(_ bytes: Span<UInt8>, at offset: Int, _ state: LogPredictor?) throws(LogError) -> LogChunkHeader {
        guard offset >= 0, offset < bytes.count else { throw .truncated(offset: max(offset, 0)) }
        guard bytes[offset] == LogChunkFormat.magic.0 else {
            guard let state else { throw .missingKeyframe(offset: offset) }
            return try openData(bytes, at: offset, state)
        }
        do throws(LogError) {
            if LogChunkFormat.isParity(bytes, at: offset) {
                // No records; the context carries on past it.
                let parity = try LogParityChunk.read(bytes, at: offset)
                context = state
                return LogChunkHeader(offset: offset, isKeyframe: false, isParity: true, sequence: nil,
                                      payloadByteCount: parity.end - offset - LogChunkFormat.crcByteCount,
                                      byteCount: parity.end - offset)
            }
            return try openKeyframe(bytes, at: offset)
        } catch {
            // A data chunk's code may begin with the magic's bytes (about once in 2^32 chunks).
            guard let state else { throw error }
            // But a keyframe or parity chunk whose header reads and whose CRC alone fails is not
            // one of those: it is damaged. Read as a data chunk, its bytes would meet only a
            // version-5 data chunk's short check, and in 30,000 rounds of `scripts/bitrot` two
            // damaged parity chunks passed it and gave made-up fixes; so from version 5 on it
            // stays damaged (and a damaged parity chunk is then recognised as one). A data chunk
            // whose first bytes make a whole header that fails only its CRC is about 2^-40 of
            // chunks.
            guard Self.mayBeDataChunk(after: error, version: state.version) else { throw error }
            do throws(LogError) { return try openData(bytes, at: offset, state) } catch _ { throw error }
        }
    }

    /// Whether a chunk that starts with a magic but failed to open as a keyframe or parity
    /// chunk with `error` is tried as a data chunk of a context of `version`: not when its
    /// header read and only its CRC failed, from version 5 on.
    static func mayBeDataChunk(after error: LogError, version: UInt8) -> Bool {
        if case .crcMismatch = error, version >= 5 { return false }
        return true
    }

    private mutating func openKeyframe(_ bytes: Span<UInt8>, at offset: Int) throws(LogError) -> LogChunkHeader {
        var fields = LogByteReader(offset: offset + 1, end: bytes.count)
        for index in 1..<4 {
            guard try fields.byte(bytes) == LogChunkFormat.magicByte(index) else { throw .badMagic(offset: offset) }
        }
        let version = try fields.byte(bytes)
        guard version >= LogChunkFormat.oldestReadableVersion, version <= LogChunkFormat.newestReadableVersion else {
            throw .unsupportedVersion(version, offset: offset + 4)
        }
        let sequence = UInt32(truncatingIfNeeded: try fields.littleEndian(byteCount: 4, bytes))
        let payload = Int(try fields.littleEndian(byteCount: 2, bytes))
        guard payload >= 1, payload <= LogChunkFormat.maximumPayloadByteCount else { throw .badMagic(offset: offset) }
        let payloadStart = fields.offset
        let crcOffset = payloadStart + payload
        guard crcOffset + LogChunkFormat.crcByteCount <= bytes.count else { throw .truncated(offset: bytes.count) }
        try checkCRC(bytes, offset, crcOffset)
        var values = LogByteReader(offset: payloadStart, end: crcOffset)
        context = try LogPredictor.readKeyframe(&values, bytes, version: version)
        // Past the payload the code reads 0 bits.
        input = LogArithmeticDecoder(bit: values.offset * 8, endBit: crcOffset * 8, bytes)
        limitBit = crcOffset * 8 + 32
        return LogChunkHeader(offset: offset, isKeyframe: true, sequence: sequence, payloadByteCount: payload,
                              byteCount: crcOffset + LogChunkFormat.crcByteCount - offset)
    }

    /// A data chunk has no length: its records are decoded once to find where the code ends
    /// (two bits after the decoder's last shift), the check after it is read (version 5: 16 to
    /// 23 bits up to a byte boundary; before: the CRC32C after the code rounded up to a byte),
    /// and `next` decodes them again.
    private mutating func openData(_ bytes: Span<UInt8>, at offset: Int, _ state: LogPredictor) throws(LogError) -> LogChunkHeader {
        let start = offset * 8
        let available = bytes.count * 8
        let limit = start + LogChunkFormat.maximumPayloadByteCount * 8 + 32
        var trial = state
        var decoder = LogArithmeticDecoder(bit: start, endBit: available, bytes)
        var count = 0
        do throws(LogError) {
            while count == 0 || decoder.decode(&trial.more[min(count, 7)], bytes) == 1 {
                _ = try trial.decode(&decoder, bytes)
                count += 1
                guard decoder.bit <= limit else { throw .malformedPayload(offset: offset) }
                guard decoder.bit <= available + 32 else { throw .truncated(offset: bytes.count) }
            }
        } catch {
            // Decoding ran into bytes that are not there yet: a torn tail.
            throw decoder.bit > available ? .truncated(offset: bytes.count) : error
        }
        let codeBits = decoder.bit - start - 30
        let payload = (codeBits + 7) >> 3
        let byteCount: Int
        if state.version >= 5 {
            // The check fills the code's last byte and at least 16 bits more (`LogDataCheck`).
            byteCount = LogDataCheck.chunkByteCount(afterCode: codeBits)
            guard offset + byteCount <= bytes.count else { throw .truncated(offset: bytes.count) }
            let found = LogDataCheck.stored(bytes, start: offset, codeBitCount: codeBits)
            let computed = LogDataCheck.value(bytes, start: offset, codeBitCount: codeBits)
            guard computed == found else {
                throw .crcMismatch(computed: computed, found: found, offset: offset + (codeBits >> 3))
            }
        } else {
            byteCount = payload + LogChunkFormat.crcByteCount
            guard offset + byteCount <= bytes.count else { throw .truncated(offset: bytes.count) }
            try checkCRC(bytes, offset, offset + payload)
        }
        context = state
        input = LogArithmeticDecoder(bit: start, endBit: available, bytes)
        limitBit = (offset + payload) * 8 + 32
        return LogChunkHeader(offset: offset, isKeyframe: false, sequence: nil, payloadByteCount: payload,
                              byteCount: byteCount)
    }

    private func checkCRC(_ bytes: Span<UInt8>, _ offset: Int, _ crcOffset: Int) throws(LogError) {
        var trailer = LogByteReader(offset: crcOffset, end: bytes.count)
        let found = UInt32(truncatingIfNeeded: try trailer.littleEndian(byteCount: 4, bytes))
        let computed = CRC32C.checksum(of: bytes, offset..<crcOffset)
        guard computed == found else { throw .crcMismatch(computed: computed, found: found, offset: crcOffset) }
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
        guard decoder.bit <= limitBit else { throw .malformedPayload(offset: (limitBit - 32) >> 3) }
        recordsRead += 1
        context = state
        input = decoder
        return record
    }
}
