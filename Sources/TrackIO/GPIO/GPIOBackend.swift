import TrackCore

/// How to find a GPIO chip: by its label (what `gpiodetect` prints in brackets, e.g.
/// `pinctrl-bcm2835`) or by its device path (e.g. `/dev/gpiochip0`). Boards use labels: the
/// chip numbers change between boards and kernels (the Pi 5 moved its header from gpiochip4
/// to gpiochip0).
public enum GPIOChipSelector: Equatable, Sendable {
    /// The chip whose label is this, e.g. `pinctrl-rp1`.
    case label(String)
    /// The chip device at this path, e.g. `/dev/gpiochip0`.
    case path(String)

    /// The label or path as written, for messages.
    public var text: String {
        switch self {
        case .label(let label): return label
        case .path(let path): return path
        }
    }
}

/// A chip opened by a backend: an index into that backend's table, valid until `releaseAll`.
public struct GPIOChip: Equatable, Hashable, Sendable {
    /// Index in the backend's table of open chips, from 0.
    public var index: Int
    /// A handle for the backend's chip `index`.
    public init(index: Int) { self.index = index }
}

/// A line found by a backend: an index into that backend's table, valid until `releaseAll`.
public struct GPIOLine: Equatable, Hashable, Sendable {
    /// Index in the backend's table of lines, from 0.
    public var index: Int
    /// A handle for the backend's line `index`.
    public init(index: Int) { self.index = index }
}

/// A line's physical level: `high` is 3.3 V on a Pi header pin (an LED wired anode-to-GPIO is lit).
public enum GPIOLevel: Equatable, Hashable, Sendable {
    /// 0 V.
    case low
    /// The supply voltage (3.3 V on a Pi).
    case high

    /// `high` for true, e.g. `GPIOLevel(true) == .high`.
    public init(_ isHigh: Bool) { self = isHigh ? .high : .low }

    /// True when high.
    public var isHigh: Bool { self == .high }
}

/// Which way a line's level went.
public enum GPIOEdge: Equatable, Hashable, Sendable {
    /// Low to high (a button wired to ground with a pull-up: released).
    case rising
    /// High to low (a button wired to ground with a pull-up: pressed).
    case falling
}

/// One edge read from an input line.
public struct GPIOEdgeEvent: Equatable, Sendable {
    /// Which way the level went.
    public var edge: GPIOEdge
    /// When the kernel saw it, in nanoseconds: CLOCK_MONOTONIC since Linux 5.7 (the Pi's
    /// kernels), CLOCK_REALTIME before; compare with the loop's clock only on 5.7 or later.
    public var timestampNanoseconds: Int64

    /// An edge seen at `timestampNanoseconds`.
    public init(edge: GPIOEdge, timestampNanoseconds: Int64) {
        self.edge = edge
        self.timestampNanoseconds = timestampNanoseconds
    }
}

/// What an input request gave: the descriptor the loop polls, and whether the pull-up took.
public struct GPIOInputRequest: Equatable, Sendable {
    /// Readable (POLLIN) when edges are queued; read them with `readEvent`. Non-blocking;
    /// owned by the backend, closed by `releaseAll`.
    public var eventDescriptor: FileDescriptor
    /// True when the line has the internal pull-up; false when the kernel has no bias
    /// support (before Linux 5.5) and the button needs an external pull-up resistor.
    public var pullUpApplied: Bool

    /// A request result.
    public init(eventDescriptor: FileDescriptor, pullUpApplied: Bool) {
        self.eventDescriptor = eventDescriptor
        self.pullUpApplied = pullUpApplied
    }
}

/// The GPIO operations trackd needs, behind one interface so tests use a fake: open a chip,
/// find lines, drive LEDs, watch a button. Use it generically (`some GPIOBackend`).
///
/// Chips are opened and lines found and requested once at start-up (those calls may allocate);
/// `set` and `readEvent` are the loop's calls.
public protocol GPIOBackend {
    /// Opens a chip by label or path; `.noSuchChip` when there is none such (ENOENT).
    mutating func openChip(_ selector: GPIOChipSelector) throws(GPIOError) -> GPIOChip

    /// Finds the line called `name` on `chip`, e.g. `GPIO17`; `.lineNotFound` when none is.
    mutating func findLine(named name: String, on chip: GPIOChip) throws(GPIOError) -> GPIOLine

    /// The line at `offset` on `chip` (0 … lines − 1), e.g. 17 for GPIO17 on a Pi.
    mutating func line(offset: Int, on chip: GPIOChip) throws(GPIOError) -> GPIOLine

    /// Takes `line` as an output driven at `initial`; `.lineBusy` when another program holds it.
    mutating func requestOutput(_ line: GPIOLine, initial: GPIOLevel) throws(GPIOError)

    /// Drives an output line to `level`.
    mutating func set(_ line: GPIOLine, to level: GPIOLevel) throws(GPIOError)

    /// Takes `line` as an input reporting both edges, with the pull-up bias where the kernel
    /// supports it, and returns the event descriptor for the loop's poll.
    mutating func requestInput(_ line: GPIOLine) throws(GPIOError) -> GPIOInputRequest

    /// The next queued edge of an input line, or nil when none is queued (never blocks).
    mutating func readEvent(_ line: GPIOLine) throws(GPIOError) -> GPIOEdgeEvent?

    /// The current level of an input line (e.g. the in-use input at start-up, before any edge).
    mutating func level(of line: GPIOLine) throws(GPIOError) -> GPIOLevel

    /// Releases every line and closes every chip; handles from before are invalid after.
    mutating func releaseAll()

    /// Queues `edge` on input `line` as if the hardware saw it at `time`; only a simulated
    /// board can (the demo's button). Returns false for real hardware.
    mutating func simulate(_ edge: GPIOEdge, on line: GPIOLine, at time: MonotonicTime) -> Bool
}

extension GPIOBackend {
    /// Real hardware cannot be pressed from software: false.
    public mutating func simulate(_ edge: GPIOEdge, on line: GPIOLine, at time: MonotonicTime) -> Bool { false }
}
