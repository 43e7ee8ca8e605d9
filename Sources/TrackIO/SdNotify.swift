import CLinux
import TrackCore

/// systemd's readiness protocol written by hand: datagrams to `$NOTIFY_SOCKET`.
/// Does nothing when the variable is unset (not started by systemd).
public struct SdNotify: Sendable {
    let socketPath: String?
    /// Half of `$WATCHDOG_USEC` in nanoseconds: how often to send WATCHDOG=1; nil when off.
    public let watchdogInterval: Int64?

    /// Reads `NOTIFY_SOCKET` and `WATCHDOG_USEC` from the environment.
    public init() {
        socketPath = environment("NOTIFY_SOCKET")
        if let text = environment("WATCHDOG_USEC"), let micros = Int64(text), micros > 0 {
            watchdogInterval = micros * 1000 / 2
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends `state`, e.g. `"READY=1"`, `"RELOADING=1"`, `"STOPPING=1"`, `"WATCHDOG=1"`.
    public func send(_ state: StaticString) {
        guard let socketPath else { return }
        _ = socketPath.withCString { path in
            clinux_unix_send_datagram(path, state.utf8Start, state.utf8CodeUnitCount)
        }
    }
}

/// An environment variable's value, or nil.
public func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}
