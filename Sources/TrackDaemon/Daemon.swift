import TrackCore
import TrackIO

/// The daemon: one thread, one poll over the receiver source, a signalfd and the control
/// socket; one clock reading per wake-up; every buffer allocated before the loop starts.
struct Daemon<Source: ReceiverSource & ~Copyable, GPIO: GPIOBackend>: ~Copyable {
    // Poll slots.
    static var sourceSlot: Int { 0 }
    static var signalSlot: Int { 1 }
    static var listenerSlot: Int { 2 }
    static var firstClientSlot: Int { 3 }
    static var buttonSlot: Int { firstClientSlot + ControlServer.clientCapacity }
    static var inUseSlot: Int { buttonSlot + 1 }
    // Timer ids.
    static var watchdogTimer: Int { 0 }
    static var logSyncTimer: Int { 1 }
    static var ledTimer: Int { 2 }
    static var odometerTimer: Int { 3 }
    static var simulatedReleaseTimer: Int { 4 }
    static var permissionTimer: Int { 5 }

    var source: Source
    var receiver = NMEAReceiver()
    var pipeline: FixPipeline
    var timers = TimerHeap()
    var poller = Poller()
    let signals: SignalDescriptor
    var control: ControlServer
    let notify = SdNotify()
    let input: UnsafeMutableRawBufferPointer
    var stopping = false
    /// Fence event commands, started after each read and reaped on SIGCHLD.
    var commands = CommandRunner(maximum: 0)
    /// The persisted permission state (and later the odometer), saved when it changes.
    var stateFile: StateFile<PosixStateFileStorage>
    var persisted: PersistedState
    /// The track log (nil when its directory could not be opened: status and doctor say why).
    var logWriter: LogWriter<PosixLogFiles>?
    /// The last good fix's time when the receiver was lost: the start of a gap record.
    var receiverLostAt: UTCTime?
    /// The configuration in force, where it came from and the board's pin map (SIGHUP reads
    /// them again: Daemon+Reload.swift).
    var config: TrackdConfig
    let configSource: ConfigSource
    let boardMap: BoardMap
    /// LEDs, button and in-use input (BoardDriver.swift, Daemon+Board.swift).
    var driver: BoardDriver<GPIO>
    /// When the odometer was last saved (Daemon+Odometer.swift).
    var odometerSavedAt: MonotonicTime?
    /// Syncs announced on stderr so far; nil when `[log] announce-syncs` is off
    /// (Daemon+SyncAnnouncement.swift).
    var announcedSyncCount: Int?
    /// What stderr was last told about failures and recoveries (Daemon+Journal.swift).
    var journal = JournalState()

    init(source: consuming Source, pipeline: FixPipeline, signals: consuming SignalDescriptor,
         control: consuming ControlServer, stateFile: StateFile<PosixStateFileStorage>, persisted: PersistedState,
         logWriter: LogWriter<PosixLogFiles>?, driver: BoardDriver<GPIO>,
         config: TrackdConfig, configSource: ConfigSource, boardMap: BoardMap) {
        self.logWriter = logWriter
        self.source = source
        self.stateFile = stateFile
        self.persisted = persisted
        self.pipeline = pipeline
        self.signals = signals
        self.control = control
        self.config = config
        self.configSource = configSource
        self.boardMap = boardMap
        self.driver = driver
        input = .allocate(byteCount: 4096, alignment: 16)
    }

    deinit { input.deallocate() }

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    mutating func run() -> Int32 {
        var now = SystemClock.monotonic()
        pipeline.status.startedAt = now
        journal.storageErrors = pipeline.status.log.storageErrorCount
        openSource(now: now)
        appendToLog(.bootMarker(time: SystemClock.realtime(), bootID: kernelBootID()), now: now)
        if let writer = logWriter {
            timers.schedule(Self.logSyncTimer, at: now.adding(milliseconds: writer.settings.syncIntervalMilliseconds))
        }
        if let interval = notify.watchdogInterval { timers.schedule(Self.watchdogTimer, at: now.adding(nanoseconds: interval)) }
        notify.send("READY=1")
        while true {
            step(now: now)
            if stopping { break }
            arm()
            let deadline = earliest(earliest(timers.earliest, source.nextDeadline()), control.nextDeadline())
            do {
                try poller.wait(until: deadline, now: now)
            } catch {
                try? FileDescriptor.standardError.writeAll("trackd: poll failed: \(error.message)\n")
                return 1
            }
            now = SystemClock.monotonic()
        }
        notify.send("STOPPING=1")
        // SIGTERM: what is held goes to flash before trackd exits.
        logWriter?.close(now: now)
        if let status = logWriter?.status { pipeline.status.log = status }
        announceSyncIfNew()
        saveOdometer(now: now)
        journalChanges()
        // Dark LEDs on the way out: a stopped trackd must not look like one with a fix.
        try? driver.board.show(LEDLevels())
        driver.board.release()
        source.close()
        return 0
    }

