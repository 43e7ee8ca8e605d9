/// What the receiver did in the last few seconds, in one-second buckets on the loop's clock, so
/// status and `doctor` judge the link on recent data rather than totals since start, e.g. 0
/// sentences in the last 5 s after an hour of good ones.
///
/// A ring of 16 buckets: each holds the second (since the clock's origin) it counts and the
/// bytes, accepted and rejected sentences of that second; a bucket whose second has passed out
/// of the window is ignored, so silence empties the window by itself. Fixed size, no allocation.
public struct RecentActivity: Sendable {
    /// The longest window asked about: 15 s (one bucket of the ring is the current second).
    public static let maximumWindowMilliseconds: Int64 = 15_000

    var seconds: InlineArray<16, Int64> = InlineArray(repeating: -1)
    var bytes: InlineArray<16, Int> = InlineArray(repeating: 0)
    var accepted: InlineArray<16, Int> = InlineArray(repeating: 0)
    var rejected: InlineArray<16, Int> = InlineArray(repeating: 0)

    /// Nothing yet.
    public init() {}

    /// Counts `bytes` read and sentences `accepted` / `rejected` by the receiver core at `now`.
    public mutating func record(bytes count: Int, accepted newlyAccepted: Int, rejected newlyRejected: Int,
                                now: MonotonicTime) {
        let second = now.nanoseconds / 1_000_000_000
        let slot = Int(second & 15)
        if seconds[slot] != second {
            seconds[slot] = second
            bytes[slot] = 0
            accepted[slot] = 0
            rejected[slot] = 0
        }
        bytes[slot] += count
        accepted[slot] += newlyAccepted
        rejected[slot] += newlyRejected
    }

    /// Totals over the last `milliseconds` (whole seconds, the current one included, at most
    /// `maximumWindowMilliseconds`) before `now`, e.g. 5 000 → this second and the four before.
    public func totals(overLast milliseconds: Int64, now: MonotonicTime)
        -> (bytes: Int, accepted: Int, rejected: Int) {
        let second = now.nanoseconds / 1_000_000_000
        let span = max(1, min(milliseconds, Self.maximumWindowMilliseconds) / 1000)
        var totals = (bytes: 0, accepted: 0, rejected: 0)
        for slot in 0..<16 where seconds[slot] > second - span && seconds[slot] <= second {
            totals.bytes += bytes[slot]
            totals.accepted += accepted[slot]
            totals.rejected += rejected[slot]
        }
        return totals
    }

    /// Accepted sentences per second over the last `milliseconds`, in tenths, e.g. 35 for 3.5/s.
    public func sentencesPerSecondTenths(overLast milliseconds: Int64, now: MonotonicTime) -> Int {
        let span = max(1, min(milliseconds, Self.maximumWindowMilliseconds) / 1000)
        return totals(overLast: milliseconds, now: now).accepted * 10 / Int(span)
    }
}
