import CLinux

/// The signals of a live view on a terminal (`trackctl status --watch`), read from a signalfd
/// so they end the view's wait instead of killing the process before it restores the terminal:
/// TERM, INT (Ctrl-C), HUP (the terminal went away) and PIPE (the reader of its output went
/// away) stop it, WINCH says the terminal's size changed.
public struct ViewSignals: ~Copyable {
    /// What arrived.
    public enum Signal: Equatable, Sendable {
        /// TERM, INT, HUP or PIPE: restore the terminal and end.
        case stop
        /// WINCH: read the size again and redraw.
        case resize
    }

    /// The descriptor to poll.
    public let descriptor: FileDescriptor

    /// Blocks the view's signals for normal delivery and opens the signalfd reading them.
    public init() throws(Errno) {
        descriptor = FileDescriptor(rawValue: try syscall { clinux_signalfd_open_view() })
    }

    deinit { try? descriptor.close() }

    /// The next pending signal, or nil when none is pending; a stop wins over a resize
    /// pending beside it.
    public func next() throws(Errno) -> Signal? {
        var resized = false
        while true {
            let number = try syscall { clinux_signalfd_read(descriptor.rawValue) }
            switch number {
            case 0: return resized ? .resize : nil
            case SIGWINCH: resized = true
            case SIGTERM, SIGINT, SIGHUP, SIGPIPE: return .stop
            default: continue
            }
        }
    }
}
