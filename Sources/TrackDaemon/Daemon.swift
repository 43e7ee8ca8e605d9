import TrackCore
import TrackIO

/// The daemon: the loop (`EventLoop`, which knows nothing of GPS) serving a fixed set of
/// services, each owning its state and descriptors: the receiver, the fix pipeline, the state
/// file, the track log, the fences, the place names, the time for chrony, the board and the control socket. One thread, one `poll`
/// per wake-up, one clock reading passed down; every buffer is allocated before the loop starts.
///
/// `run` is the process's loop. A test builds the daemon with a source and a GPIO backend of
/// its own (`Daemon<Script, FakeGPIOBackend>`) and calls `start` and `step` with the times it
/// chooses: no wall clock, no sleeps. trackd itself is one specialisation,
/// `Daemon<TrackdSource, TrackdGPIO>`.
///
/// Every method and computed property of it is `mutating`, even those that only read: the
/// firmware's compiler copies a borrowed Daemon (about 14.7 KB) to the stack to read it, so a
/// reading method called from the loop cost a copy of the whole daemon each time (2 per read
/// of the receiver) and 14.7 KB of stack that stays resident. `mutating` passes it in place.
struct Daemon<Source: ReceiverSource & ~Copyable, GPIO: GPIOBackend>: ~Copyable {
    var loop = EventLoop()
    var receiver: ReceiverService<Source>
    var fixes: FixPipeline
    var state: StateService<PosixStateFileStorage>
    var trackLog: TrackLogService
    var fences: FenceService
    var places: PlaceService
    var time: TimeService
    var board: BoardService<GPIO>
    /// nil in a test that does not need the socket.
    var control: ControlService?
    /// gpsd's protocol; nil when `[gpsd] listen` is empty (and in tests that do not need it).
    var gpsd: GpsdService?
    /// nil in a test: signals are the process's.
    let signals: SignalDescriptor?
    let signalsDescriptor: FileDescriptor?
    let notify: SdNotify
    /// The configuration in force, where it came from and the board's pin map (SIGHUP reads
    /// them again: Daemon+Reload.swift).
    var config: TrackdConfig
    let configSource: ConfigSource
    let boardMap: BoardMap
    var reloads = StatusModel.DaemonFacts()
    var waypoints = StatusModel.WaypointFacts()
    /// What stderr was last told about failures and recoveries (Daemon+Journal.swift).
    var journal = JournalState()
    var startedAt = MonotonicTime(nanoseconds: 0)
    var stopping = false

    init(receiver: consuming ReceiverService<Source>, state: StateService<PosixStateFileStorage>,
         trackLog: consuming TrackLogService, fences: FenceService, places: consuming PlaceService,
         time: consuming TimeService, board: BoardService<GPIO>,
         control: consuming ControlService?, signals: consuming SignalDescriptor?,
         config: TrackdConfig, configSource: ConfigSource, boardMap: BoardMap, gpsd: consuming GpsdService? = nil) {
        self.receiver = receiver
        fixes = FixPipeline(config)
        self.state = state
        self.trackLog = trackLog
        self.fences = fences
        self.places = places
        self.time = time
        self.board = board
        self.control = control
        self.gpsd = gpsd
        signalsDescriptor = signals?.descriptor
        self.signals = signals
        notify = SdNotify()
        self.config = config
        self.configSource = configSource
        self.boardMap = boardMap
        reloads.configPath = configSource.path
        reloads.controlPath = config.control.socket
    }

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    mutating func run() -> Int32 {
        var now = SystemClock.monotonic()
        start(now: now, bootTime: SystemClock.realtime())
        notify.send("READY=1")
        while true {
            step(now: now)
            if stopping { break }
            arm(now: now)
            do {
                now = try loop.wait(now: now)
            } catch {
                try? FileDescriptor.standardError.writeAll("trackd: poll failed: \(error.message)\n")
                return 1
            }
        }
        notify.send("STOPPING=1")
        finish(now: now)
        return 0
    }

    /// Start-up at `now`: the source opened, the boot marker logged (`bootTime` is the system's
    /// clock, the only one before a fix), the timers set.
    mutating func start(now: MonotonicTime, bootTime: UTCTime) {
        startedAt = now
        journal.storageErrors = trackLog.status.storageErrorCount
        receiver.open(now: now)
        journalPlaces()
        journalTime()
        trackLog.append(.bootMarker(time: bootTime, bootID: kernelBootID()), now: now)
        trackLog.serviceTimer(&loop, timer: TimerID.logSync, now: now)
        if let interval = notify.watchdogInterval { loop.schedule(TimerID.watchdog, at: now.adding(nanoseconds: interval)) }
        // The configuration's and fences' parse is done and freed: not resident from here on.
        ProcessMemory.releaseFree()
    }

