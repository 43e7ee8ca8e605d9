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

    /// The same settings, the directory compared byte for byte.
    public static func == (left: LogWriterSettings, right: LogWriterSettings) -> Bool {
        left.directory.bytesEqual(right.directory) && left.segmentByteLimit == right.segmentByteLimit
            && left.segmentAgeLimitMilliseconds == right.segmentAgeLimitMilliseconds
            && left.quotaBytes == right.quotaBytes && left.syncIntervalMilliseconds == right.syncIntervalMilliseconds
            && left.keyframeIntervalMilliseconds == right.keyframeIntervalMilliseconds
            && left.recordCapacity == right.recordCapacity
    }

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
