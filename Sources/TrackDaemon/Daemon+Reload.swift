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
    /// restricted` at once; `[places]` by mapping the table again. What cannot change while trackd
    /// runs (the control socket's path, the state file, the board's lines, gpsd's sockets) is named,
    /// key by key, as needing a restart.
    mutating func reload(now: MonotonicTime) {
        notify.send("RELOADING=1")
        defer {
            ProcessMemory.releaseFree()
            notify.send("READY=1")
        }
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
        let newFences: FenceMonitor
        switch TrackdCommand.loadFences(loaded, configPath: configSource.path) {
        case .failure(let error): return reject("fences: " + error.description + " (the previous fences are kept)")
        case .success(let load):
            newFences = load.monitor
            if let note = load.note { try? FileDescriptor.standardError.writeAll("trackd: fences: \(note)\n") }
        }
        let old = config
        config = loaded
        fixes.apply(loaded)
        state.odometer.maxSpeedMillimetresPerSecond = Int64(loaded.filter.maxSpeedMillimetresPerSecond)
        // New fences start over from their initial states.
        fences.install(newFences, loaded)
        board.driver.apply(BoardSettings(loaded))
        var receiverSettings = loaded.receiver
        if !receiverSettings.deviceIsSet, let device = map.receiverDevice { receiverSettings.device = device }
        if receiver.source.reconfigure(TrackdCommand.serialConfiguration(receiverSettings)) { receiver.open(now: now) }
        if LogWriterSettings(loaded.log) != trackLog.settings || trackLog.writer == nil || loaded.log.announceSyncs != old.log.announceSyncs {
            trackLog.reopen(loaded.log, now: now)
            journal.storageErrors = trackLog.status.storageErrorCount
            journal.deletedSegments = 0
            journal.blocked = nil
            loop.cancel(TimerID.logSync)
            trackLog.serviceTimer(&loop, timer: TimerID.logSync, now: now)
        }
        if !loaded.control.group.bytesEqual(old.control.group) { applyControlGroup() }
        if loaded.privacy.restricted != old.privacy.restricted { state.restrict(loaded.privacy.restricted) }
        // The table is mapped again even when its path is the same: a new one installed takes effect.
        places.apply(loaded.places)
        journalPlaces()
        // A unit is attached again only when it changed (or could not be attached before).
        time.apply(loaded.time)
        journalTime()
        var restart = ""
        if !loaded.control.socket.bytesEqual(old.control.socket) { restart += ", control.socket" }
        if !loaded.state.file.bytesEqual(old.state.file) { restart += ", state.file" }
        if loaded.board.simulated != old.board.simulated { restart += ", board.simulated" }
        if map != boardMap { restart += ", the [board] lines" }
        if loaded.gpsd != old.gpsd { restart += ", [gpsd]" }
        reloads.reloads += 1
        reloads.lastReloadError = nil
        reloads.reloadNeedsRestart = restart.isEmpty ? nil : restart.droppingBytes(2)
        if let keys = reloads.reloadNeedsRestart {
            say("reloaded " + configSource.path + "; changed but applied only when trackd restarts: " + keys)
        } else {
            say("reloaded " + configSource.path + "; every key applied")
        }
    }

    private mutating func reject(_ error: String) {
        say("reload rejected: " + error + "; the running configuration is kept")
        reloads.lastReloadError = error
    }

    private mutating func applyControlGroup() {
        do {
            try control?.server.setGroup(config.control.group)
        } catch {
            say("control socket group '" + config.control.group + "': " + error.message + "; only root can use trackctl")
        }
    }
}
