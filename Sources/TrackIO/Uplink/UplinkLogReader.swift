import CLinux
import TrackCore

/// One record the uplink reader returned, with the cursor just after it (what is persisted
/// once the record is acknowledged), e.g. a fix and `3:1234:77:9f3a11c2+2`.
public struct UplinkLogEntry: Equatable, Sendable {
    public var record: LogRecord
    /// The place just after this record.
    public var cursor: UplinkCursor
    /// The segment it came from.
    public var segment: UInt64
}

/// What the uplink reader passed over, since it was made: chunks lost before they were sent
/// (segments the quota deleted, sequence gaps), damage the parity could not mend, damage it
/// mended, and copies of a chunk written again after a failed sync.
public struct UplinkLogCounters: Equatable, Sendable {
    public var missingSegments = 0
    public var missingChunks = 0
    public var damagedStretches = 0
    public var repairedSegmentReads = 0
    public var duplicateChunks = 0

    /// No events.
    public init() {}
}

/// Walks the track log from an `UplinkCursor` record by record, for the uplink: only chunks
/// that passed their checks and, when the writer says so (`LogDurableEnd`), only those synced
/// to flash, so nothing sent can be taken back by a power cut. Memory is fixed whatever the
/// backlog: a 32 KiB window of the segment being read (chunks are at most 16 KiB), filled with
/// pread; only when it meets damage does it read that segment whole (at most the segment size)
/// to repair it from the parity as `LogReader` does, and skip what cannot be mended as
/// `LogReader` does. It returns the same records in the same order as `LogReader` (duplicates
/// of a rewritten chunk once). Example:
///
///     var reader = try UplinkLogReader(directory: "/var/lib/trackd/log", from: saved)
///     while let entry = try reader.next(durableEnd: log.durableEnd) {   // throws(UplinkLogError)
///         send(entry.record); remember(entry.cursor)
///     }
///     // nil: caught up with the durable end (call again after the next sync)
///
/// `until` stops it at a chunk end (a backlog's end, where the live stream took over):
/// `reachedUntil` is then true.
public struct UplinkLogReader: ~Copyable {
    /// The window: twice the longest chunk, so a chunk is always read whole.
    public static var windowByteCount: Int { 32_768 }
    /// Bytes a chunk may need from its first byte: header, payload, check and the decoder's
    /// look-ahead.
    static var chunkSpan: Int { LogChunkFormat.keyframeHeaderByteCount + LogChunkFormat.maximumPayloadByteCount + 64 }

    /// The log directory, e.g. "/var/lib/trackd/log".
    public let directory: String
    /// Where to stop, nil for never.
    public let until: LogCursor?
    /// True once the next chunk would start at or after `until`.
    public internal(set) var reachedUntil = false
    /// What was passed over (see the type).
    public internal(set) var counters = UplinkLogCounters()

    var window: [UInt8]
    var windowStart = 0
    var windowCount = 0
    /// The segment read whole, repaired, once damage was met in it.
    var repaired: UplinkRepairedSegment?
    var file: FileDescriptor?
    /// The segment being read (0 before the first).
    var segment: UInt64 = 0
    /// `directory/NNNNNNNNNN.tlog` and a NUL; the digits are rewritten per segment.
    var path: [CChar]
    var digitsStart: Int
    var reader = LogChunkReader()
    /// The reader's context before the open chunk, and the records that chunk gave so far:
    /// what a retry after a repair starts from and passes over (`replay`).
    var chunkContext = LogChunkReader()
    var chunkRecords = 0
    var replay = 0
    /// The next chunk's first byte, or the open chunk's.
    var offset = 0
    var chunkOpen = false
    var chunkEnd = 0
    var sequence: UInt32?
    var lastSequence: UInt32?
    var suppressing = false
    /// The end of the last good chunk, and the records returned (or passed over) since.
    var before: LogCursor
    var returned = 0
    /// While set, the start cursor's chunk end, not reached yet.
    var seek: LogCursor?
    /// Records after the start cursor's chunk end to pass over.
    var skip: Int
    /// True when the start cursor's segment is gone: `skip` applies only if the next chunk
    /// continues its sequence.
    var seekLost = false

