/// What a press of the button means: a short press marks a waypoint, a long one toggles
/// private mode, e.g. `.longPress(at: 3 s)` for a press from 0 held past 3 s.
public enum ButtonEvent: Equatable, Sendable {
    /// Pressed and released before the long-press time; `at` is the (debounced) release.
    case shortPress(at: MonotonicTime)
    /// Held for the long-press time; `at` is the moment it was reached, while still held.
    case longPress(at: MonotonicTime)
}

/// The button's logic: debounced edges in, short and long presses out.
///
/// A long press fires as soon as the button has been held for `longPressNanoseconds` (3 s),
/// so the LED answers while the finger is still on it; the release after it is nothing.
/// Example with the defaults: pressed at 0, released at 200 ms → `.shortPress(at: 200 ms)`
/// once the release has held 30 ms. Settings may change while the button is held (a config
/// reload) without losing the press. No allocation.
public struct Button: Equatable, Sendable {
    /// The debounced input (active = pressed).
    public private(set) var input: InputDebouncer
    /// How long a press must be held to be a long press, in nanoseconds (3 s).
    public var longPressNanoseconds: Int64
    private var pressedAt: MonotonicTime?
    private var longFired = false

    /// A released button with these timings, e.g. `Button(debounceMilliseconds: 30, longPressMilliseconds: 3000)`.
    public init(debounceMilliseconds: Int64 = 30, longPressMilliseconds: Int64 = 3_000) {
        input = InputDebouncer(debounceMilliseconds: debounceMilliseconds)
        longPressNanoseconds = max(1, longPressMilliseconds) * 1_000_000
    }

    /// New timings, keeping a press in progress (SIGHUP).
    public mutating func configure(debounceMilliseconds: Int64, longPressMilliseconds: Int64) {
        input.debounceNanoseconds = max(0, debounceMilliseconds) * 1_000_000
        longPressNanoseconds = max(1, longPressMilliseconds) * 1_000_000
    }

    /// True while the (debounced) button is down.
    public var isPressed: Bool { input.isActive }

    /// A raw edge of the line: `pressed` (low on a button to ground) at `time`.
    public mutating func edge(pressed: Bool, at time: MonotonicTime) {
        input.edge(active: pressed, at: time)
    }

    /// The next press event due by `now`; call until nil.
    public mutating func poll(now: MonotonicTime) -> ButtonEvent? {
        if let change = input.settle(now: now) {
            if change.isActive {
                pressedAt = change.since
                longFired = false
            } else {
                defer { pressedAt = nil }
                if pressedAt != nil && !longFired { return .shortPress(at: change.since) }
            }
        }
        if let longAt = longPressDeadline, longAt <= now {
            longFired = true
            return .longPress(at: longAt)
        }
        return nil
    }

    /// When `poll` may next have something: the debounce settling or the long-press time.
    public var nextDeadline: MonotonicTime? {
        let settle = input.deadline
        guard let longAt = longPressDeadline else { return settle }
        guard let settle else { return longAt }
        return min(settle, longAt)
    }

    private var longPressDeadline: MonotonicTime? {
        guard input.isActive, !longFired, let pressedAt else { return nil }
        return pressedAt.adding(nanoseconds: longPressNanoseconds)
    }
}
