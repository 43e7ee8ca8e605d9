import TrackCore

/// How the track log is written, from the `[log]` section of the configuration, e.g. the
/// defaults: 1 MiB segments, a new one at least every 24 h, 64 MiB quota, sync every 5 s,
/// a keyframe every 300 s.
public struct LogWriterSettings: Equatable, Sendable {
    /// The log directory, e.g. "/var/lib/trackd/log".
    public var directory: String
    /// A segment is closed once it holds this many bytes (its last chunk may pass it), e.g. 1,048,576.
    public var segmentByteLimit: Int
    /// A segment is closed once it has been open this long, in ms, e.g. 86,400,000 (24 h).
    public var segmentAgeLimitMilliseconds: Int64
    /// Segments together stay under this many bytes: the oldest are deleted before a new one
    /// starts, e.g. 67,108,864 (64 MiB). The newest closed segment is never deleted.
    public var quotaBytes: Int
    /// Records are written and fdatasync'ed at least this often, in ms, e.g. 5,000.
    public var syncIntervalMilliseconds: Int64
    /// A keyframe chunk at least this often in record time, in ms, e.g. 300,000.
    public var keyframeIntervalMilliseconds: Int64
    /// Records held between two syncs; a full hold is synced at once, e.g. 256.
    public var recordCapacity: Int

    /// Settings for `directory` with the defaults above.
    public init(directory: String, segmentByteLimit: Int = 1 << 20,
                segmentAgeLimitMilliseconds: Int64 = 86_400_000, quotaBytes: Int = 64 << 20,
                syncIntervalMilliseconds: Int64 = 5_000, keyframeIntervalMilliseconds: Int64 = 300_000,
                recordCapacity: Int = 256) {
        self.directory = directory
        self.segmentByteLimit = max(segmentByteLimit, 256)
        self.segmentAgeLimitMilliseconds = max(segmentAgeLimitMilliseconds, 1_000)
        self.quotaBytes = max(quotaBytes, 0)
        self.syncIntervalMilliseconds = max(syncIntervalMilliseconds, 1)
        self.keyframeIntervalMilliseconds = max(keyframeIntervalMilliseconds, 1_000)
        self.recordCapacity = max(recordCapacity, 1)
    }
}

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
