import TrackCore
import TrackIO

/// The geofences: the monitor over the fences file, fed every accepted fix the permission lets
/// it see (the precise position; never in approximate mode), its events queued on the per-fix
/// path and, after each read, written to the track log with the fence's command started (at
/// most `fences.max-commands` at once; children reaped on SIGCHLD). Nothing here allocates per
/// fix; an event's command is built per event.
struct FenceService {
    var monitor: FenceMonitor
    /// The fences file, and why it did not load at start (trackd then runs without fences).
    var file: String
    var loadError: String?
    var queue = FenceEventQueue()
    var counters = FenceCommandCounters()
    var commands = CommandRunner(maximum: 0)
    /// Whether the last accepted fix was checked against the fences, and how many hold it.
    var evaluated = false
    var inside = 0
    var lastEvent: FenceEventRecord?
    var events = 0
    /// When a fence was last entered, left or dwelt in: led-fence flashes.
    var lastEventAt: MonotonicTime?

    /// The fences of `config` (an empty set when `loadError` says why none loaded).
    init(_ monitor: FenceMonitor, _ config: TrackdConfig, loadError: String?) {
        self.monitor = monitor
        file = config.fences.file
        self.loadError = loadError
        counters.limit = config.fences.maxCommands
    }

    /// New fences from a reload: every fence reports its initial state again.
    mutating func install(_ new: FenceMonitor, _ config: TrackdConfig) {
        monitor = new
        file = config.fences.file
        loadError = nil
        inside = 0
        counters.limit = config.fences.maxCommands
    }

    /// A reload: the fences read again, each reporting its initial state again.
    mutating func apply(_ plan: ReloadPlan) { install(plan.fences, plan.config) }

    /// True while a fix is inside any fence: led-fence is on.
    var insideAny: Bool { inside > 0 }

    /// True when the last fix evaluated was near a fence's edge (within its accuracy and the
    /// hysteresis band): the receiver is not put to sleep then.
    var nearEdge: Bool { evaluated && monitor.lastFixNearEdge }

    /// What status shows of the fences. The last event's id comes from the fence image, whose
    /// page need not stay resident.
    func facts() -> StatusModel.FenceFacts {
        let set = monitor.fences
        let last = lastEvent.flatMap { event in
            event.fence < set.count ? (id: set.id(of: event.fence), transition: event.transition, time: event.time) : nil
        }
        set.image.storage.releasePages()
        return StatusModel.FenceFacts(count: set.count, file: file, loadError: loadError, inside: inside, evaluated: evaluated,
                                      events: events, lastEvent: last, commands: counters)
    }

    /// Sets whether fences may be evaluated now; when the permission has just stopped them, the
    /// states start over, so nothing learnt while allowed outlives it (led-fence goes dark,
    /// `fence list` shows them unknown). Returns whether they may be.
    @discardableResult
    mutating func allow(_ permitted: Bool) -> Bool {
        let allowed = permitted && monitor.fences.count > 0
        if evaluated && !allowed {
            monitor.restart()
            inside = 0
        }
        evaluated = allowed
        return allowed
    }

    /// Feeds one accepted fix; its enter, exit and dwell events wait in the queue.
    mutating func evaluate(_ position: Coordinate, accuracyMillimetres: Int64, time: UTCTime, now: MonotonicTime) {
        guard monitor.fences.count > 0 else { return }
        // The closure fills copies: it may not reach into `self` while the monitor is being
        // updated (a memcpy of the small queue, no allocation).
        var queue = self.queue
        var counters = self.counters
        var lastEvent = self.lastEvent
        var events = self.events
        var lastEventAt = self.lastEventAt
        monitor.update(position: position, accuracyMillimetres: accuracyMillimetres,
                       timeMilliseconds: time.millisecondsSinceEpoch) { fence, transition in
            let record = FenceEventRecord(fence: fence, transition: transition, position: position,
                                          accuracyMillimetres: accuracyMillimetres, time: time)
            lastEvent = record
            events += 1
            guard transition.logKind != nil else { return }
            lastEventAt = now
            queue.push(record, &counters)
        }
        self.queue = queue
        self.counters = counters
        self.lastEvent = lastEvent
        self.events = events
        self.lastEventAt = lastEventAt
        inside = monitor.insideCount
        // The image's pages this fix touched (index nodes, the fences near it) leave resident
        // memory: along a drive they would pile up. They stay in the page cache, so the next
        // fix maps the ones it needs again without reading storage (one madvise per fix).
        monitor.fences.image.storage.releasePages()
    }

    /// True when events wait to be logged.
    var hasPending: Bool { queue.count > 0 }

    /// The queued events: each to the track log, and its fence's command started (the rest
    /// skipped and counted when too many run). Runs per event, not per fix.
    mutating func flush(into log: inout TrackLogService, now: MonotonicTime) {
        let (queued, count) = queue.removeAll()
        commands.maximum = counters.limit
        let fences = monitor.fences
        for index in 0..<count {
            guard let event = queued[index], event.fence < fences.count, let kind = event.transition.logKind else { continue }
            log.append(.fenceEvent(time: event.time, fenceID: UInt32(truncatingIfNeeded: event.fence), kind: kind,
                                   position: LogPosition(event.position)), now: now)
            let fence = fences.fences[event.fence]
            guard !fence.command.isEmpty else { continue }
            if case .failed(let error) = commands.start(fence.command, environment: FenceCommandEnvironment.variables(fence, event)) {
                try? FileDescriptor.standardError.writeAll(String(joining: "trackd: fence ", fence.id, ": cannot run ", fence.command[0], ": ", error.message, "\n"))
            }
        }
        mirrorCommandCounters()
    }

    /// SIGCHLD: the finished commands are reaped and counted.
    mutating func reap() {
        _ = commands.reap()
        mirrorCommandCounters()
    }

    private mutating func mirrorCommandCounters() {
        counters.started = commands.started
        counters.skipped = commands.skipped
        counters.failedToStart = commands.failedToStart
        counters.failedExits = commands.failedExits
        counters.running = commands.running
    }
}
