import TrackCore
import TrackIO

/// Where the daemon's configuration came from, for SIGHUP: the path, and whether it was asked
/// for by name (a missing default file means "all defaults").
struct ConfigSource {
    var path: String
    var explicit: Bool
}

/// The process around the services: its signals (TERM and INT stop, HUP reloads, CHLD reaps
/// fence commands), systemd's notify socket and watchdog, and the configuration in force with
/// where it came from and what the reloads did. Nothing here allocates in the loop; a reload
/// reads files and allocates.
struct ProcessService: ~Copyable {
    /// nil in a test or fuzz target: signals are the process's.
    let signals: SignalDescriptor?
    let signalsDescriptor: FileDescriptor?
    let notify = SdNotify()
    /// The configuration in force, where it came from and the board's pin map.
    private(set) var config: TrackdConfig
    let configSource: ConfigSource
    private(set) var boardMap: BoardMap
    /// Reloads and their outcome, for status and doctor.
    private(set) var facts = StatusModel.DaemonFacts()

    init(signals: consuming SignalDescriptor?, config: TrackdConfig, configSource: ConfigSource, boardMap: BoardMap) {
        signalsDescriptor = signals?.descriptor
        self.signals = signals
        self.config = config
        self.configSource = configSource
        self.boardMap = boardMap
        facts.configPath = configSource.path
    }

    /// Tells systemd `state` (`READY=1`, `STOPPING=1`) when it runs trackd with a notify socket.
    func tell(_ state: StaticString) { notify.send(state) }

    /// The signal descriptor.
    func arm(_ loop: inout EventLoop, slot: Int) { loop.watch(slot, signalsDescriptor) }

    /// Starts the watchdog's timer when systemd asked for one.
    func startWatchdog(_ loop: inout EventLoop, timer: Int, now: MonotonicTime) {
        if let interval = notify.watchdogInterval { loop.schedule(timer, at: now.adding(nanoseconds: interval)) }
    }

    /// Tells systemd the loop is alive when the watchdog's timer is due, and sets it again.
    func keepAlive(_ loop: inout EventLoop, timer: Int, now: MonotonicTime) {
        guard loop.isDue(timer), let interval = notify.watchdogInterval else { return }
        notify.send("WATCHDOG=1")
        loop.schedule(timer, at: now.adding(nanoseconds: interval))
    }

    /// The next signal that arrived, when the descriptor polled ready; nil when none is left.
    func nextSignal(_ loop: borrowing EventLoop, slot: Int) -> DaemonSignal? {
        guard loop.isReady(slot) else { return nil }
        return try? signals?.next()
    }

    /// SIGHUP's first half: the configuration, the board file and the fences file read again
    /// and the plan made from them; nil when one is invalid (said, and kept for status and
    /// doctor: the running configuration stays). `logSettings`: the log's in force, nil when
    /// it is not open.
    mutating func planReload(logSettings: LogWriterSettings?) -> ReloadPlan? {
        notify.send("RELOADING=1")
        let loaded: TrackdConfig
        do throws(ConfigFiles.LoadError) {
            loaded = try ConfigFiles.loadConfig(configSource.path, explicit: configSource.explicit)
        } catch {
            return reject(error.description)
        }
        let map: BoardMap
        switch ConfigFiles.loadBoard(loaded) {
        case .failure(let error): return reject(error.description)
        case .success(let board): map = board
        }
        let fences: FenceMonitor
        switch FenceLoader.load(loaded, configPath: configSource.path) {
        case .failure(let error): return reject("fences: " + error.description + " (the previous fences are kept)")
        case .success(let load):
            fences = load.monitor
            if let note = load.note { Journal.say("fences: " + note) }
        }
        return ReloadPlan(from: config, oldBoard: boardMap, to: loaded, board: map, fences: fences, logSettings: logSettings)
    }

    /// SIGHUP's second half, once every service applied `plan`: it is the configuration in
    /// force, and the journal says what needs a restart.
    mutating func reloaded(_ plan: ReloadPlan) {
        config = plan.config
        facts.reloads += 1
        facts.lastReloadError = nil
        facts.reloadNeedsRestart = plan.needsRestart
        if let keys = plan.needsRestart {
            Journal.say("reloaded " + configSource.path + "; changed but applied only when trackd restarts: " + keys)
        } else {
            Journal.say("reloaded " + configSource.path + "; every key applied")
        }
        finishReload()
    }

    private mutating func reject(_ error: String) -> ReloadPlan? {
        Journal.say("reload rejected: " + error + "; the running configuration is kept")
        facts.lastReloadError = error
        finishReload()
        return nil
    }

    private func finishReload() {
        // The files' parse is done and freed: not resident from here on.
        ProcessMemory.releaseFree()
        notify.send("READY=1")
    }
}
