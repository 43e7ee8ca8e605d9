import TrackCore
import TrackIO

/// What a SIGHUP changes, service by service: a value made from the configuration in force and
/// the files read again, so each service applies its own part (`apply(_:)`) and a test can
/// check a plan without a daemon. Nothing in it is applied by the plan itself.
///
/// E.g. `[log] sync-interval` changed: `reopenLog` is true; `control.socket` changed:
/// `needsRestart` is `control.socket` (the socket stays where it is until trackd restarts).
struct ReloadPlan {
    /// The configuration read again: every service takes its keys from it.
    var config: TrackdConfig
    /// The fences read again (each reports its initial state again).
    var fences: FenceMonitor
    /// The receiver's port as the new `[receiver]` and board file describe it; the source
    /// reopens only when it differs from the one in use.
    var serial: SerialPort.Configuration
    /// The log is closed (after a last sync) and opened with the new `[log]`.
    var reopenLog: Bool
    /// The control socket's new group; nil when unchanged.
    var controlGroup: String?
    /// `[privacy] restricted` when it changed.
    var restricted: Bool?
    /// Keys that changed but take effect only when trackd restarts, e.g. `control.socket,
    /// [gpsd]`; nil when none.
    var needsRestart: String?

    /// The plan from `old` (with its board map `oldBoard`) to `new` with `board` and `fences`;
    /// `logSettings` is the log's in force, nil when the log could not be opened.
    init(from old: TrackdConfig, oldBoard: BoardMap, to new: TrackdConfig, board: BoardMap, fences: FenceMonitor,
         logSettings: LogWriterSettings?) {
        config = new
        self.fences = fences
        serial = SerialPort.Configuration(new.receiver, board: board)
        reopenLog = LogWriterSettings(new.log) != logSettings || new.log.announceSyncs != old.log.announceSyncs
        controlGroup = new.control.group.bytesEqual(old.control.group) ? nil : new.control.group
        restricted = new.privacy.restricted != old.privacy.restricted ? new.privacy.restricted : nil
        var restart = ""
        if !new.control.socket.bytesEqual(old.control.socket) { restart += ", control.socket" }
        if !new.state.file.bytesEqual(old.state.file) { restart += ", state.file" }
        if new.board.simulated != old.board.simulated { restart += ", board.simulated" }
        if board != oldBoard { restart += ", the [board] lines" }
        if new.gpsd != old.gpsd { restart += ", [gpsd]" }
        needsRestart = restart.isEmpty ? nil : restart.droppingBytes(2)
    }
}
