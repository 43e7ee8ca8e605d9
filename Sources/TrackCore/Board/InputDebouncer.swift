/// Debounces one input line: a new level counts once the raw level has stayed there for the
/// debounce time, so contact bounce (a few ms of chatter on press and release) is one change.
///
/// Example, 30 ms: raw edges to active at 0, inactive at 2 ms, active at 5 ms, then quiet →
/// `settle(now: 35 ms)` reports active from 5 ms. No allocation; time comes from the caller.
public struct InputDebouncer: Equatable, Sendable {
    /// How long the raw level must hold before it counts, in nanoseconds (30 ms default).
    public var debounceNanoseconds: Int64
    /// The debounced level: true = active (a button pressed, an ignition on).
    public private(set) var isActive: Bool
    private var raw: Bool
    private var rawSince: Int64

    /// A debouncer of `debounceMilliseconds` (≥ 0) starting at `initial`.
    public init(debounceMilliseconds: Int64 = 30, initial: Bool = false) {
        debounceNanoseconds = max(0, debounceMilliseconds) * 1_000_000
        isActive = initial
        raw = initial
        rawSince = 0
    }

    /// A raw edge: the line became `active` at `time`.
    public mutating func edge(active: Bool, at time: MonotonicTime) {
        guard active != raw else { return }
        raw = active
        rawSince = time.nanoseconds
    }

    /// The debounced change due by `now`, if any: the new level and when the raw level reached it.
    public mutating func settle(now: MonotonicTime) -> (isActive: Bool, since: MonotonicTime)? {
        guard raw != isActive, now.nanoseconds - rawSince >= debounceNanoseconds else { return nil }
        isActive = raw
        return (raw, MonotonicTime(nanoseconds: rawSince))
    }

    /// When `settle` may next report a change; nil when the raw level already counts.
    public var deadline: MonotonicTime? {
        raw == isActive ? nil : MonotonicTime(nanoseconds: rawSince + debounceNanoseconds)
    }
}