    mutating func arm() {
        poller.watch(Self.sourceSlot, source.descriptor)
        poller.watch(Self.signalSlot, signals.descriptor)
        poller.watch(Self.listenerSlot, control.listener)
        for index in 0..<ControlServer.clientCapacity {
            poller.watch(Self.firstClientSlot + index, control.descriptor(of: index),
                         writable: control.hasPendingReply(index))
        }
        poller.watch(Self.buttonSlot, driver.board.buttonDescriptor)
        poller.watch(Self.inUseSlot, driver.board.inUseDescriptor)
    }

    /// Everything one wake-up does, with its one `now`.
    mutating func step(now: MonotonicTime) {
        pipeline.status.wakeUps = poller.wakeUps
        if poller.isReady(Self.signalSlot) { handleSignals(now: now) }
        if poller.isReady(Self.sourceSlot) || source.nextDeadline().map({ $0 <= now }) == true {
            readSource(now: now)
            if pipeline.pendingCommands.count > 0 { handleFenceEvents(now: now) }
        }
        // A closed source says when to retry (backoff); one that names no time (a replay at
        // its end) stays closed.
        if source.descriptor == nil && !source.status.isOpen, let retry = source.nextDeadline(), retry <= now {
            openSource(now: now)
        }
        if poller.isReady(Self.listenerSlot) { control.acceptClients(now: now) }
        for index in 0..<ControlServer.clientCapacity {
            let slot = Self.firstClientSlot + index
            guard poller.isReady(slot) || poller.isWritable(slot) else { continue }
            var status = pipeline.status
            control.service(index, now: now) { request, reply in
                ControlProtocol.answer(request, status: &status, now: now, reply: &reply)
            }
            pipeline.status = status
            if let label = pipeline.status.pendingWaypoint {
                pipeline.status.pendingWaypoint = nil
                recordWaypoint(label: label, now: now)
            }
        }
        control.expire(now: now)
        expirePrecise(now: now)
        if pipeline.status.permissionChanged { savePermission(now: now) }
        pipeline.status.controlRefused = control.refused
        pipeline.status.controlDropped = control.dropped
        while let timer = timers.popExpired(now: now) {
            if timer == Self.watchdogTimer, let interval = notify.watchdogInterval {
                notify.send("WATCHDOG=1")
                timers.schedule(Self.watchdogTimer, at: now.adding(nanoseconds: interval))
            } else if timer == Self.simulatedReleaseTimer {
                driver.releaseSimulated(now: now)
            }
            if timer == Self.logSyncTimer, logWriter != nil {
                logWriter?.sync(now: now)
                if let writer = logWriter {
                    pipeline.status.log = writer.status
                    timers.schedule(Self.logSyncTimer, at: now.adding(milliseconds: writer.settings.syncIntervalMilliseconds))
                }
            }
        }
        // Last, so the LEDs show everything this wake-up changed.
        serviceBoard(now: now)
        saveOdometerIfDue(now: now)
        announceSyncIfNew()
        journalChanges()
    }

    /// Ends a `precise --for` on the monotonic clock, whether fixes arrive or not, and keeps a
    /// timer at its end so the loop wakes for it.
    mutating func expirePrecise(now: MonotonicTime) {
        if pipeline.status.permission.expire(now: now) != nil { pipeline.status.permissionChanged = true }
        if let until = pipeline.status.permission.preciseUntil {
            timers.schedule(Self.permissionTimer, at: until)
        } else {
            timers.cancel(Self.permissionTimer)
        }
    }

    /// Writes the permission state atomically (temp file, fsync, rename, fsync directory); a
    /// failure is shown by `trackctl status` and `doctor`, and the next change tries again.
    mutating func savePermission(now: MonotonicTime) {
        pipeline.status.permissionChanged = false
        if pipeline.status.fences.fences.count > 0 { pipeline.updateFenceEvaluation(now: now) }
        let old = persisted.permission.state
        let new = pipeline.status.permission.state
        if old != new, let from = LogPermissionState(rawValue: old.rawValue),
           let to = LogPermissionState(rawValue: new.rawValue) {
            appendToLog(.permissionChange(time: pipeline.status.utcNow, old: from, new: to), now: now)
        }
        persisted.permission = pipeline.status.permission
        persisted.odometerMillimetres = pipeline.status.odometer.totalMillimetres
        persisted.saveCount &+= 1
        do {
            try stateFile.save(persisted)
            pipeline.status.stateProblem = nil
        } catch {
            pipeline.status.stateProblem = error.message
        }
    }

