import TrackCore
import TrackIO

/// The daemon's LED and button driver: the board's lines, the pattern table and the debounced
/// inputs. The loop calls it on every wake-up: `readEdges` and `nextPress` for the inputs, then
/// `showLEDs`, which writes only lines that change and returns the one instant the loop must
/// next wake for (an edge, an input going stale, a debounce or long-press deadline).
/// Nothing here allocates.
struct BoardDriver<GPIO: GPIOBackend> {
    var board: BoardGPIO<GPIO>
    private(set) var settings: BoardSettings
    private(set) var button: Button
    private(set) var inUseInput: InputDebouncer

    /// How far a kernel edge timestamp may be from the loop's clock before `now` is used
    /// instead: kernels before 5.7 stamp edges with CLOCK_REALTIME.
    static var edgeClockToleranceNanoseconds: Int64 { 1_000_000_000 }

    /// A driver for `board` (opened or not) with `settings`.
    init(board: BoardGPIO<GPIO>, settings: BoardSettings) {
        self.board = board
        self.settings = settings
        button = Button(debounceMilliseconds: settings.debounceMilliseconds,
                        longPressMilliseconds: settings.longPressMilliseconds)
        inUseInput = InputDebouncer(debounceMilliseconds: settings.debounceMilliseconds)
    }

    /// Opens `map` on the board and fills `status`: the board kind, and on failure the one
    /// error (printed once; trackd goes on without LEDs and button). Start-up only.
    mutating func open(_ map: BoardMap, simulated: Bool, status: inout GPIOStatus) {
        guard !map.isEmpty else { return }
        status.board = simulated ? .simulated : .hardware
        status.chip = map.chip ?? ""
        do {
            try board.open(map)
        } catch {
            status.problem = error.description
            try? FileDescriptor.standardError.writeAll(String(joining: "trackd: GPIO: ", error.description, "; running without LEDs and button\n"))
            return
        }
        status.hasButton = board.button != nil
        status.hasInUseInput = board.inUse != nil
        status.pullUpMissing = !board.pullUpApplied
        // The in-use input may already be active (ignition on): no edge will say so.
        if let line = board.inUse, let level = try? board.backend.level(of: line) {
            let active = level.isHigh == settings.inUseActiveHigh
            inUseInput = InputDebouncer(debounceMilliseconds: settings.debounceMilliseconds, initial: active)
            status.inUse = active
        }
    }

    /// New settings from a reload: the table and timings change; the lines and a press in
    /// progress stay.
    mutating func apply(_ new: BoardSettings) {
        settings = new
        button.configure(debounceMilliseconds: new.debounceMilliseconds, longPressMilliseconds: new.longPressMilliseconds)
        inUseInput.debounceNanoseconds = new.debounceMilliseconds * 1_000_000
    }

    /// Reads the queued edges of the inputs whose descriptors polled ready, and settles the
    /// in-use input into `status`. A read error switches GPIO off (in `status`).
    mutating func readEdges(buttonReady: Bool, inUseReady: Bool, now: MonotonicTime, status: inout GPIOStatus) {
        if buttonReady, let line = board.button {
            while let event = readEdge(line, now: now, status: &status) {
                // Wired to ground with the pull-up: low is pressed.
                button.edge(pressed: event.edge == .falling, at: event.time)
            }
        }
        if inUseReady, let line = board.inUse {
            while let event = readEdge(line, now: now, status: &status) {
                inUseInput.edge(active: (event.edge == .rising) == settings.inUseActiveHigh, at: event.time)
            }
        }
        if let change = inUseInput.settle(now: now) { status.inUse = change.isActive }
    }

    /// The next press due by `now`; the loop calls until nil.
    mutating func nextPress(now: MonotonicTime) -> ButtonEvent? { button.poll(now: now) }

    /// Shows the frame for `inputs` at `now` (`changeAt`: when they change by themselves);
    /// returns when to wake next (nil: nothing pending).
    mutating func showLEDs(_ inputs: LEDInputs, changeAt: MonotonicTime?, now: MonotonicTime,
                           status: inout GPIOStatus) -> MonotonicTime? {
        guard status.isActive else { return nil }
        let present = board.ledsPresent
        let frame = settings.ledTable.frame(for: inputs, at: now, lines: present)
        do {
            try board.show(frame.levels)
        } catch {
            fail(error, status: &status)
            return nil
        }
        status.leds = board.levels
        // Input changes matter only to LEDs that show them; without LEDs, only the inputs wake.
        let ledWake = present.bits == 0 ? nil : earliest(frame.nextEdge, changeAt)
        return earliest(ledWake, earliest(button.nextDeadline, inUseInput.deadline))
    }

    /// `trackctl button short|long` on the simulated board: the line goes low now; returns
    /// when to release it (150 ms later, or 300 ms past the long-press time); nil when the
    /// board cannot be pressed from software.
    mutating func pressSimulated(_ press: GPIOStatus.SimulatedPress, now: MonotonicTime) -> MonotonicTime? {
        guard let line = board.button, board.backend.simulate(.falling, on: line, at: now) else { return nil }
        return now.adding(milliseconds: press == .short ? 150 : settings.longPressMilliseconds + 300)
    }

    /// The simulated button goes back up.
    mutating func releaseSimulated(now: MonotonicTime) {
        guard let line = board.button else { return }
        _ = board.backend.simulate(.rising, on: line, at: now)
    }

    /// The next edge of `line` with its time on the loop's clock; nil when none is queued.
    private mutating func readEdge(_ line: GPIOLine, now: MonotonicTime, status: inout GPIOStatus)
        -> (edge: GPIOEdge, time: MonotonicTime)? {
        let event: GPIOEdgeEvent?
        do {
            event = try board.backend.readEvent(line)
        } catch {
            fail(error, status: &status)
            return nil
        }
        guard let event else { return nil }
        let stamp = event.timestampNanoseconds
        let trusted = stamp <= now.nanoseconds && now.nanoseconds - stamp <= Self.edgeClockToleranceNanoseconds
        return (event.edge, trusted ? MonotonicTime(nanoseconds: stamp) : now)
    }

    /// Switches GPIO off after an error in the loop: one message, the lines released.
    private mutating func fail(_ error: GPIOError, status: inout GPIOStatus) {
        status.problem = error.description
        try? FileDescriptor.standardError.writeAll(String(joining: "trackd: GPIO: ", error.description, "; going on without LEDs and button\n"))
        board.release()
    }
}