    /// SIGTERM: what is held goes to flash, the odometer is saved, the LEDs go dark.
    mutating func finish(now: MonotonicTime) {
        trackLog.close(now: now)
        trackLog.announceSyncIfNew()
        state.saveOdometer(now: now)
        journalChanges()
        board.shutDown()
        receiver.source.close()
    }

    /// What each service wants watched and when it wants to be woken, before the wait.
    mutating func arm(now: MonotonicTime) {
        loop.watch(Slot.signals, signalsDescriptor)
        receiver.arm(&loop, slot: Slot.receiver)
        board.arm(&loop, button: Slot.button, inUse: Slot.inUse)
        control?.arm(&loop, slots: Slot.control)
        gpsd?.arm(&loop, slots: Slot.gpsd)
    }

    /// Everything one wake-up does, with its one `now`.
    mutating func step(now: MonotonicTime) {
        if loop.isReady(Slot.signals) { handleSignals(now: now) }
        if receiver.wantsRead(loop, slot: Slot.receiver, now: now) { readReceiver(now: now) }
        receiver.reopenIfDue(now: now)
        serveControl(now: now)
        serveGpsd(now: now)
        state.expirePrecise(now: now, &loop, timer: TimerID.precise)
        commitPermission(now: now)
        if loop.isDue(TimerID.watchdog), let interval = notify.watchdogInterval {
            notify.send("WATCHDOG=1")
            loop.schedule(TimerID.watchdog, at: now.adding(nanoseconds: interval))
        }
        board.serviceReleaseTimer(loop, releaseTimer: TimerID.simulatedRelease, now: now)
        trackLog.serviceTimer(&loop, timer: TimerID.logSync, now: now)
        // Last, so the LEDs show everything this wake-up changed.
        serviceBoard(now: now)
        state.saveOdometerIfDue(now: now, &loop, timer: TimerID.odometer)
        trackLog.announceSyncIfNew()
        journalChanges()
    }

    /// Reads the receiver (at most 16 times: a flooding device cannot starve the rest) and
    /// handles each fix in its own scope.
    mutating func readReceiver(now: MonotonicTime) {
        reads: for _ in 0..<16 {
            switch receiver.read(now: now, realtime: loop.realtimeNanoseconds) {
            case .lost:
                // The next recorded fix follows a gap record.
                trackLog.receiverLost(lastFixTime: fixes.lastGoodFix?.time)
                break reads
            case .nothing:
                break reads
            case .bytes:
                forwardGpsdSentences(now: now)
                while let fix = receiver.nextFix(now: now) { handle(fix, now: now) }
            }
        }
        receiver.observe(now: now)
        if fences.hasPending { fences.flush(into: &trackLog, now: now) }
    }

    /// Saves a changed permission and logs the change of state.
    mutating func commitPermission(now: MonotonicTime) {
        guard state.changed else { return }
        fences.allow(mayEvaluateFences(now: now))
        if let change = state.commit(), let from = LogPermissionState(rawValue: change.old.rawValue),
           let to = LogPermissionState(rawValue: change.new.rawValue) {
            trackLog.append(.permissionChange(time: utcNow, old: from, new: to), now: now)
        }
    }

    mutating func handleSignals(now: MonotonicTime) {
        while let signal = try? signals?.next() {
            switch signal {
            case .stop: stopping = true
            case .reload: reload(now: now)
            case .child: fences.reap()
            }
        }
    }

    /// The UTC time of records that are not fixes: the system clock's until this boot logged
    /// its first fix, the receiver's from then on. That is the log's rule (a boot marker and
    /// what follows it up to the next fix are on the system clock: docs/log-format.md), so
    /// readers know which times a board without a real-time clock may have got wrong.
    var utcNow: UTCTime {
        mutating get {
            guard fixes.recordedFix, let time = fixes.lastFix?.time else { return SystemClock.realtime() }
            return time
        }
    }
}

/// The loop's slots, one range per service.
enum Slot {
    static var signals: Int { 0 }
    static var receiver: Int { 1 }
    static var button: Int { 2 }
    static var inUse: Int { 3 }
    /// The control socket's listener, then its clients.
    static var control: Range<Int> { 4..<(5 + ControlServer.clientCapacity) }
    /// gpsd's listeners, then its clients.
    static var gpsd: Range<Int> {
        control.upperBound..<(control.upperBound + TrackdConfig.Gpsd.maxListeners + TrackdConfig.Gpsd.clientLimit)
    }
}

/// The loop's timers.
enum TimerID {
    static var watchdog: Int { 0 }
    static var logSync: Int { 1 }
    static var leds: Int { 2 }
    static var odometer: Int { 3 }
    static var simulatedRelease: Int { 4 }
    static var precise: Int { 5 }
}

/// The earlier of two optional deadlines.
func earliest(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
