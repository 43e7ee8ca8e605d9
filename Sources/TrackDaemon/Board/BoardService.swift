import TrackCore
import TrackIO

/// The board: the LEDs, the button and the in-use input (`BoardDriver`) with what they did
/// (`GPIOStatus`). Each wake-up it reads the inputs whose descriptors polled ready, hands the
/// daemon the presses, then shows the LEDs and sets its timer to the next edge, so the loop
/// wakes at edges only. Allocates nothing.
struct BoardService<GPIO: GPIOBackend> {
    var driver: BoardDriver<GPIO>
    var gpio = GPIOStatus()

    init(backend: GPIO, settings: BoardSettings) {
        driver = BoardDriver(board: BoardGPIO(backend: backend), settings: settings)
    }

    /// Opens `map` (start-up): a missing chip or a busy line is one error, and trackd goes on
    /// without LEDs and button.
    mutating func open(_ map: BoardMap, simulated: Bool) {
        driver.open(map, simulated: simulated, status: &gpio)
    }

    /// What the GPIO is doing: the LEDs, the inputs, the presses, the last refusal.
    var status: GPIOStatus { gpio }

    /// The in-use input's debounced state (false without one).
    var inUse: Bool { gpio.inUse }

    /// True when a working board has the in-use input: it, not a trip, decides "in use".
    var hasInUseInput: Bool { gpio.isActive && gpio.hasInUseInput }

    /// True when LEDs are driven.
    var isActive: Bool { gpio.isActive }

    /// A reload: LED patterns and button timing at once.
    mutating func apply(_ plan: ReloadPlan) { driver.apply(BoardSettings(plan.config)) }

    /// A waypoint was saved at `now`: led-status acknowledges it.
    mutating func waypointSaved(now: MonotonicTime) { gpio.waypointSavedAt = now }

    /// What became of a long press: private mode toggled at `now` (one 1 s flash), or refused
    /// (status says why).
    mutating func privacyToggled(_ refusal: PermissionError?, now: MonotonicTime) {
        gpio.lastRefusal = refusal
        if refusal == nil { gpio.privacyToggledAt = now }
    }

    /// The input descriptors to watch.
    func arm(_ loop: inout EventLoop, button: Int, inUse: Int) {
        loop.watch(button, driver.board.buttonDescriptor)
        loop.watch(inUse, driver.board.inUseDescriptor)
    }

    /// Reads the inputs' queued edges (those that polled ready) and settles the in-use input.
    mutating func readInputs(_ loop: borrowing EventLoop, button: Int, inUse: Int, now: MonotonicTime) {
        guard gpio.isActive else { return }
        driver.readEdges(buttonReady: loop.isReady(button), inUseReady: loop.isReady(inUse), now: now, status: &gpio)
    }

    /// The next press due by `now`, counted; the daemon acts on each until nil.
    mutating func nextPress(now: MonotonicTime) -> ButtonEvent? {
        guard gpio.isActive, let press = driver.nextPress(now: now) else { return nil }
        switch press {
        case .shortPress: gpio.shortPresses += 1
        case .longPress: gpio.longPresses += 1
        }
        return press
    }

    /// `trackctl button short|long` on the simulated board: the line goes low now and the
    /// release timer is set (a press while the finger is still down is ignored). False when the
    /// board cannot be pressed from software.
    mutating func pressSimulated(_ press: GPIOStatus.SimulatedPress, now: MonotonicTime, _ loop: inout EventLoop,
                                 releaseTimer: Int) -> Bool {
        guard gpio.board == .simulated, gpio.isActive, gpio.hasButton else { return false }
        guard !loop.isScheduled(releaseTimer) else { return true }
        guard let release = driver.pressSimulated(press, now: now) else { return false }
        loop.schedule(releaseTimer, at: release)
        return true
    }

    /// The simulated finger lets go when its timer is due.
    mutating func serviceReleaseTimer(_ loop: borrowing EventLoop, releaseTimer: Int, now: MonotonicTime) {
        if loop.isDue(releaseTimer) { driver.releaseSimulated(now: now) }
    }

    /// Shows `inputs` on the LEDs and sets the LED timer to the next edge.
    mutating func show(_ inputs: LEDInputs, changeAt: MonotonicTime?, now: MonotonicTime, _ loop: inout EventLoop,
                       timer: Int) {
        guard gpio.isActive else { return }
        if let next = driver.showLEDs(inputs, changeAt: changeAt, now: now, status: &gpio) {
            loop.schedule(timer, at: next)
        } else {
            loop.cancel(timer)
        }
    }

    /// Dark LEDs and released lines (SIGTERM): a stopped trackd must not look like one with a fix.
    mutating func shutDown() {
        try? driver.board.show(LEDLevels())
        driver.board.release()
    }
}
