import TrackCore

/// What the log writer has done, for `trackctl status`, the doctor and the LEDs, e.g. 3
/// segments, 48,211 bytes, 1,210 records durable, last sync at 12.0 s, no storage error.
public struct LogWriterStatus: Equatable, Sendable {
    /// Segments in the directory.
    public var segmentCount = 0
    /// Bytes of all segments.
    public var byteCount = 0
    /// The segment being appended to, nil between segments.
    public var currentSegment: UInt64?
    /// Records made durable since the writer started.
    public var durableRecordCount = 0
    /// Records appended and not yet synced.
    public var pendingRecordCount = 0
    /// Records given up after a write or sync failed twice (or that did not fit).
    public var droppedRecordCount = 0
    /// Chunks written and synced since start.
    public var syncCount = 0
    /// When the last sync succeeded (loop clock), nil before the first.
    public var lastSync: MonotonicTime?
    /// Time of the newest fix record made durable since start, nil before the first, e.g.
    /// 2026-05-30T12:00:41.000Z after a sync that wrote the fixes up to that second.
    public var lastDurableFixTime: UTCTime?
    /// True while the track log is in trouble: the storage-error LED. Raised for good (until
    /// trackd restarts) by a failed write or sync that is not a full or read-only file system
    /// (a card that failed once is suspect), and for as long as `blocked` is set.
    public var storageError = false
    /// Set while nothing can be written because the file system is full or read-only: synced
    /// segments are kept (nothing is deleted for it), new records are counted in
    /// `droppedFixCount`, and every sync tries again, so logging resumes by itself.
    public var blocked: LogBlockedReason?
    /// When `blocked` was set (loop clock).
    public var blockedSince: MonotonicTime?
    /// True after a write or sync failed for another reason than `blocked`'s.
    public var flashSuspect = false
    /// Failed writes or syncs since start.
    public var storageErrorCount = 0
    /// The last failure (for the doctor).
    public var lastError: LogStoreError?
    /// Fix records given up (a subset of `droppedRecordCount`), e.g. while the disk was full.
    public var droppedFixCount = 0
    /// Bytes of torn tail cut from the last segment when the writer opened.
    public var cutByteCount = 0
    /// Segments deleted for the quota since start, and the last one deleted.
    public var deletedSegmentCount = 0
    public var lastDeletedSegment: UInt64?

    /// No activity yet.
    public init() {}
}

/// Why the track log cannot be written for now, e.g. `.noSpace` when another program filled
/// the partition below trackd's quota.
public enum LogBlockedReason: UInt8, Equatable, Sendable {
    /// ENOSPC or EDQUOT: the file system (or the user's disk quota) is full.
    case noSpace
    /// EROFS: the file system is read-only (ext4 remounts itself so after an I/O error).
    case readOnly

    /// The blocking reason of `errno`, nil for an error that is not one of these.
    public init?(_ errno: Errno) {
        if errno == .noSpace || errno == .quotaExceeded {
            self = .noSpace
        } else if errno == .readOnlyFileSystem {
            self = .readOnly
        } else {
            return nil
        }
    }
}
