/// What `BlockEncoder.append` did with a record.
public enum LogAppendResult: Equatable, Sendable {
    /// The record is in the block.
    case appended
    /// The record would not fit (buffer, 64 KiB payload or 65,535 records): nothing was written;
    /// seal the block, write it out and append the record to the next one.
    case full
}

/// Builds one log block at a time in a caller's fixed buffer: no allocation per record.
///
/// The daemon appends the records of one sync interval (default 5 s) and seals; `seal` returns
/// the block's length, the bytes to write are `buffer[0..<length]`, and the encoder is ready for
/// the next block with the next sequence number. Example:
///
///     var encoder = BlockEncoder(sequence: 0)
///     var span = buffer.mutableSpan                      // e.g. [UInt8](repeating: 0, count: 4096)
///     _ = encoder.append(.fix(fix), to: &span)           // .appended
///     let length = encoder.seal(&span)                   // e.g. 31: write buffer[0..<31]
public struct BlockEncoder: Sendable {
    /// The sequence number the current (or next) block carries; wraps after 2^32 − 1.
    public private(set) var sequence: UInt32
    /// Records in the current block.
    public private(set) var recordCount = 0
    /// Bytes written into the buffer so far (0 while the block is empty).
    public private(set) var writtenByteCount = 0
    var predictor = LogPredictor(time: 0, latitude: 0, longitude: 0)

    /// An encoder whose first block carries `sequence`.
    public init(sequence: UInt32) {
        self.sequence = sequence
    }

    /// True when no record has been appended since the last seal.
    public var isEmpty: Bool { recordCount == 0 }

    /// Appends `record` to the block in `buffer` (at least `LogBlockFormat.minimumBufferByteCount`
    /// bytes, the same buffer for every call until `seal`). The first record of a block also
    /// writes the header and the keyframe (its time and position). Returns `.full`, changing
    /// nothing, when the record and the CRC would not fit.
    public mutating func append(_ record: LogRecord, to buffer: inout MutableSpan<UInt8>) -> LogAppendResult {
        precondition(buffer.count >= LogBlockFormat.minimumBufferByteCount, "log block buffer too small")
        guard recordCount < LogBlockFormat.maximumRecordCount else { return .full }
        let limit = min(buffer.count - LogBlockFormat.crcByteCount,
                        LogBlockFormat.headerByteCount + LogBlockFormat.maximumPayloadByteCount)
        var out = LogByteWriter(offset: writtenByteCount, limit: limit)
        var next = predictor
        if recordCount == 0 {
            next = writeHeaderAndKeyframe(for: record, &out, &buffer)
        }
        next.encode(record, &out, &buffer)
        guard !out.failed else { return .full }
        predictor = next
        writtenByteCount = out.offset
        recordCount += 1
        return .appended
    }

    /// Completes the block in `buffer`: fills in payload length and record count, appends the
    /// CRC32C, and returns the block's length in bytes (0, writing nothing, when it is empty).
    /// The encoder then starts the next block with `sequence + 1`.
    public mutating func seal(_ buffer: inout MutableSpan<UInt8>) -> Int {
        guard recordCount > 0 else { return 0 }
        let payload = writtenByteCount - LogBlockFormat.headerByteCount
        var header = LogByteWriter(offset: 9, limit: LogBlockFormat.headerByteCount)
        header.littleEndian(UInt64(payload), byteCount: 2, &buffer)
        header.littleEndian(UInt64(recordCount), byteCount: 2, &buffer)
        let crc = CRC32C.checksum(of: buffer.span, 0..<writtenByteCount)
        var trailer = LogByteWriter(offset: writtenByteCount, limit: writtenByteCount + LogBlockFormat.crcByteCount)
        trailer.littleEndian(UInt64(crc), byteCount: 4, &buffer)
        let length = trailer.offset
        sequence &+= 1
        recordCount = 0
        writtenByteCount = 0
        return length
    }

    /// Drops the records of the current block (e.g. after a failed write) and starts the next
    /// block with `sequence`.
    public mutating func reset(sequence: UInt32) {
        self.sequence = sequence
        recordCount = 0
        writtenByteCount = 0
    }

    private func writeHeaderAndKeyframe(
        for record: LogRecord, _ out: inout LogByteWriter, _ buffer: inout MutableSpan<UInt8>
    ) -> LogPredictor {
        out.byte(LogBlockFormat.magic.0, &buffer)
        out.byte(LogBlockFormat.magic.1, &buffer)
        out.byte(LogBlockFormat.magic.2, &buffer)
        out.byte(LogBlockFormat.magic.3, &buffer)
        out.byte(LogBlockFormat.version, &buffer)
        out.littleEndian(UInt64(sequence), byteCount: 4, &buffer)
        // Payload length and record count, filled in by seal.
        out.littleEndian(0, byteCount: 4, &buffer)
        let position: LogPosition? = switch record {
        case .fix(let fix): fix.position
        case .waypoint(_, let position, _), .fenceEvent(_, _, _, let position): position
        case .permissionChange, .bootMarker, .gap: nil
        }
        let keyframe = LogPredictor(time: record.time.millisecondsSinceEpoch,
                                    latitude: Int64(position?.latitudeE7 ?? 0),
                                    longitude: Int64(position?.longitudeE7 ?? 0))
        out.signed(record.time.millisecondsSinceEpoch, &buffer)
        out.signed(keyframe.latitude, &buffer)
        out.signed(keyframe.longitude, &buffer)
        return keyframe
    }
}
