import TrackCore
import TrackIO

/// The daemon: one thread, one poll over the receiver source, a signalfd and the control
/// socket; one clock reading per wake-up; every buffer allocated before the loop starts.
struct Daemon<Source: ReceiverSource & ~Copyable>: ~Copyable {
    // Poll slots.
    static var sourceSlot: Int { 0 }
    static var signalSlot: Int { 1 }
    static var listenerSlot: Int { 2 }
    static var firstClientSlot: Int { 3 }
    // Timer ids.
    static var watchdogTimer: Int { 0 }

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
    /// Called on SIGHUP with the pipeline to reconfigure; returns an error text or nil.
    let reload: (inout FixPipeline) -> String?

    init(source: consuming Source, pipeline: FixPipeline, signals: consuming SignalDescriptor,
         control: consuming ControlServer, stateFile: StateFile<PosixStateFileStorage>, persisted: PersistedState,
         reload: @escaping (inout FixPipeline) -> String?) {
        self.source = source
        self.stateFile = stateFile
        self.persisted = persisted
        self.pipeline = pipeline
        self.signals = signals
        self.control = control
        self.reload = reload
        input = .allocate(byteCount: 4096, alignment: 16)
    }

    deinit { input.deallocate() }

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    mutating func run() -> Int32 {
        var now = SystemClock.monotonic()
        pipeline.status.startedAt = now
        pipeline.status.rateWindowStart = now
        openSource(now: now)
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
    }

    /// Everything one wake-up does, with its one `now`.
    mutating func step(now: MonotonicTime) {
        pipeline.status.wakeUps = poller.wakeUps
        if poller.isReady(Self.signalSlot) { handleSignals(now: now) }
        if poller.isReady(Self.sourceSlot) || source.nextDeadline().map({ $0 <= now }) == true {
            readSource(now: now)
            if pipeline.pendingCommands.count > 0 { runFenceCommands() }
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
        }
        control.expire(now: now)
        if pipeline.status.permissionChanged { savePermission() }
        pipeline.status.controlRefused = control.refused
        pipeline.status.controlDropped = control.dropped
        pipeline.status.updateRate(now: now)
        while let timer = timers.popExpired(now: now) {
            if timer == Self.watchdogTimer, let interval = notify.watchdogInterval {
                notify.send("WATCHDOG=1")
                timers.schedule(Self.watchdogTimer, at: now.adding(nanoseconds: interval))
            }
        }
    }

    /// Writes the permission state atomically (temp file, fsync, rename, fsync directory); a
    /// failure is shown by `trackctl status` and `doctor`, and the next change tries again.
    mutating func savePermission() {
        pipeline.status.permissionChanged = false
        persisted.permission = pipeline.status.permission
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
                pipeline.status.source = source.status
                return
            }
            if count == 0 { break }
            pipeline.status.bytesRead += count
            pipeline.status.lastByteAt = now
            var receiver = self.receiver
            var pipeline = self.pipeline
            receiver.consume(UnsafeRawBufferPointer(rebasing: input[0..<count])) { fix in
                pipeline.handle(fix, now: now)
            }
            pipeline.status.counters = receiver.counters
            self.receiver = receiver
            self.pipeline = pipeline
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
                notify.send("RELOADING=1")
                var pipeline = self.pipeline
                let error = reload(&pipeline)
                pipeline.status.reloads += error == nil ? 1 : 0
                pipeline.status.lastReloadError = error
                self.pipeline = pipeline
                notify.send("READY=1")
            case .child:
                commands.reap()
                mirrorCommandCounters()
            }
        }
    }
}

/// The earlier of two optional deadlines.
func earliest(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}

extension Daemon where Source: ~Copyable {
    /// Starts the commands of the fence events of the last read, at most the configured number
    /// at once; the rest are skipped and counted. Runs per event, not per fix.
    mutating func runFenceCommands() {
        let (events, count) = pipeline.pendingCommands.removeAll()
        commands.maximum = pipeline.status.fenceCommands.limit
        let fences = pipeline.status.fences.fences
        for index in 0..<count {
            guard let event = events[index], event.fence < fences.count else { continue }
            let fence = fences.fences[event.fence]
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
