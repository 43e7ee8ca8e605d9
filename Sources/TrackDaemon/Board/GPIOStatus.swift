import TrackCore

/// What the board's GPIO is doing, for the LEDs, `trackctl status`, `leds` and `doctor`.
/// Fixed-size: updating it never allocates.
struct GPIOStatus {
    /// Which board drives the LEDs.
    enum Board: Equatable {
        /// No pin map configured: no LEDs, no button.
        case none
        /// GPIO lines through libgpiod.
        case hardware
        /// The demo's simulated board (`[board] simulated = yes`).
        case simulated
    }

    /// A button press asked for over the control socket (simulated board only): `trackctl button`.
    enum SimulatedPress: Equatable {
        case short
        case long
    }

    var board = Board.none
    /// The chip as configured (label or path), empty without a board.
    var chip = ""
    /// The one error that switched GPIO off (trackd logs on without LEDs and button).
    var problem: String?
    /// The levels on the LED lines now.
    var leds = LEDLevels()
    /// An input got no pull-up (kernel before 5.5): the button needs an external resistor.
    var pullUpMissing = false
    /// Whether the board has the in-use input, and its debounced state.
    var hasInUseInput = false
    var inUse = false
    /// Whether the board has a button, and presses so far.
    var hasButton = false
    var shortPresses = 0
    var longPresses = 0
    /// Why the last long press changed nothing (e.g. restricted), nil when it worked.
    var lastRefusal: PermissionError?
    /// When a waypoint was saved and when private mode was toggled: led-status acknowledges.
    var waypointSavedAt: MonotonicTime?
    var privacyToggledAt: MonotonicTime?

    /// True when LEDs are driven (a board opened without error).
    var isActive: Bool { board != .none && problem == nil }
}