    mutating func openSource(now: MonotonicTime) {
        do {
            try source.open(now: now)
        } catch {
            // The source keeps the error in its status and a backoff deadline; doctor explains.
        }
        pipeline.status.source = source.status
    }

    mutating func readSource(now: MonotonicTime) {
        // A bounded number of reads per wake-up: a flooding device cannot starve the socket.
        for _ in 0..<16 {
            let count: Int
            do {
                count = try source.read(into: input, now: now)
            } catch {
                // The receiver is lost: the next recorded fix follows a gap record.
                if receiverLostAt == nil { receiverLostAt = pipeline.status.lastGoodFix?.time }
                pipeline.status.source = source.status
                return
            }
            if count == 0 { break }
            pipeline.status.bytesRead += count
            pipeline.status.lastByteAt = now
            var receiver = self.receiver
            var pipeline = self.pipeline
            // Moved out, not copied: a copy would make the writer's buffers copy on write.
            var writer = logWriter.take()
            var lostAt = receiverLostAt
            receiver.consume(UnsafeRawBufferPointer(rebasing: input[0..<count])) { fix in
                if let recorded = pipeline.handle(fix, now: now) {
                    DaemonLog.record(recorded, into: &writer, lostAt: &lostAt, now: now)
                }
            }
            pipeline.status.counters = receiver.counters
            pipeline.status.countRead(bytes: count, now: now)
            if let status = writer?.status { pipeline.status.log = status }
            self.receiver = receiver
            self.pipeline = pipeline
            logWriter = writer
            receiverLostAt = lostAt
        }
        let counters = receiver.counters
        source.observe(acceptedSentences: counters.accepted,
                       rejectedSentences: counters.badChecksum + counters.malformed + counters.overlong,
                       now: now)
        pipeline.status.source = source.status
    }

    mutating func handleSignals(now: MonotonicTime) {
        while let signal = try? signals.next() {
            switch signal {
            case .stop:
                stopping = true
            case .reload:
                reload(now: now)
            case .child:
                commands.reap()
                mirrorCommandCounters()
            }
        }
    }
}

extension Daemon where Source: ~Copyable {
    /// Appends `record` to the log, if there is one, and refreshes the log's status.
    mutating func appendToLog(_ record: LogRecord, now: MonotonicTime) {
        guard logWriter != nil else { return }
        logWriter?.append(record, now: now)
        if let status = logWriter?.status { pipeline.status.log = status }
    }
}

/// The earlier of two optional deadlines.
func earliest(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}

extension Daemon where Source: ~Copyable {
    /// The fence events of the last read: each goes to the track log, and its fence's command
    /// is started, at most the configured number at once (the rest are skipped and counted).
    /// Runs per event, not per fix.
    mutating func handleFenceEvents(now: MonotonicTime) {
        let (events, count) = pipeline.pendingCommands.removeAll()
        commands.maximum = pipeline.status.fenceCommands.limit
        let fences = pipeline.status.fences.fences
        for index in 0..<count {
            guard let event = events[index], event.fence < fences.count, let kind = event.transition.logKind else { continue }
            appendToLog(.fenceEvent(time: event.time, fenceID: UInt32(truncatingIfNeeded: event.fence), kind: kind,
                                    position: LogPosition(event.position)), now: now)
            let fence = fences.fences[event.fence]
            guard !fence.command.isEmpty else { continue }
            if case .failed(let error) = commands.start(fence.command, environment: FenceCommandEnvironment.variables(fence, event)) {
                try? FileDescriptor.standardError.writeAll("trackd: fence \(fence.id): cannot run \(fence.command[0]): \(error.message)\n")
            }
        }
        mirrorCommandCounters()
    }

    mutating func mirrorCommandCounters() {
        pipeline.status.fenceCommands.started = commands.started
        pipeline.status.fenceCommands.skipped = commands.skipped
        pipeline.status.fenceCommands.failedToStart = commands.failedToStart
        pipeline.status.fenceCommands.failedExits = commands.failedExits
        pipeline.status.fenceCommands.running = commands.running
    }
}
