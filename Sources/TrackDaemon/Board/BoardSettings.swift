import TrackCore

/// The settings of the LEDs and the button that a SIGHUP reload may change while lines stay
/// open and a press in progress goes on: the pattern table, debounce, long-press time and the
/// in-use input's active level. Fixed size.
struct BoardSettings {
    /// The LED patterns (the defaults of docs/wiring.md with `[leds]` overrides).
    var ledTable = LEDTable()
    /// `[board] debounce`, in milliseconds (30).
    var debounceMilliseconds: Int64 = 30
    /// `[board] long-press`, in milliseconds (3 000).
    var longPressMilliseconds: Int64 = 3_000
    /// `[board] in-use-active = high`: the in-use input is active high.
    var inUseActiveHigh = false

    /// The defaults.
    init() {}

    /// The settings `config` asks for.
    init(_ config: TrackdConfig) {
        ledTable = config.leds
        debounceMilliseconds = config.board.debounceMilliseconds
        longPressMilliseconds = config.board.longPressMilliseconds
        inUseActiveHigh = config.board.inUseActiveHigh
    }
}
