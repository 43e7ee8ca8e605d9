import CLinux

/// Single key presses from the terminal on standard input, for interactive views such as
/// `trackctl leds --watch`: the terminal is put out of line mode and echo while this value
/// lives, and restored when it ends. Without a terminal it reads nothing.
public struct KeyboardInput: ~Copyable {
    private var saved: termios
    private let isTerminal: Bool
    /// False once standard input ended (the terminal hung up): it is no longer polled, which
    /// would otherwise report it ready at once for ever.
    private var reading: Bool

    /// What a wait ended with.
    public enum Event: Equatable, Sendable {
        /// A key's byte, e.g. `UInt8(ascii: "b")`.
        case key(UInt8)
        /// The time ran out.
        case timeout
        /// SIGINT, SIGTERM, SIGHUP or SIGPIPE arrived.
        case stop
        /// SIGWINCH arrived: the terminal's size changed.
        case resize
    }

    /// Takes the terminal on standard input out of line mode and echo (if it is one).
    public init() {
        saved = termios()
        isTerminal = isatty(0) == 1 && tcgetattr(0, &saved) == 0
        reading = isTerminal
        guard isTerminal else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        _ = tcsetattr(0, TCSANOW, &raw)
    }

    deinit {
        var original = saved
        if isTerminal { _ = tcsetattr(0, TCSANOW, &original) }
    }

    /// Waits up to `milliseconds` for a key or one of `signals`.
    public mutating func wait(milliseconds: Int32, signals: borrowing ViewSignals) -> Event {
        var entries = (pollfd(fd: reading ? 0 : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0))
        let ready = withUnsafeMutableBytes(of: &entries) { raw in
            poll(raw.baseAddress?.assumingMemoryBound(to: pollfd.self), 2, milliseconds)
        }
        guard ready > 0 else { return .timeout }
        if entries.1.revents != 0, let signal = try? signals.next() {
            switch signal {
            case .stop: return .stop
            case .resize: return .resize
            }
        }
        if entries.0.revents != 0 {
            var byte: UInt8 = 0
            let got = read(0, &byte, 1)
            if got == 1 { return .key(byte) }
            if got == 0 || (got < 0 && clinux_errno() != EINTR && clinux_errno() != EAGAIN) { reading = false }
        }
        return .timeout
    }
}
