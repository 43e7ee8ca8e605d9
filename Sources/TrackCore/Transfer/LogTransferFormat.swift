/// The framing `trackctl log send` writes and `trackctl pull` reads (docs/log-format.md,
/// "Transfers"): the log's own chunks, byte for byte, with the segment each belongs to, its
/// offset there and a CRC-32C over the whole transfer.
///
///     "TLSEND1\n"                                   magic, 8 bytes
///     'S' varint segment, varint offset             a segment's bytes from offset on
///         'C' varint length, bytes                  a chunk that passed its checks (its last
///                                                   4 bytes are the CRC-32C of the others)
///         'D' varint length, bytes                  a damaged stretch, as the tracker holds it
///     'E' varint fixes, varint records,             what the chunks hold
///         times (0, or 1 + svarint first + svarint last, ms since 1970)
///         cursor: varint segment, varint offset, varint sequence + 1 (0: none), 4 bytes CRC
///     4 bytes CRC-32C (little-endian) of every byte before it
///
/// A transfer with nothing new is the magic, 'E' and the checksum: 23 bytes or so.
public enum LogTransferFormat {
    /// The first 8 bytes of every transfer: "TLSEND1\n".
    public static var magic: [UInt8] { Array("TLSEND1\n".utf8) }
    /// Starts a segment.
    public static var segmentTag: UInt8 { UInt8(ascii: "S") }
    /// A chunk that passed its checks and ends with its own CRC-32C (keyframe and parity chunks,
    /// data chunks before format version 5).
    public static var chunkTag: UInt8 { UInt8(ascii: "C") }
    /// A chunk that passed its checks and whose check cannot be found without its context (a
    /// version-5 data chunk): its bytes, then their CRC-32C in the framing, so the receiver
    /// still names the chunk a changed byte is in.
    public static var checkedChunkTag: UInt8 { UInt8(ascii: "V") }
    /// A damaged stretch sent as is.
    public static var damagedTag: UInt8 { UInt8(ascii: "D") }
    /// The summary and cursor, then the checksum.
    public static var endTag: UInt8 { UInt8(ascii: "E") }
    /// The longest chunk or stretch a transfer carries: a segment's size limit is far below.
    public static var maximumPieceByteCount: Int { 64 << 20 }
}

/// What the chunks of a transfer hold, as the tracker counted them: e.g. 3,600 fixes and 3,604
/// records from 12:00:00Z to 13:00:00Z.
public struct LogTransferSummary: Equatable, Sendable {
    /// Fix records in the chunks sent.
    public var fixCount: Int
    /// All records in the chunks sent (fixes, waypoints, events, markers, gaps).
    public var recordCount: Int
    /// The earliest record time, nil with no records.
    public var firstTime: UTCTime?
    /// The latest record time, nil with no records.
    public var lastTime: UTCTime?

    /// A summary of `fixCount` fixes among `recordCount` records between the two times.
    public init(fixCount: Int = 0, recordCount: Int = 0, firstTime: UTCTime? = nil, lastTime: UTCTime? = nil) {
        self.fixCount = fixCount
        self.recordCount = recordCount
        self.firstTime = firstTime
        self.lastTime = lastTime
    }

    /// Adds the counts and time span of `other`.
    public mutating func add(_ other: LogTransferSummary) {
        fixCount += other.fixCount
        recordCount += other.recordCount
        if let time = other.firstTime, firstTime.map({ time < $0 }) ?? true { firstTime = time }
        if let time = other.lastTime, lastTime.map({ time > $0 }) ?? true { lastTime = time }
    }

    /// Counts `record` (a fix counts in both counts).
    public mutating func count(_ record: LogRecord) {
        recordCount += 1
        if case .fix = record { fixCount += 1 }
        let time = record.time
        if firstTime.map({ time < $0 }) ?? true { firstTime = time }
        if lastTime.map({ time > $0 }) ?? true { lastTime = time }
    }
}
