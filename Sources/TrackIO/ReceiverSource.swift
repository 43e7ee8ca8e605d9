import TrackCore

/// Why a receiver source failed, naming the device and the errno.
public enum SourceError: Error, Equatable, Sendable {
    /// The device or file could not be opened, e.g. ENOENT for an unplugged USB receiver.
    case open(path: String, Errno)
    /// Configuring the device failed (termios, pty set-up).
    case configure(path: String, Errno)
    /// Reading failed; the source closes itself and the loop reopens it with backoff.
    case read(path: String, Errno)
    /// The device went away (EOF on a serial port or pty: USB unplugged, peer closed).
    case disconnected(path: String)
    /// A file replay reached its end.
    case endOfInput(path: String)

    /// One line naming what failed and where, e.g. `"/dev/ttyACM0: open: No such file or directory"`.
    public var description: String {
        switch self {
        case .open(let path, let errno): String(joining: path, ": open: ", errno.message)
        case .configure(let path, let errno): String(joining: path, ": configure: ", errno.message)
        case .read(let path, let errno): String(joining: path, ": read: ", errno.message)
        case .disconnected(let path): String(joining: path, ": device disconnected")
        case .endOfInput(let path): String(joining: path, ": end of input")
        }
    }
}

/// What `trackctl status` and `doctor` show about a source.
public struct SourceStatus: Equatable, Sendable {
    /// Device or file path, e.g. `/dev/serial0`.
    public var path: String
    /// Current baud rate; nil for files and pseudo-terminals where it means nothing.
    public var baud: Int?
    /// True while the source is open.
    public var isOpen: Bool
    /// Times the source was (re)opened successfully.
    public var opens: Int
    /// The last failure, if any.
    public var lastError: SourceError?

    /// A status for `path`.
    public init(path: String, baud: Int? = nil, isOpen: Bool = false, opens: Int = 0, lastError: SourceError? = nil) {
        self.path = path
        self.baud = baud
        self.isOpen = isOpen
        self.opens = opens
        self.lastError = lastError
    }
}

/// Where receiver bytes come from: a UART, a pseudo-terminal, a file replay, the simulator.
/// The daemon is generic over it (`some ReceiverSource`), never an existential.
///
/// The loop calls `open` when the source is closed and `nextDeadline` has passed, polls
/// `descriptor` for input, and calls `read` when the descriptor is readable or the deadline
/// has passed. Every call gets the one `now` of that wake-up.
public protocol ReceiverSource: ~Copyable {
    /// Opens (or reopens after a failure) the device.
    mutating func open(now: MonotonicTime) throws(SourceError)
    /// The descriptor to poll for input; nil while closed or when the source is timer-driven.
    var descriptor: FileDescriptor? { get }
    /// When the source wants to be called without input: replay pacing, reopen backoff,
    /// auto-baud's next try. nil: only on input.
    func nextDeadline() -> MonotonicTime?
    /// Copies available bytes into `buffer`; returns how many (0: nothing now). A failure
    /// closes the source; the loop reports it and reopens after the backoff.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, now: MonotonicTime) throws(SourceError) -> Int
    /// Tells the source how the receiver core judged its bytes so far: running totals since the
    /// core started (`counters.accepted`, and the sum of its reject counters), not per-read
    /// deltas. Auto-baud keeps the rate once checksummed sentences arrive and tries the next
    /// one after garbage or silence.
    mutating func observe(acceptedSentences: Int, rejectedSentences: Int, now: MonotonicTime)
    /// Status for `trackctl status` and `doctor`.
    var status: SourceStatus { get }
    /// Closes the device (SIGTERM, reload with another device).
    mutating func close()
    /// Takes the serial settings of a reloaded configuration (device, baud, reopen delays):
    /// true when they changed and the source closed itself to be opened with them (the loop
    /// opens it at once). Sources without such settings (a replay) answer false.
    mutating func reconfigure(_ configuration: SerialPort.Configuration) -> Bool
    /// True when what is written reaches a receiver that may answer (a UART); a replay's
    /// bytes are history, and receiver control leaves it alone.
    var takesCommands: Bool { get }
    /// Writes `bytes` to the receiver without blocking; what the line cannot take now is kept
    /// and goes out at the next calls (`read` and `write`). False, writing nothing, when there
    /// is no room for all of it or the source is closed.
    mutating func write(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) -> Bool
    /// Moves the line to `baud` (the receiver was told to change to it): a UART follows at
    /// once, and with auto-baud searches from there when the receiver is not found at it.
    mutating func follow(baud: Int, now: MonotonicTime)
}

/// Sources that take no commands (a replay, a test's script): writes are dropped, the baud
/// means nothing.
extension ReceiverSource where Self: ~Copyable {
    public var takesCommands: Bool { false }
    public mutating func write(_ bytes: UnsafeRawBufferPointer, now: MonotonicTime) -> Bool { true }
    public mutating func follow(baud: Int, now: MonotonicTime) {}
}
