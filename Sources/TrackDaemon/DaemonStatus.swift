import TrackCore
import TrackIO

/// Everything `trackctl status`, `where` and `doctor` report, kept current by the loop.
/// Fixed-size: updating it never allocates.
struct DaemonStatus {
    var startedAt = MonotonicTime(nanoseconds: 0)
    /// The source's path, baud and errors.
    var source = SourceStatus(path: "")
    /// Receiver counters, and the accepted count at the start of the rate window.
    var counters = NMEACounters()
    var rateWindowStart = MonotonicTime(nanoseconds: 0)
    var rateWindowAccepted = 0
    var sentencesPerSecondTenths = 0
    var bytesRead = 0
    var lastByteAt: MonotonicTime?
    /// The latest fix from the receiver (any mode) and when it arrived.
    var lastFix: Fix?
    var lastFixAt: MonotonicTime?
    /// The latest fix that passed the filter, its accuracy, and when.
    var lastGoodFix: Fix?
    var lastGoodAccuracyMillimetres: Int64?
    var lastGoodFixAt: MonotonicTime?
    /// Time to first fix, from start-up.
    var firstFixAfterMilliseconds: Int64?
    /// Filter decisions and the last rejection's reason.
    var filter = FilterCounters()
    var lastRejection: FilterRejection?
    /// Sampling decisions and the last record's trigger.
    var sampling = SamplingCounters()
    var lastTrigger: RecordTrigger?
    /// The sampling profile in force.
    var profile = SamplingProfile.track
    /// Permission: what may be logged, and whether it changed since the state file was saved.
    var permission = Permission()
    var permissionChanged = false
    var onTrip = false
    var notAllowed = 0
    var statePath = ""
    var stateProblem: String?
    /// Waypoints marked since start and the last label.
    var waypoints = 0
    var lastWaypointLabel = WaypointLabel()
    /// Waypoints refused (button or `mark`: not allowed, stale or no fix) and the last reason.
    var waypointsRefused = 0
    var lastWaypointRefusal: PositionRefusal?

    /// The track log: its directory, the writer's counters and flag, and why it did not open.
    var logDirectory = ""
    var log = LogWriterStatus()
    var logOpenError: String?
    /// The log's quota (`[log] quota`) and the file system holding it (found at start-up and
    /// when the log is blocked; nil when unknown).
    var logQuotaBytes = 0
    var logFileSystem: FileSystemInfo?
    /// Control socket.
    var controlPath = ""
    var controlRefused = 0
    var controlDropped = 0
    /// Loop wake-ups.
    var wakeUps = 0
    /// The board: GPIO lines, what the LEDs show, the button and the in-use input.
    var gpio = GPIOStatus()
    /// The odometer: length of the recorded track (TrackCore's `Odometer`), saved every 30 s.
    var odometer = Odometer()
    /// A `mark` from the control socket that the loop records next (`Daemon.recordWaypoint`).
    var pendingWaypoint: WaypointLabel?
    // Inputs of the LEDs that other parts of the daemon set:
    /// True while the track log cannot be written (the writer's flag after a failed sync, or a
    /// log directory that did not open): led-status blinks fast above every other pattern.
    var storageError: Bool { log.storageError || logOpenError != nil }
    /// When the track log was last synced to flash: led-log flashes.
    var lastSyncAt: MonotonicTime? { log.lastSync }
    /// Inside at least one geofence (set by the fence engine): led-fence lit.
    var insideFence = false
    /// When a fence was last entered or left (set by the fence engine): led-fence flashes 3 times.
    var lastFenceEventAt: MonotonicTime?
    /// Geofences: the monitor (its state is shared by copies of the status), the file, and
    /// what they did. The fence LED reads `insideFence` (fencesInside > 0) and
    /// `lastFenceEventAt` (set on enter, exit and dwell), below.
    var fences = FenceMonitor(fences: FenceSet(), settings: FenceSettings())
    var fencesFile = ""
    var fencesInside = 0
    var lastFenceEvent: FenceEventRecord?
    var fenceEvents = 0
    /// Whether the last accepted fix was checked against the fences (permission, accuracy).
    var fencesEvaluated = false
    /// Fence event commands: started, skipped (too many running), failed to start, exited non-zero.
    var fenceCommands = FenceCommandCounters()
    /// Configuration file and reloads.
    var configPath = ""
    var reloads = 0
    var lastReloadError: String?

    /// Updates the sentence rate: accepted sentences per second over the current window,
    /// which restarts every 10 s (so the rate follows changes but does not jitter per epoch).
    mutating func updateRate(now: MonotonicTime) {
        let elapsed = now.milliseconds(since: rateWindowStart)
        guard elapsed >= 1_000 else { return }
        sentencesPerSecondTenths = Int(Int64(counters.accepted - rateWindowAccepted) * 10_000 / elapsed)
        if elapsed >= 10_000 {
            rateWindowStart = now
            rateWindowAccepted = counters.accepted
        }
    }
}

/// A waypoint label of at most 64 bytes, held without the heap.
struct WaypointLabel {
    var bytes: InlineArray<64, UInt8> = InlineArray(repeating: 0)
    var count = 0

    init() {}

    /// The first 64 bytes of `span`.
    init(_ span: Span<UInt8>) {
        for index in 0..<min(span.count, 64) { bytes[index] = span[index] }
        count = min(span.count, 64)
    }

    func write(to line: inout TextBuffer) {
        for index in 0..<count { line.append(bytes[index]) }
    }
}
