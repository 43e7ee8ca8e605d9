import CLinux
import TrackCore

/// The system's monotonic clock (CLOCK_MONOTONIC), read once per wake-up by a loop and passed
/// down as `now`; nothing below the loop asks the clock itself.
public enum MonotonicClock {
    /// The current reading, e.g. `MonotonicTime(nanoseconds: 5_123_000_000)` 5.123 s after boot.
    public static func now() -> MonotonicTime {
        var spec = timespec()
        // CLOCK_MONOTONIC cannot fail with a valid pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicTime(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }
}
