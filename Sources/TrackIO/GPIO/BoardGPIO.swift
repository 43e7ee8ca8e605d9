import TrackCore

/// The board's GPIO lines, opened from a `BoardMap` at start-up: the four LEDs as outputs
/// (dark at first), the button and the optional in-use input with both-edge events whose
/// descriptors join the loop's poll.
///
/// Opening is all or nothing: a missing chip, a missing or busy line gives one error, every
/// line is released again, and trackd goes on without LEDs and button. `show` writes only the
/// lines whose level changed, so the loop touches the hardware at edges alone.
public struct BoardGPIO<Backend: GPIOBackend> {
    /// The backend (libgpiod, or the fake of the simulated board and the tests).
    public var backend: Backend
    private var ledLines: InlineArray<4, GPIOLine?> = InlineArray(repeating: nil)
    /// The button's line, nil when the board has none or opening failed.
    public private(set) var button: GPIOLine?
    /// The in-use input's line, nil when the board has none or opening failed.
    public private(set) var inUse: GPIOLine?
    /// The button's event descriptor for the poll.
    public private(set) var buttonDescriptor: FileDescriptor?
    /// The in-use input's event descriptor for the poll.
    public private(set) var inUseDescriptor: FileDescriptor?
    /// False when an input got no pull-up (kernel before 5.5): the button needs a resistor.
    public private(set) var pullUpApplied = true
    /// The levels last written to the LEDs.
    public private(set) var levels = LEDLevels()
    /// Writes to LED lines so far (changes only).
    public private(set) var writes = 0

    /// A board with no lines open over `backend`.
    public init(backend: Backend) { self.backend = backend }

    /// True when any LED line is open.
    public var hasLEDs: Bool { ledsPresent.bits != 0 }

    /// The LEDs the board has, as lit bits, e.g. only `fix` for a board with one LED.
    public var ledsPresent: LEDLevels {
        var present = LEDLevels()
        for led in LEDLine.allCases where ledLines[led.rawValue] != nil { present[led] = true }
        return present
    }

    /// The line of `led`, nil when not open.
    public func line(of led: LEDLine) -> GPIOLine? { ledLines[led.rawValue] }

    /// Opens every line `map` names (start-up; allocates). On failure nothing stays open and the
    /// error names the chip and the line, e.g. `GPIO17 on pinctrl-bcm2711: busy (…)`.
    public mutating func open(_ map: BoardMap) throws(GPIOError) {
        guard !map.isEmpty else { return }
        do throws(GPIOError) {
            guard let chipText = map.chip else { throw .noSuchChip(chip: "(none: the board file sets no chip)") }
            let chip = try backend.openChip(chipText.bytesHavePrefix("/") ? .path(chipText) : .label(chipText))
            for role in BoardRole.allCases {
                guard let wanted = map[role] else { continue }
                let line: GPIOLine
                switch wanted {
                case .name(let name): line = try backend.findLine(named: name, on: chip)
                case .offset(let offset): line = try backend.line(offset: offset, on: chip)
                }
                if let led = role.led {
                    try backend.requestOutput(line, initial: .low)
                    ledLines[led.rawValue] = line
                    continue
                }
                let request = try backend.requestInput(line)
                pullUpApplied = pullUpApplied && request.pullUpApplied
                if role == .button {
                    button = line
                    buttonDescriptor = request.eventDescriptor
                } else {
                    inUse = line
                    inUseDescriptor = request.eventDescriptor
                }
            }
        } catch {
            release()
            throw error
        }
    }

    /// Drives the LEDs to `new`, writing only the lines that change. Allocates nothing.
    public mutating func show(_ new: LEDLevels) throws(GPIOError) {
        guard new != levels else { return }
        for led in LEDLine.allCases where new[led] != levels[led] {
            if let line = ledLines[led.rawValue] {
                try backend.set(line, to: GPIOLevel(new[led]))
                writes += 1
            }
            levels[led] = new[led]
        }
    }

    /// Releases every line (exit, SIGTERM, a failed open).
    public mutating func release() {
        backend.releaseAll()
        ledLines = InlineArray(repeating: nil)
        button = nil
        inUse = nil
        buttonDescriptor = nil
        inUseDescriptor = nil
    }
}
