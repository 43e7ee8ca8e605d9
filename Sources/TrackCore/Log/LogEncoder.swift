/// What `LogEncoder.append` did with a record.
public enum LogAppendResult: Equatable, Sendable {
    /// The record is in the chunk.
    case appended
    /// The record would not fit (buffer or 16,383-byte payload): nothing was written; seal the
    /// chunk, write it out and append the record to the next one.
    case full
}

/// Builds the log one chunk at a time in a caller's fixed buffer: no allocation per record.
///
/// The daemon appends the records of one sync interval (default 5 s) and seals; `sealChunk`
/// returns the chunk's length, the bytes to write are `buffer[0..<length]`, and the encoder is
/// ready for the next chunk, which continues the prediction context. A chunk whose first record
/// is `keyframeIntervalMilliseconds` or more after the last keyframe (or before it) is a
/// keyframe chunk and starts a new context; `startKeyframe` forces one (e.g. a new segment).
/// Example:
///
///     var encoder = LogEncoder(sequence: 0)
///     var span = buffer.mutableSpan                      // e.g. [UInt8](repeating: 0, count: 4096)
///     _ = encoder.append(.fix(fix), to: &span)           // .appended
///     let length = encoder.sealChunk(&span)              // e.g. 30: write buffer[0..<30]
public struct LogEncoder: Sendable {
    /// The sequence number of the current (or next) chunk: +1 per chunk, wrapping after 2^32 − 1;
    /// keyframe chunks store it.
    public private(set) var sequence: UInt32
    /// Records in the current chunk.
    public private(set) var recordCount = 0
    /// Bytes written into the buffer so far, the code's end and the check not included (0 while
    /// empty).
    public var writtenByteCount: Int { recordCount == 0 ? 0 : (coder.out.bit + 7) >> 3 }
    /// True when the current chunk is a keyframe chunk. While the chunk is empty: true when a
    /// keyframe is already due (a new encoder, `startKeyframe`, `reset`); a keyframe due by time
    /// is decided by the chunk's first record.
    public private(set) var isKeyframe = true
    /// How far apart in record time keyframes are, in ms (default 300,000).
    public let keyframeIntervalMilliseconds: Int64
    var keyframeTime: Int64 = 0
    var payloadStart = 0
    var coder = LogArithmeticEncoder(out: LogBitWriter(bit: 0, limitBit: 0))
    var predictor = LogPredictor(time: 0, latitude: 0, longitude: 0)

    /// An encoder whose first chunk, a keyframe, carries `sequence`.
    public init(sequence: UInt32, keyframeIntervalMilliseconds: Int64 = 300_000) {
        self.sequence = sequence
        self.keyframeIntervalMilliseconds = keyframeIntervalMilliseconds
    }

    /// True when no record has been appended since the last seal.
    public var isEmpty: Bool { recordCount == 0 }

    /// Makes the next chunk a keyframe chunk (if the current one is empty, this one).
    public mutating func startKeyframe() {
        if recordCount == 0 { isKeyframe = true } else { keyframePending = true }
    }

    var keyframePending = false

    /// Appends `record` to the chunk in `buffer` (at least `LogChunkFormat.minimumBufferByteCount`
    /// bytes, the same buffer for every call until `sealChunk`). The first record of a chunk also
    /// writes its header (and for a keyframe, its time and position). Returns `.full`, changing
    /// nothing, when the record, the end of the code and the CRC would not fit.
    public mutating func append(_ record: LogRecord, to buffer: inout MutableSpan<UInt8>) -> LogAppendResult {
        precondition(buffer.count >= LogChunkFormat.minimumBufferByteCount, "log chunk buffer too small")
        let time = record.time.millisecondsSinceEpoch
        var next = predictor
        var out = coder
        var keyframe = isKeyframe
        var start = payloadStart
        // A sleep record needs a context of version 6 (`LogChunkFormat.sleepVersion`).
        let needsSleepVersion = record.isReceiverAsleep && predictor.version < LogChunkFormat.sleepVersion
        var patchVersion = false
        if recordCount == 0 {
            if time &- keyframeTime >= keyframeIntervalMilliseconds || time < keyframeTime { keyframe = true }
            if needsSleepVersion { keyframe = true }
            let limit = min(buffer.count - LogChunkFormat.crcByteCount, LogChunkFormat.keyframeHeaderByteCount
                            + LogChunkFormat.maximumPayloadByteCount)
            if keyframe {
                var header = LogByteWriter(offset: 0, limit: limit)
                let version = record.isReceiverAsleep ? LogChunkFormat.sleepVersion : LogChunkFormat.version
                next = writeKeyframeHeader(for: record, version: version, &header, &buffer)
                start = LogChunkFormat.keyframeHeaderByteCount
                out = LogArithmeticEncoder(out: LogBitWriter(bit: header.offset * 8, limitBit: limit * 8))
                if header.failed { out.out.failed = true }
            } else {
                // A data chunk is its code and its check: the decoder finds where the code ends.
                start = 0
                out = LogArithmeticEncoder(out: LogBitWriter(bit: 0, limitBit: min(limit, LogChunkFormat.maximumPayloadByteCount) * 8))
            }
        } else {
            if needsSleepVersion {
                // A data chunk continues a version-5 context: the sleep starts a keyframe of its
                // own. A keyframe chunk still open (a reencode puts every record in one) just
                // becomes version 6: the records before it code the same in both.
                guard keyframe else {
                    keyframePending = true
                    return .full
                }
                patchVersion = true
                next.version = LogChunkFormat.sleepVersion
            }
            out.encode(1, &next.more[min(recordCount, 7)], &buffer)
        }
        next.encode(record, &out, &buffer)
        // The end of the chunk must fit too.
        var end = out
        var ending = next.more[min(recordCount + 1, 7)]
        end.encode(0, &ending, &buffer)
        end.finish(&buffer)
        if !keyframe { end.out.write(0, count: LogDataCheck.bitCount(afterCode: end.out.bit), &buffer) }
        guard !end.out.failed else { return .full }
        if patchVersion { buffer[LogChunkFormat.versionOffset] = LogChunkFormat.sleepVersion }
        if recordCount == 0 {
            isKeyframe = keyframe
            if keyframe { keyframeTime = time }
            payloadStart = start
        }
        predictor = next
        coder = out
        recordCount += 1
        return .appended
    }

