import TrackCore

/// What a reader found in one segment file, e.g. "0000000003.tlog": 1,210 records from
/// 12:00:00Z to 13:00:00Z in 48,211 bytes, no problems.
public struct LogSegmentInfo: Equatable, Sendable {
    /// File name, e.g. "0000000003.tlog".
    public var name: String
    /// Segment number from the name, e.g. 3.
    public var number: UInt64
    /// File size in bytes.
    public var byteCount: Int = 0
    /// Chunks that passed their checks.
    public var chunkCount: Int = 0
    /// Records decoded (duplicates and skipped chunks not counted).
    public var recordCount: Int = 0
    /// Earliest record time, nil when it has no records.
    public var firstTime: UTCTime?
    /// Latest record time, nil when it has no records.
    public var lastTime: UTCTime?
    /// Sequence number of its first chunk, nil when none passed.
    public var firstSequence: UInt32?
    /// Sequence number of its last chunk read, nil when none passed.
    public var lastSequence: UInt32?
    /// Problems found in it (details in the reader's `problems`).
    public var problemCount: Int = 0
    /// True when its only problem is a torn tail at the end.
    public var hasTornTail = false

    /// An empty summary of segment `number`.
    /// Records whose time is the system clock's, not the receiver's: boot markers and what
    /// came after one before the next fix, e.g. 2 (the boot marker and a permission change).
    public var systemClockRecords: Int = 0
    /// Whether the records being counted are on the system clock (after a boot marker, before
    /// a fix). A segment that starts without a boot marker continues a boot that had a fix.
    var onSystemClock = false

    public init(name: String, number: UInt64) {
        self.name = name
        self.number = number
    }

    /// "ok", "torn tail" or "damaged".
    public var status: String {
        if problemCount == 0 { return "ok" }
        return hasTornTail && problemCount == 1 ? "torn tail" : "damaged"
    }

    /// Counts `record`, in the segment's order. A boot marker and the records after it up to
    /// the next fix carry the system clock's time (docs/log-format.md, "Whose clock"): they are
    /// counted in `systemClockRecords` and left out of `firstTime` and `lastTime`, which are
    /// the receiver's times only.
    mutating func count(_ record: LogRecord) {
        recordCount += 1
        switch record {
        case .bootMarker: onSystemClock = true
        case .fix: onSystemClock = false
        default: break
        }
        if onSystemClock {
            systemClockRecords += 1
            return
        }
        let time = record.time
        if firstTime.map({ time < $0 }) ?? true { firstTime = time }
        if lastTime.map({ time > $0 }) ?? true { lastTime = time }
    }
}
