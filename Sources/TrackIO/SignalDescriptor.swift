import CLinux

/// The signals the daemon handles inside its loop.
public enum DaemonSignal: Equatable, Sendable {
    /// SIGTERM or SIGINT: stop.
    case stop
    /// SIGHUP: reload the configuration.
    case reload
    /// SIGCHLD: a fence command finished.
    case child
}

/// A signalfd (the signals blocked for normal delivery), so signals arrive as readable bytes
/// in the one poll instead of interrupting the loop.
public struct SignalDescriptor: ~Copyable {
    /// The descriptor to poll.
    public let descriptor: FileDescriptor

    /// The daemon's set: TERM and INT stop, HUP reloads, CHLD reaps; SIGPIPE is ignored.
    /// With `stopOnly` just TERM and INT, for tools that must still die of a hang-up.
    public init(stopOnly: Bool = false) throws(Errno) {
        descriptor = FileDescriptor(rawValue: try syscall { clinux_signalfd_open(stopOnly ? 1 : 0) })
    }

    deinit { try? descriptor.close() }

    /// Waits up to `milliseconds` for a signal (tools' redraw loops); nil on timeout.
    public func wait(milliseconds: Int32) throws(Errno) -> DaemonSignal? {
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, milliseconds)
        return try next()
    }

    /// The next pending signal, or nil when none is pending.
    public func next() throws(Errno) -> DaemonSignal? {
        while true {
            let number = try syscall { clinux_signalfd_read(descriptor.rawValue) }
            switch number {
            case 0: return nil
            case SIGTERM, SIGINT: return .stop
            case SIGHUP: return .reload
            case SIGCHLD: return .child
            default: continue
            }
        }
    }
}
