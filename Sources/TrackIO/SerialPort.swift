import CLinux
import TrackCore

/// A GPS receiver on a UART (or anything that looks like one: USB CDC-ACM, a pseudo-terminal),
/// e.g. `SerialPort(SerialPort.Configuration(path: "/dev/serial0", baud: nil))` for auto-baud.
///
/// Opens the device non-blocking, exclusive and without becoming its controlling terminal, sets
/// it raw 8N1 (`SerialPort+Termios.swift`), batches each receiver burst into about two reads
/// (`SerialPort+Coalescing.swift`), searches the rate when none is configured
/// (`SerialPort+AutoBaud.swift`) and, after the device fails or goes away (ENOENT, EIO, EOF on
/// hang-up: USB unplugged), closes it and asks to be reopened with exponential backoff.
///
/// For the loop: poll `descriptor` (nil while holding off or closed) and treat POLLHUP/POLLERR
/// as readable; call `read` when it is readable or `nextDeadline` has passed, then `observe`
/// with the receiver's totals; call `open` when closed and `nextDeadline` has passed.
public struct SerialPort: ReceiverSource, ~Copyable {
    /// How to open and run the port.
    public struct Configuration: Equatable, Sendable {
        /// Device path, e.g. `/dev/serial0` or `/dev/ttyACM0`.
        public var path: String
        /// Baud rate, one of `SerialPort.supportedBaudRates`; nil searches
        /// (`AutoBaud.searchOrder`).
        public var baud: Int?
        /// First delay before reopening, in milliseconds (default 1 s); it doubles per failure.
        public var reopenMinimumMilliseconds: Int64
        /// Longest delay before reopening, in milliseconds (default 30 s).
        public var reopenMaximumMilliseconds: Int64
        /// How long auto-baud gives each rate, in milliseconds (default 2500).
        public var autoBaudWindowMilliseconds: Int64
        /// Bytes the line must be able to carry while reads are held off (default 800, about an
        /// epoch of ten sentences); 0 reads at every readable event.
        public var coalescingBytes: Int
        /// Shortest hold-off, in milliseconds (default 100).
        public var coalescingMinimumMilliseconds: Int64
        /// Longest hold-off, in milliseconds (default 1000).
        public var coalescingMaximumMilliseconds: Int64

        /// A configuration for `path` at `baud` (nil: auto) with the defaults above.
        public init(
            path: String, baud: Int? = nil,
            reopenMinimumMilliseconds: Int64 = 1000, reopenMaximumMilliseconds: Int64 = 30_000,
            autoBaudWindowMilliseconds: Int64 = 2500, coalescingBytes: Int = 800,
            coalescingMinimumMilliseconds: Int64 = 100, coalescingMaximumMilliseconds: Int64 = 1000
        ) {
            self.path = path
            self.baud = baud
            self.reopenMinimumMilliseconds = reopenMinimumMilliseconds
            self.reopenMaximumMilliseconds = reopenMaximumMilliseconds
            self.autoBaudWindowMilliseconds = autoBaudWindowMilliseconds
            self.coalescingBytes = coalescingBytes
            self.coalescingMinimumMilliseconds = coalescingMinimumMilliseconds
            self.coalescingMaximumMilliseconds = coalescingMaximumMilliseconds
        }

        /// The same settings, the device path compared byte for byte.
        public static func == (left: Configuration, right: Configuration) -> Bool {
            left.path.bytesEqual(right.path) && left.baud == right.baud
                && left.reopenMinimumMilliseconds == right.reopenMinimumMilliseconds
                && left.reopenMaximumMilliseconds == right.reopenMaximumMilliseconds
                && left.autoBaudWindowMilliseconds == right.autoBaudWindowMilliseconds
                && left.coalescingBytes == right.coalescingBytes
                && left.coalescingMinimumMilliseconds == right.coalescingMinimumMilliseconds
                && left.coalescingMaximumMilliseconds == right.coalescingMaximumMilliseconds
        }
    }

    /// What the port was set up with.
    public private(set) var configuration: Configuration
    var file: FileDescriptor?
    var opens = 0
    var lastError: SourceError?
    var backoff: ReopenBackoff
    var coalescer: ReadCoalescer
    /// nil when the rate is configured.
    var autoBaud: AutoBaud?
    /// With a configured rate: the rate the receiver was told to move to (`follow`), used from
    /// then on, reopens included, until a reload.
    var followedBaud: Int?
    /// Bytes written but not yet taken by the line.
    var output = OutputQueue()

