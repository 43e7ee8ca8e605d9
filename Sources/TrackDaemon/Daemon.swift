import TrackCore
import TrackIO

/// The daemon: the loop (`EventLoop`, which knows nothing of GPS) serving a fixed set of
/// services, each owning its state, its descriptors and its behaviour. The daemon only wires
/// them: what each watches before the wait, whom a wake-up serves in which order, and the
/// path of a fix from one service to the next. One thread, one `poll` per wake-up, one `Wake`
/// (time, disclosure, whether fences may run) handed down; every buffer is allocated before
/// the loop starts. `DaemonBuilder` makes it, for trackd, the tests and the fuzz targets.
///
/// Every method and computed property of it is `mutating`, even those that only read: the
/// firmware's compiler copies a borrowed Daemon (about 15 KB) to the stack to read it, and
/// `mutating` passes it in place.
struct Daemon<Source: ReceiverSource & ~Copyable, GPIO: GPIOBackend>: ~Copyable {
    var loop = EventLoop()
    var process: ProcessService
    var receiver: ReceiverService<Source>
    var fixes: FixPipeline
    var state: StateService<PosixStateFileStorage>
    var trackLog: TrackLogService
    var fences: FenceService
    var places: PlaceService
    var time: TimeService
    var board: BoardService<GPIO>
    /// Out of its place only while it serves (it is handed the daemon as its host).
    var control: ControlService?
    var gpsd: GpsdService
    var waypoints = StatusModel.WaypointFacts()
    /// The control socket's path and refusals as of its last wake-up, for status.
    var controlFacts = (path: "", refused: 0, dropped: 0)
    var startedAt = MonotonicTime(nanoseconds: 0)
    var stopping = false

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    mutating func run() -> Int32 {
        var now = SystemClock.monotonic()
        loop.realtimeNanoseconds = SystemClock.realtimeNanoseconds()
        start(now: now, bootTime: SystemClock.realtime())
        process.tell("READY=1")
        while true {
            step(now: now)
            if stopping { break }
            arm()
            do {
                now = try loop.wait(now: now)
            } catch {
                Journal.say("poll failed: " + error.message)
                return 1
            }
        }
        process.tell("STOPPING=1")
        finish(now: now)
        return 0
    }

    /// Start-up at `now`: the source opened, the boot marker logged (`bootTime` is the system's
    /// clock, the only one before a fix), the timers set.
    mutating func start(now: MonotonicTime, bootTime: UTCTime) {
        startedAt = now
        receiver.open(now: now)
        trackLog.append(.bootMarker(time: bootTime, bootID: kernelBootID()), now: now)
        trackLog.serviceTimer(&loop, timer: TimerID.logSync, now: now)
        process.startWatchdog(&loop, timer: TimerID.watchdog, now: now)
        // The configuration's and fences' parse is done and freed: not resident from here on.
        ProcessMemory.releaseFree()
    }

    /// SIGTERM: what is held goes to flash, the odometer is saved, the LEDs go dark.
    mutating func finish(now: MonotonicTime) {
        trackLog.close(now: now)
        state.saveOdometer(now: now)
        board.shutDown()
        receiver.close()
    }

    /// What each service wants watched and when it wants to be woken, before the wait.
    mutating func arm() {
        process.arm(&loop, slot: Slot.signals)
        receiver.arm(&loop, slot: Slot.receiver)
        board.arm(&loop, button: Slot.button, inUse: Slot.inUse)
        control?.arm(&loop, slots: Slot.control)
        gpsd.arm(&loop, slots: Slot.gpsd)
    }

    /// What a wake-up at `now` decides once: what the permission lets out, with the board's
    /// in-use input and the trip the fixes say.
    mutating func wake(_ now: MonotonicTime) -> Wake {
        Wake(now: now, realtimeNanoseconds: loop.realtimeNanoseconds, permission: state.permission, inUse: board.inUse,
             hasInUseInput: board.hasInUseInput, onTrip: fixes.onTrip, recordTime: fixes.recordTime)
    }

