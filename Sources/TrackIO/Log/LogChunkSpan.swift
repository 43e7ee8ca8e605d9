import TrackCore

/// Where one chunk that passed its checks lies in its segment, e.g. a data chunk from byte 1,234
/// to 1,254 with sequence 77 and 5 fixes; what `trackctl log send` frames and sends.
public struct LogChunkSpan: Equatable, Sendable {
    /// The chunk's first byte in the segment file.
    public var offset: Int
    /// The byte after its last (its CRC's last byte + 1).
    public var end: Int
    /// Its sequence number (data chunks: their keyframe's plus their position); nil for a parity
    /// chunk, which has none.
    public var sequence: UInt32?
    /// The records it gave the reader (none for a parity chunk or a duplicate).
    public var records: LogTransferSummary

    /// A span from `offset` to `end`.
    public init(offset: Int, end: Int, sequence: UInt32?, records: LogTransferSummary = LogTransferSummary()) {
        self.offset = offset
        self.end = end
        self.sequence = sequence
        self.records = records
    }
}

/// One segment read to its end with the span of every chunk that passed its checks: the
/// segment's bytes (with what the parity repaired put right), its summary and its chunks in
/// file order. The bytes between two spans are damage the reader skipped (`info`, and the
/// reader's `problems`, say what); bytes after the last span are a torn tail or damage at the
/// end (an open segment's tail may be a chunk still being written).
public struct LogSegmentScan: Equatable, Sendable {
    /// What the reader found in the segment.
    public var info: LogSegmentInfo
    /// The segment's bytes as read, repaired where the parity could.
    public var bytes: [UInt8]
    /// The chunks that passed their checks, in file order.
    public var chunks: [LogChunkSpan]
}
