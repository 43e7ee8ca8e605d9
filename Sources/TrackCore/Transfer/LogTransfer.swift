/// A transfer read back and verified: every chunk's CRC-32C (its own, or the one the sender put
/// after a version-5 data chunk) and the checksum over all its bytes.
/// What `trackctl pull` appends, segment by segment, once `init(verifying:)` returned.
///
/// Example:
///
///     let transfer = try LogTransfer(verifying: received)   // throws(LogTransferError)
///     for piece in transfer.segments { append(piece.bytes, to: piece.number, at: piece.offset) }
///     save(transfer.cursor.text)                             // "3:1254:78:0c1d2e3f"
public struct LogTransfer: Equatable, Sendable {
    /// The bytes of one segment the transfer carries, from `offset` on.
    public struct Segment: Equatable, Sendable {
        /// The segment number, e.g. 3 (file "0000000003.tlog").
        public var number: UInt64
        /// Where `bytes` start in the segment file.
        public var offset: Int
        /// The chunks (and damaged stretches) back to back, as the segment holds them.
        public var bytes: [UInt8]
        /// The chunks it carries.
        public var chunkCount: Int
        /// Of them, the chunks whose CRC-32C was checked here: every one (a version-5 data
        /// chunk, whose own check needs the records before it, by the CRC-32C the sender put
        /// after it).
        public var checkedChunkCount: Int
        /// Bytes the tracker's reader found damaged, sent as they are.
        public var damagedByteCount: Int
    }

    /// The segments, in the order sent (oldest first).
    public var segments: [Segment]
    /// What the chunks hold, as the tracker counted.
    public var summary: LogTransferSummary
    /// Where the next pull starts.
    public var cursor: LogCursor
    /// The transfer's length in bytes.
    public var byteCount: Int

    /// Reads and verifies `bytes`: throws (and keeps nothing) when anything does not check.
    public init(verifying bytes: [UInt8]) throws(LogTransferError) {
        let magic = LogTransferFormat.magic
        guard bytes.count >= magic.count else {
            if Array(magic.prefix(bytes.count)) == bytes { throw .cut(byteCount: bytes.count) }
            throw .notATransfer(byteCount: bytes.count)
        }
        guard Array(bytes[0..<magic.count]) == magic else { throw .notATransfer(byteCount: bytes.count) }
        var reader = Reader(bytes: bytes, position: magic.count)
        var segments: [Segment] = []
        while true {
            let tag = try reader.byte()
            if tag == LogTransferFormat.endTag { break }
            switch tag {
            case LogTransferFormat.segmentTag:
                let number = try reader.varint()
                let offset = try reader.varint()
                guard offset <= UInt64(Int32.max) else { throw .malformed(position: reader.position) }
                segments.append(Segment(number: number, offset: Int(offset), bytes: [], chunkCount: 0, checkedChunkCount: 0,
                                        damagedByteCount: 0))
            case LogTransferFormat.chunkTag, LogTransferFormat.checkedChunkTag, LogTransferFormat.damagedTag:
                guard !segments.isEmpty else { throw .malformed(position: reader.position - 1) }
                let length = try reader.length()
                let start = reader.position
                try reader.skip(length)
                var segment = segments[segments.count - 1]
                let offset = segment.offset + segment.bytes.count
                if tag == LogTransferFormat.checkedChunkTag {
                    // The chunk's CRC-32C follows it in the framing.
                    let stored = try reader.uint32()
                    guard length > 0, CRC32C.checksum(of: bytes.span, start..<(start + length)) == stored else {
                        throw .chunkCRC(segment: segment.number, offset: offset)
                    }
                    segment.checkedChunkCount += 1
                    segment.chunkCount += 1
                } else if tag == LogTransferFormat.chunkTag {
                    guard Self.endsWithItsCRC(bytes.span, start..<(start + length)) else {
                        throw .chunkCRC(segment: segment.number, offset: offset)
                    }
                    segment.checkedChunkCount += 1
                    segment.chunkCount += 1
                } else {
                    segment.damagedByteCount += length
                }
                segment.bytes.append(contentsOf: bytes[start..<(start + length)])
                segments[segments.count - 1] = segment
            default:
                throw .malformed(position: reader.position - 1)
            }
        }
        var summary = LogTransferSummary()
        summary.fixCount = Int(truncatingIfNeeded: try reader.varint())
        summary.recordCount = Int(truncatingIfNeeded: try reader.varint())
        let hasTimes = try reader.byte()
        if hasTimes == 1 {
            summary.firstTime = UTCTime(millisecondsSinceEpoch: Varint.unzigzag(try reader.varint()))
            summary.lastTime = UTCTime(millisecondsSinceEpoch: Varint.unzigzag(try reader.varint()))
        } else if hasTimes != 0 {
            throw .malformed(position: reader.position - 1)
        }
        let segment = try reader.varint()
        let offset = try reader.varint()
        let sequence = try reader.varint()
        let crc = try reader.uint32()
        guard offset <= UInt64(Int32.max), sequence <= UInt64(UInt32.max) + 1 else { throw .malformed(position: reader.position) }
        let checked = reader.position
        let found = try reader.uint32()
        let computed = CRC32C.checksum(of: bytes.span, 0..<checked)
        guard computed == found else { throw .checksum(computed: computed, found: found) }
        guard reader.position == bytes.count else { throw .trailingBytes(extra: bytes.count - reader.position) }
        self.segments = segments
        self.summary = summary
        cursor = LogCursor(segment: segment, offset: Int(offset), sequence: sequence == 0 ? nil : UInt32(sequence - 1), crc: crc)
        byteCount = bytes.count
    }

    /// True when the last 4 bytes of `bytes[range]` are the CRC-32C of the others (little-endian).
    static func endsWithItsCRC(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count > LogChunkFormat.crcByteCount else { return false }
        let body = range.lowerBound..<(range.upperBound - LogChunkFormat.crcByteCount)
        var stored: UInt32 = 0
        for index in 0..<4 { stored |= UInt32(bytes[body.upperBound + index]) << (8 * UInt32(index)) }
        return CRC32C.checksum(of: bytes, body) == stored
    }

    /// Reads the framing; running out of bytes is a cut transfer.
    struct Reader {
        let bytes: [UInt8]
        var position: Int

        mutating func byte() throws(LogTransferError) -> UInt8 {
            guard position < bytes.count else { throw .cut(byteCount: bytes.count) }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func varint() throws(LogTransferError) -> UInt64 {
            let start = position
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = try self.byte()
                guard shift < 64, shift < 63 || byte <= 1 else { throw .malformed(position: start) }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }

        mutating func length() throws(LogTransferError) -> Int {
            let start = position
            let value = try varint()
            guard value <= UInt64(LogTransferFormat.maximumPieceByteCount) else { throw .malformed(position: start) }
            return Int(value)
        }

        mutating func skip(_ count: Int) throws(LogTransferError) {
            guard bytes.count - position >= count else { throw .cut(byteCount: bytes.count) }
            position += count
        }

        mutating func uint32() throws(LogTransferError) -> UInt32 {
            var value: UInt32 = 0
            for index in 0..<4 { value |= UInt32(try byte()) << (8 * UInt32(index)) }
            return value
        }
    }
}
