/// The header of a block that passed its checks.
public struct LogBlockHeader: Equatable, Sendable {
    /// Offset of the block's first byte in the bytes given to the decoder.
    public var offset: Int
    /// Format version (1).
    public var version: UInt8
    /// The writer's sequence number: consecutive blocks count up by one (wrapping at 2^32).
    public var sequence: UInt32
    /// Payload bytes (keyframe and records), 0…65,535.
    public var payloadByteCount: Int
    /// Records in the block, 0…65,535.
    public var recordCount: Int

    /// The whole block's length: header, payload and CRC, e.g. 13 + 31 + 4 = 48.
    public var byteCount: Int { LogBlockFormat.headerByteCount + payloadByteCount + LogBlockFormat.crcByteCount }
}

/// Reads one block from bytes: checks magic, version, length and CRC32C first, so no record of a
/// damaged block is ever returned, then yields its records in order with `next`.
///
/// Pass the same bytes to every call. Example:
///
///     var decoder = try BlockDecoder(bytes.span, at: 0)   // throws(LogError), e.g. .crcMismatch
///     while let record = try decoder.next(bytes.span) { … }
///     let following = decoder.header.offset + decoder.header.byteCount
public struct BlockDecoder: Sendable {
    /// The validated header.
    public let header: LogBlockHeader
    var input: LogByteReader
    var remaining: Int
    var predictor: LogPredictor

    /// Validates the block starting at `offset` and reads its keyframe. Errors: `.truncated` when
    /// the bytes end inside it (a torn tail), `.badMagic`, `.unsupportedVersion`, `.crcMismatch`,
    /// and field errors from the keyframe.
    public init(_ bytes: Span<UInt8>, at offset: Int = 0) throws(LogError) {
        for index in 0..<4 {
            guard offset + index < bytes.count else { throw .truncated(offset: bytes.count) }
            guard bytes[offset + index] == LogBlockFormat.magicByte(index) else { throw .badMagic(offset: offset) }
        }
        var fields = LogByteReader(offset: offset + 4, end: bytes.count)
        let version = try fields.byte(bytes)
        guard version == LogBlockFormat.version else { throw .unsupportedVersion(version, offset: offset + 4) }
        let sequence = UInt32(truncatingIfNeeded: try fields.littleEndian(byteCount: 4, bytes))
        let payload = Int(try fields.littleEndian(byteCount: 2, bytes))
        let count = Int(try fields.littleEndian(byteCount: 2, bytes))
        header = LogBlockHeader(offset: offset, version: version, sequence: sequence,
                                payloadByteCount: payload, recordCount: count)
        let crcOffset = fields.offset + payload
        guard crcOffset + LogBlockFormat.crcByteCount <= bytes.count else { throw .truncated(offset: bytes.count) }
        var trailer = LogByteReader(offset: crcOffset, end: bytes.count)
        let found = UInt32(truncatingIfNeeded: try trailer.littleEndian(byteCount: 4, bytes))
        let computed = CRC32C.checksum(of: bytes, offset..<crcOffset)
        guard computed == found else { throw .crcMismatch(computed: computed, found: found, offset: crcOffset) }
        input = LogByteReader(offset: fields.offset, end: crcOffset)
        let time = try input.signed(bytes)
        let latitude = try input.signed(bytes)
        let longitude = try input.signed(bytes)
        predictor = LogPredictor(time: time, latitude: latitude, longitude: longitude)
        remaining = count
    }

    /// The next record, or nil after the last. Throws (naming the offset) when a record is
    /// malformed or the payload's bytes and record count disagree.
    public mutating func next(_ bytes: Span<UInt8>) throws(LogError) -> LogRecord? {
        guard remaining > 0 else {
            guard input.offset == input.end else { throw .recordCountMismatch(offset: input.offset) }
            return nil
        }
        guard input.offset < input.end else { throw .recordCountMismatch(offset: input.offset) }
        let record = try predictor.decode(&input, bytes)
        remaining -= 1
        return record
    }
}
