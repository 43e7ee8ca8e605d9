import TrackCore

/// How far the track log is durable: segment `segment` holds `byteCount` bytes that were
/// written and fdatasync'ed (every older segment is closed and durable to its end), e.g. 1,234
/// bytes of segment 3. A reader that stops here never reads a chunk a power cut can take away.
public struct LogDurableEnd: Equatable, Sendable {
    /// The newest segment's number.
    public var segment: UInt64
    /// Its bytes that are durable.
    public var byteCount: Int

    /// A durable end.
    public init(segment: UInt64, byteCount: Int) {
        self.segment = segment
        self.byteCount = byteCount
    }
}

extension LogWriter {
    /// Where the log is durable now: the newest segment and its bytes synced so far (a chunk
    /// counts once its fdatasync returned; one whose write or sync failed never does); nil
    /// before the first segment exists.
    public var durableEnd: LogDurableEnd? {
        guard let last = segments.last else { return nil }
        return LogDurableEnd(segment: last.number, byteCount: last.byteCount)
    }
}
