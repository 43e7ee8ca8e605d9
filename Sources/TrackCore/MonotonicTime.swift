/// A reading of the monotonic clock in nanoseconds (CLOCK_MONOTONIC: since boot, never jumps),
/// e.g. `MonotonicTime(nanoseconds: 1_500_000_000)` is 1.5 s after boot.
///
/// The loop reads the clock once per wake-up and passes this value down; nothing else asks
/// the clock, so tests inject any time they like.
public struct MonotonicTime: Comparable, Hashable, Sendable {
    /// Nanoseconds since an arbitrary fixed origin.
    public var nanoseconds: Int64

    /// A time from nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A time from milliseconds, e.g. `.milliseconds(500)`.
    public static func milliseconds(_ value: Int64) -> MonotonicTime {
        MonotonicTime(nanoseconds: value * 1_000_000)
    }

    /// A time from seconds.
    public static func seconds(_ value: Int64) -> MonotonicTime {
        MonotonicTime(nanoseconds: value * 1_000_000_000)
    }

    /// This time moved by `nanoseconds`.
    public func adding(nanoseconds delta: Int64) -> MonotonicTime {
        MonotonicTime(nanoseconds: nanoseconds &+ delta)
    }

    /// This time moved by `milliseconds`.
    public func adding(milliseconds delta: Int64) -> MonotonicTime {
        adding(nanoseconds: delta * 1_000_000)
    }

    /// Milliseconds from `earlier` to this time (negative when `earlier` is later).
    public func milliseconds(since earlier: MonotonicTime) -> Int64 {
        (nanoseconds - earlier.nanoseconds) / 1_000_000
    }

    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
