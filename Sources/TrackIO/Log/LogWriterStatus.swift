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
    /// True from the first failed write or sync on: the storage-error LED. It stays raised
    /// even when the records were then written to a new segment (a card that failed once is
    /// suspect) until trackd restarts.
    public var storageError = false
    /// Failed writes or syncs since start.
    public var storageErrorCount = 0
    /// The last failure (for the doctor).
    public var lastError: LogStoreError?
    /// Bytes of torn tail cut from the last segment when the writer opened.
    public var cutByteCount = 0
    /// Segments deleted for the quota since start.
    public var deletedSegmentCount = 0

    /// No activity yet.
    public init() {}
}