    /// A reader of `directory` from `cursor` (the first record returned is the one after it),
    /// up to `until` if given. Throws when the directory cannot be listed; a cursor that does
    /// not fit the log is found (and thrown) by `next`.
    public init(directory: String, from cursor: UplinkCursor, until: LogCursor? = nil) throws(UplinkLogError) {
        self.directory = directory
        self.until = until
        window = [UInt8](repeating: 0, count: Self.windowByteCount)
        var bytes: [CChar] = []
        for byte in directory.utf8 { bytes.append(CChar(bitPattern: byte)) }
        if bytes.last != CChar(bitPattern: UInt8(ascii: "/")) { bytes.append(CChar(bitPattern: UInt8(ascii: "/"))) }
        digitsStart = bytes.count
        for byte in LogSegmentName.name(0).utf8 { bytes.append(CChar(bitPattern: byte)) }
        bytes.append(0)
        path = bytes
        before = cursor.chunk
        skip = cursor.records
        lastSequence = cursor.chunk.sequence
        if !cursor.chunk.isStart { seek = cursor.chunk }
        let numbers: [UInt64]
        do {
            var files = PosixLogFiles()
            numbers = try LogReader<PosixLogFiles>.segmentNumbers(in: directory, files: &files)
        } catch {
            if case .directoryUnreadable(_, let errno) = error { throw .directoryUnreadable(path: directory, errno) }
            throw .directoryUnreadable(path: directory, Errno.ioError)
        }
        if let first = numbers.first, cursor.chunk.isStart || first > cursor.chunk.segment {
            // From the oldest segment: the start, or the cursor's segment is gone (quota).
            if !cursor.chunk.isStart { loseSeek(missing: 1) }
            // Numbers start at 1 and are never reused: without segment 1, the records after
            // `start` to pass over went with it.
            if cursor.chunk.isStart, first > 1 { skip = 0 }
            segment = first
        } else if !cursor.chunk.isStart {
            segment = numbers.first { $0 >= cursor.chunk.segment } ?? 0
            if segment == 0 { throw .cursorNotInLog(cursor) }
            if segment != cursor.chunk.segment { loseSeek(missing: 1) }
        }
    }

    deinit {
        if let file { try? file.close() }
    }

    /// The place after the last record returned (the start cursor before the first).
    public var position: UplinkCursor { UplinkCursor(chunk: before, records: returned) }

    /// The next record and the cursor after it, or nil when there is none now: the reader is
    /// at the durable end (`durableEnd`, or without one the end of the whole chunks that pass
    /// their checks) or at `until`. Throws `.cursorNotInLog` when the start cursor names no
    /// chunk of this log (it was reset or rewritten), `.segmentUnreadable` when a segment
    /// cannot be read (the reader stays where it was; call again to retry).
    public mutating func next(durableEnd: LogDurableEnd?) throws(UplinkLogError) -> UplinkLogEntry? {
        while true {
            if chunkOpen {
                guard let record = try readRecord() else {
                    if chunkOpen { try finishChunk() }
                    continue
                }
                chunkRecords += 1
                if replay > 0 {
                    replay -= 1
                    continue
                }
                if suppressing || seek != nil { continue }
                returned += 1
                if skip > 0 {
                    skip -= 1
                    continue
                }
                return UplinkLogEntry(record: record, cursor: position, segment: segment)
            }
            guard try ensureFile(durableEnd) else { return nil }
            let limit = try limit(durableEnd)
            if let seek, seek.segment == segment, seek.offset > limit, !isClosed(durableEnd) {
                throw .cursorNotInLog(UplinkCursor(chunk: seek, records: skip))
            }
            if offset >= limit {
                guard isClosed(durableEnd) else { return nil }
                guard try moveToNextSegment() else { return nil }
                continue
            }
            if let until, LogCursor(segment: segment, offset: offset, sequence: nil, crc: 0).isAtOrAfter(until) {
                reachedUntil = true
                return nil
            }
            switch try openChunk(limit: limit) {
            case .opened, .skipped: continue
            case .endOfBytes:
                guard isClosed(durableEnd) else { return nil }
                // A torn tail of a closed segment: what `LogReader` also leaves out.
                offset = limit
            }
        }
    }

    /// Reads to the durable end without returning records and gives the cursor there: where
    /// a live stream starts when what lies before it becomes a backlog.
    public mutating func skipToEnd(durableEnd: LogDurableEnd?) throws(UplinkLogError) -> UplinkCursor {
        while try next(durableEnd: durableEnd) != nil {}
        return position
    }

    /// The start cursor's segment is gone: read on from the next one.
    mutating func loseSeek(missing: Int) {
        counters.missingSegments += missing
        seek = nil
        seekLost = true
    }
}

/// Why the uplink reader stopped, e.g. `.cursorNotInLog` after the log directory was replaced.
public enum UplinkLogError: Error, Equatable, Sendable {
    /// The log directory cannot be listed.
    case directoryUnreadable(path: String, Errno)
    /// A segment cannot be opened or read.
    case segmentUnreadable(path: String, Errno)
    /// No chunk of the log ends where the cursor says with the cursor's CRC, or the cursor lies
    /// past the log's durable end: the log was reset or rewritten since the cursor was saved.
    case cursorNotInLog(UplinkCursor)

    /// A one-line explanation, e.g. "the uplink cursor 3:1234:77:9f3a11c2 names no chunk of
    /// the log (reset or rewritten since)".
    public var description: String {
        switch self {
        case .directoryUnreadable(let path, let errno): path + ": cannot list the log: " + errno.message
        case .segmentUnreadable(let path, let errno): path + ": cannot read: " + errno.message
        case .cursorNotInLog(let cursor):
            "the uplink cursor " + cursor.text + " names no chunk of the log (reset or rewritten since)"
        }
    }
}