    /// Everything one wake-up does, with its one `Wake`.
    mutating func step(now: MonotonicTime) {
        var wake = wake(now)
        while let signal = process.nextSignal(loop, slot: Slot.signals) {
            switch signal {
            case .stop: stopping = true
            case .reload: reload(now: now)
            case .child: fences.reap()
            }
        }
        if receiver.wantsRead(loop, slot: Slot.receiver, now: now) { readReceiver(&wake) }
        receiver.reopenIfDue(now: now)
        serveControl(now: now)
        gpsd.serve(loop, slots: Slot.gpsd, wake: wake, receiver: receiver)
        state.expirePrecise(now: now, &loop, timer: TimerID.precise)
        process.keepAlive(&loop, timer: TimerID.watchdog, now: now)
        board.serviceReleaseTimer(loop, releaseTimer: TimerID.simulatedRelease, now: now)
        trackLog.serviceTimer(&loop, timer: TimerID.logSync, now: now)
        // The button last but one (its presses change the state), the LEDs last, so they show
        // everything this wake-up changed.
        board.readInputs(loop, button: Slot.button, inUse: Slot.inUse, now: now)
        while let press = board.nextPress(now: now) {
            switch press {
            case .shortPress: recordWaypoint(label: WaypointLabel(static: "button"), self.wake(now))
            case .longPress: board.privacyToggled(state.toggle(now: now), now: now)
            }
        }
        receiver.serveControl(wake, PowerInputs(fixes.motion, board.status, nearFence: fences.nearEdge, state.permission))
        commitPermission(&wake)
        showLEDs(now: now)
        state.saveOdometerIfDue(now: now, &loop, timer: TimerID.odometer)
        trackLog.announceSyncIfNew()
    }

    /// Reads the receiver (at most 16 times: a flooding device cannot starve the rest) and
    /// handles each fix in its own scope; gpsd's raw watchers take each verified sentence.
    mutating func readReceiver(_ wake: inout Wake) {
        reads: for _ in 0..<16 {
            gpsd.prepareSentences(wake)
            switch receiver.read(now: wake.now, realtime: loop.realtimeNanoseconds) {
            case .lost:
                // The next recorded fix follows a gap record.
                trackLog.receiverLost(lastFixTime: fixes.lastGoodFixTime)
                break reads
            case .nothing:
                break reads
            case .bytes:
                while let fix = receiver.nextFix(now: wake.now, sentences: &gpsd) { handle(fix, &wake) }
            }
        }
        receiver.observe(now: wake.now)
        if fences.hasPending { fences.flush(into: &trackLog, now: wake.now) }
    }

    /// Saves a changed permission, logs the change of state and hands out the new `wake`.
    mutating func commitPermission(_ wake: inout Wake) {
        guard state.changed else { return }
        wake = self.wake(wake.now)
        fences.allow(wake.fencesAllowed)
        if let change = state.commit(), let from = LogPermissionState(rawValue: change.old.rawValue),
           let to = LogPermissionState(rawValue: change.new.rawValue) {
            trackLog.append(.permissionChange(time: wake.utc, old: from, new: to), now: wake.now)
        }
    }

    /// The LEDs show what the services say at `now`; their timer goes to the next edge.
    mutating func showLEDs(now: MonotonicTime) {
        guard board.isActive else { return }
        let sources = LEDSources(
            source: receiver.sourceStatus, lastByteAt: receiver.lastByteAt, lastGoodFix: fixes.lastGoodFix,
            lastGoodFixAt: fixes.lastGoodFixAt, permission: state.permission, onTrip: fixes.onTrip, gpio: board.status,
            storageError: trackLog.storageError, insideFence: fences.insideAny, lastFenceEventAt: fences.lastEventAt,
            lastSyncAt: trackLog.lastSync, receiverAsleep: receiver.isAsleep)
        let (inputs, changeAt) = sources.inputs(now: now)
        board.show(inputs, changeAt: changeAt, now: now, &loop, timer: TimerID.leds)
    }
}
