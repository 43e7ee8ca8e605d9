import TrackCore
import TrackIO

/// Where the daemon's configuration came from, for SIGHUP: the path, and whether it was asked
/// for by name (a missing default file means "all defaults").
struct ConfigSource {
    var path: String
    var explicit: Bool
}

extension Daemon where Source: ~Copyable {
    /// SIGHUP: reads the configuration, the board file and the fences file again. If any is
    /// invalid nothing changes and the reason is kept for status and doctor. Otherwise every key
    /// is applied: filter, sampling, fences, LED patterns and button timing at once; the
    /// receiver's device, baud and backoff by reopening the port; `[log]` by closing the log
    /// (after a last sync) and opening it with the new settings; the socket's group; `[privacy]
    /// restricted` at once. What cannot change while trackd runs (the control socket's path, the
    /// state file, the board's lines) is named, key by key, as needing a restart.
    mutating func reload(now: MonotonicTime) {
        notify.send("RELOADING=1")
        defer { notify.send("READY=1") }
        let loaded: TrackdConfig
        switch ConfigLoader.load(configSource.path, explicit: configSource.explicit) {
        case .failure(let error): return reject(error.description)
        case .success(let config): loaded = config
        }
        let map: BoardMap
        switch ConfigLoader.loadBoard(loaded) {
        case .failure(let error): return reject(error.description)
        case .success(let board): map = board
        }
        let fences: FenceMonitor
        switch ConfigLoader.fences(loaded) {
        case .failure(let error): return reject("fences: " + error.description + " (the previous fences are kept)")
        case .success(let monitor): fences = monitor
        }
        let old = config
        config = loaded
        pipeline.filter.settings = ConfigLoader.filterSettings(loaded)
        pipeline.sampling.settings = ConfigLoader.samplingSettings(loaded)
        pipeline.status.profile = ConfigLoader.profile(loaded)
        pipeline.status.odometer.maxSpeedMillimetresPerSecond = Int64(loaded.filter.maxSpeedMillimetresPerSecond)
        // New fences start over from their initial states.
        ConfigLoader.install(fences, loaded, into: &pipeline.status)
        pipeline.status.fencesLoadError = nil
        driver.apply(BoardSettings(loaded))
        var receiver = loaded.receiver
        if !receiver.deviceIsSet, let device = map.receiverDevice { receiver.device = device }
        if source.reconfigure(TrackdCommand.serialConfiguration(receiver)) { openSource(now: now) }
        if LogWriterSettings(loaded.log) != logWriter?.settings || logWriter == nil { reopenLog(now: now) }
        if loaded.control.group != old.control.group { applyControlGroup() }
        if loaded.privacy.restricted != old.privacy.restricted { applyRestriction(loaded.privacy.restricted, now: now) }
        if loaded.log.announceSyncs != old.log.announceSyncs {
            announcedSyncCount = loaded.log.announceSyncs ? (logWriter?.status.syncCount ?? 0) : nil
        }
        var restart = ""
        if loaded.control.socket != old.control.socket { restart += ", control.socket" }
        if loaded.state.file != old.state.file { restart += ", state.file" }
        if loaded.board.simulated != old.board.simulated { restart += ", board.simulated" }
        if map != boardMap { restart += ", the [board] lines" }
        pipeline.status.reloads += 1
        pipeline.status.lastReloadError = nil
        pipeline.status.reloadNeedsRestart = restart.isEmpty ? nil : String(restart.dropFirst(2))
        if let keys = pipeline.status.reloadNeedsRestart {
            say("reloaded " + configSource.path + "; changed but applied only when trackd restarts: " + keys)
        } else {
            say("reloaded " + configSource.path + "; every key applied")
        }
    }

    private mutating func reject(_ error: String) {
        say("reload rejected: " + error + "; the running configuration is kept")
        pipeline.status.lastReloadError = error
    }

    /// `[log]` changed: the held records go to the old log, then the new one is opened (another
    /// directory, segment size, quota, sync interval). A directory that cannot be opened leaves
    /// trackd without a log, as at start-up, and status and doctor say why.
    mutating func reopenLog(now: MonotonicTime) {
        logWriter?.close(now: now)
        logWriter = nil
        let settings = LogWriterSettings(config.log)
        pipeline.status.logDirectory = config.log.directory
        pipeline.status.logQuotaBytes = Int(config.log.quotaBytes)
        pipeline.status.logFileSystem = FileSystemInfo.of(config.log.directory)
        do {
            logWriter = try LogWriter(settings: settings, files: PosixLogFiles(), now: now)
            pipeline.status.logOpenError = nil
        } catch {
            pipeline.status.logOpenError = error.description
            say("track log: " + error.description + "; not logging")
        }
        pipeline.status.log = logWriter?.status ?? LogWriterStatus()
        journal.storageErrors = pipeline.status.log.storageErrorCount
        journal.deletedSegments = 0
        journal.blocked = nil
        if announcedSyncCount != nil { announcedSyncCount = logWriter?.status.syncCount ?? 0 }
        timers.schedule(Self.logSyncTimer, at: now.adding(milliseconds: settings.syncIntervalMilliseconds))
    }

    private func applyControlGroup() {
        do {
            try control.setGroup(config.control.group)
        } catch {
            say("control socket group '" + config.control.group + "': " + error.message + "; only root can use trackctl")
        }
    }

    /// `[privacy] restricted` turned on forbids tracking at once; turned off, the tracker is
    /// not-determined again (nothing is logged until someone allows it), as after a restart.
    private mutating func applyRestriction(_ restricted: Bool, now: MonotonicTime) {
        let current = pipeline.status.permission
        pipeline.status.permission = restricted
            ? Permission(state: .restricted, accuracy: current.accuracy)
            : Permission(accuracy: current.accuracy)
        pipeline.status.permissionChanged = true
    }
}