    /// A closed port; call `open(now:)` to start.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        backoff = ReopenBackoff(
            minimumMilliseconds: configuration.reopenMinimumMilliseconds,
            maximumMilliseconds: configuration.reopenMaximumMilliseconds)
        coalescer = ReadCoalescer(
            windowBytes: max(configuration.coalescingBytes, 0),
            minimumNanoseconds: configuration.coalescingMinimumMilliseconds * 1_000_000,
            maximumNanoseconds: configuration.coalescingMaximumMilliseconds * 1_000_000)
        if configuration.baud == nil {
            autoBaud = AutoBaud(windowNanoseconds: configuration.autoBaudWindowMilliseconds * 1_000_000)
        }
    }

    deinit {
        if let file { Self.release(file) }
    }

    /// Gives up exclusive use and closes. A tty's settings outlive a close while anything else
    /// holds it open (a simulator's pseudo-terminal does), and an exclusive one would refuse
    /// the next open with EBUSY to anyone but root.
    static func release(_ file: FileDescriptor) {
        _ = clinux_ioctl_none(file.rawValue, UInt(TIOCNXCL))
        try? file.close()
    }

    /// The rate in use: the configured one, or auto-baud's current try.
    public var baud: Int { followedBaud ?? configuration.baud ?? autoBaud?.baud ?? 9600 }

    /// True while auto-baud is still searching (always false with a configured rate).
    public var isSearchingBaud: Bool { autoBaud.map { !$0.isLocked } ?? false }

    /// Opens and configures the device; a failure is recorded and schedules the next try.
    public mutating func open(now: MonotonicTime) throws(SourceError) {
        guard file == nil else { return }
        let path = configuration.path
        let flags = O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC
        let opened: FileDescriptor
        do {
            opened = FileDescriptor(rawValue: try syscall { path.withCString { clinux_open($0, flags, 0) } })
        } catch {
            throw fail(.open(path: path, error), now: now)
        }
        do {
            // trackd is the one owner of the receiver: other opens fail with EBUSY (except root's).
            _ = try syscall { clinux_ioctl_none(opened.rawValue, UInt(TIOCEXCL)) }
            try Self.configureRaw(opened, baud: baud)
        } catch {
            try? opened.close()
            throw fail(.configure(path: path, error), now: now)
        }
        file = opened
        opens += 1
        backoff.retryAt = nil
        coalescer.reset()
        autoBaud?.restart(now: now)
    }

    /// The descriptor to poll: nil while closed or while reads are held off.
    public var descriptor: FileDescriptor? {
        coalescer.isHolding ? nil : file
    }

    /// The hold-off's end, auto-baud's next judgement, or the next reopen.
    public func nextDeadline() -> MonotonicTime? {
        guard file != nil else { return backoff.retryAt }
        let reads: MonotonicTime? = switch (coalescer.holdUntil, autoBaud?.deadline) {
        case (let hold?, let search?): min(hold, search)
        case (let hold?, nil): hold
        case (nil, let search?): search
        case (nil, nil): nil
        }
        guard let retry = output.retryAt else { return reads }
        return reads.map { min($0, retry) } ?? retry
    }

    /// Reads what the device has (0 when nothing, or when called before a hold-off ends).
    /// EOF (hang-up) and read errors close the port and schedule the reopen.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer, now: MonotonicTime) throws(SourceError) -> Int {
        guard let file, buffer.count > 0 else { return 0 }
        if !output.isEmpty { output.flush(file, now: now) }
        let searchDue = autoBaud.map { $0.deadline.map { now >= $0 } ?? false } ?? false
        guard coalescer.mayRead(now: now) || searchDue else { return 0 }
        // nil: nothing waiting (EAGAIN).
        let count: Int?
        do {
            count = try syscall { CLinux.read(file.rawValue, buffer.baseAddress, buffer.count) }
        } catch where error == .wouldBlock {
            count = nil
        } catch {
            throw fail(.read(path: configuration.path, error), now: now)
        }
        // VMIN is 1, so 0 is a hang-up, never "no data yet".
        if count == 0 { throw fail(.disconnected(path: configuration.path), now: now) }
        let got = count ?? 0
        if got > 0 { backoff.recovered() }
        coalescer.didRead(count: got, filledBuffer: got == buffer.count, now: now, baud: baud)
        // A silent line at auto-baud's deadline: nothing will be judged, so judge now.
        if got == 0 && searchDue && autoBaud?.tick(now: now) == true {
            switchRate(now: now)
        }
        return got
    }

    /// Feeds auto-baud the receiver's running totals (ignored with a configured rate).
    public mutating func observe(acceptedSentences: Int, rejectedSentences: Int, now: MonotonicTime) {
        guard file != nil, autoBaud != nil else { return }
        if autoBaud?.observe(accepted: acceptedSentences, rejected: rejectedSentences, now: now) == true {
            switchRate(now: now)
        }
    }

    mutating func switchRate(now: MonotonicTime) {
        guard let file else { return }
        coalescer.reset()
        do {
            try Self.setSpeed(file, baud: baud)
        } catch {
            _ = fail(.configure(path: configuration.path, error), now: now)
        }
    }

    /// Path, rate, open state, opens and the last failure.
    public var status: SourceStatus {
        SourceStatus(path: configuration.path, baud: baud, isOpen: file != nil, opens: opens, lastError: lastError)
    }

    /// Closes the device; it is not reopened until `open(now:)` is called.
    public mutating func close() {
        if let file { Self.release(file) }
        file = nil
        output.clear()
        backoff.retryAt = nil
        coalescer.reset()
    }

    /// A new device, rate or backoff from a reload: closes the port and starts over with them
    /// (backoff and auto-baud's search from the beginning); false when nothing changed.
    public mutating func reconfigure(_ new: Configuration) -> Bool {
        guard new != configuration else { return false }
        close()
        self = SerialPort(new)
        return true
    }

    /// Records `error`, closes the device and schedules the reopen; returns `error` to throw.
    mutating func fail(_ error: SourceError, now: MonotonicTime) -> SourceError {
        if let file { Self.release(file) }
        file = nil
        output.clear()
        coalescer.reset()
        lastError = error
        backoff.failed(now: now)
        return error
    }
}
