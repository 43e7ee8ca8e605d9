import CLinux
import TrackCore

/// The system clocks, read only by the loop (once per wake-up) and by tools.
public enum SystemClock {
    /// CLOCK_MONOTONIC now.
    public static func monotonic() -> MonotonicTime {
        MonotonicTime(nanoseconds: clinux_monotonic_ns())
    }

    /// CLOCK_REALTIME now in nanoseconds since 1970 (the loop reads it with the monotonic clock).
    public static func realtimeNanoseconds() -> Int64 { clinux_realtime_ns() }

    /// CLOCK_REALTIME now as UTC milliseconds (for tools; the daemon takes time from the receiver).
    public static func realtime() -> UTCTime {
        UTCTime(millisecondsSinceEpoch: clinux_realtime_ns() / 1_000_000)
    }
}