    /// Completes the chunk in `buffer`: ends the code ("no more records" and two bits), then for
    /// a keyframe pads it to a byte, fills in the payload length and appends the CRC32C, and for
    /// a data chunk appends its check (`LogDataCheck`: 16 to 23 bits, to a byte boundary).
    /// Returns the chunk's length in bytes (0, writing nothing, when it is empty). The encoder
    /// then starts the next chunk with `sequence + 1`.
    public mutating func sealChunk(_ buffer: inout MutableSpan<UInt8>) -> Int {
        guard recordCount > 0 else { return 0 }
        // "No more records" and the end of the code.
        var out = coder
        out.encode(0, &predictor.more[min(recordCount, 7)], &buffer)
        out.finish(&buffer)
        if !isKeyframe {
            // The check fills the last byte of the code and at least 16 bits more.
            let codeBits = out.out.bit
            let check = LogDataCheck.value(buffer.span, start: 0, codeBitCount: codeBits)
            out.out.write(UInt64(check), count: LogDataCheck.bitCount(afterCode: codeBits), &buffer)
            return finishSeal(length: out.out.bit >> 3)
        }
        // A keyframe: 0 bits up to the byte boundary, the payload length, the CRC.
        let end = (out.out.bit + 7) >> 3
        if out.out.bit & 7 != 0 { out.out.write(0, count: 8 - out.out.bit & 7, &buffer) }
        var length = LogByteWriter(offset: payloadStart - 2, limit: payloadStart)
        length.littleEndian(UInt64(end - payloadStart), byteCount: 2, &buffer)
        let crc = CRC32C.checksum(of: buffer.span, 0..<end)
        var trailer = LogByteWriter(offset: end, limit: end + LogChunkFormat.crcByteCount)
        trailer.littleEndian(UInt64(crc), byteCount: 4, &buffer)
        return finishSeal(length: trailer.offset)
    }

    /// Starts the next chunk after a sealed one of `length` bytes; returns `length`.
    private mutating func finishSeal(length: Int) -> Int {
        sequence &+= 1
        recordCount = 0
        isKeyframe = keyframePending
        keyframePending = false
        return length
    }

    /// Drops the records of the current chunk (e.g. after a failed write) and starts the next
    /// chunk, a keyframe, with `sequence`.
    public mutating func reset(sequence: UInt32) {
        self.sequence = sequence
        recordCount = 0
        isKeyframe = true
        keyframePending = false
    }

    private func writeKeyframeHeader(
        for record: LogRecord, version: UInt8, _ out: inout LogByteWriter, _ buffer: inout MutableSpan<UInt8>
    ) -> LogPredictor {
        out.byte(LogChunkFormat.magic.0, &buffer)
        out.byte(LogChunkFormat.magic.1, &buffer)
        out.byte(LogChunkFormat.magic.2, &buffer)
        out.byte(LogChunkFormat.magic.3, &buffer)
        out.byte(version, &buffer)
        out.littleEndian(UInt64(sequence), byteCount: 4, &buffer)
        // Payload length, filled in by sealChunk.
        out.littleEndian(0, byteCount: 2, &buffer)
        let position: LogPosition? = switch record {
        case .fix(let fix): fix.position
        case .waypoint(_, let position, _), .fenceEvent(_, _, _, let position): position
        case .permissionChange, .bootMarker, .gap, .receiverAsleep: nil
        }
        var keyframe = predictor.keyframe(time: record.time.millisecondsSinceEpoch,
                                          latitude: Int64(position?.latitudeE7 ?? 0),
                                          longitude: Int64(position?.longitudeE7 ?? 0))
        keyframe.version = version
        keyframe.writeKeyframe(&out, &buffer)
        return keyframe
    }
}
