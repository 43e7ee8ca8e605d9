import TrackCore
import TrackIO

/// Everything `trackctl status`, `where` and `doctor` report, kept current by the loop.
/// Fixed-size: updating it never allocates.
struct DaemonStatus {
    var startedAt = MonotonicTime(nanoseconds: 0)
    /// The source's path, baud and errors.
    var source = SourceStatus(path: "")
    /// Receiver counters since start, and what the last seconds brought (status and doctor
    /// judge the link on those); the totals last counted into `activity`.
    var counters = NMEACounters()
    var activity = RecentActivity()
    var acceptedCounted = 0
    var rejectedCounted = 0
    var bytesRead = 0
    var lastByteAt: MonotonicTime?
    /// The latest fix from the receiver (any mode) and when it arrived; when the last 2D or 3D
    /// one arrived.
    var lastFix: Fix?
    var lastFixAt: MonotonicTime?
    var lastFixedAt: MonotonicTime?
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
    /// Keys the last reload changed that take effect only at a restart, e.g. `control.socket`.
    var reloadNeedsRestart: String?
    /// Why the fences file was not loaded at start (trackd tracks without fences), until a
    /// reload loads one.
    var fencesLoadError: String?

    /// The window status and doctor judge the receiver on: the last 5 s.
    static let recentMilliseconds: Int64 = 5_000

    /// Counts one read into `activity`: its bytes and the sentences the core judged since the
    /// last count.
    mutating func countRead(bytes: Int, now: MonotonicTime) {
        let rejected = counters.badChecksum + counters.malformed + counters.overlong
        activity.record(bytes: bytes, accepted: counters.accepted - acceptedCounted,
                        rejected: rejected - rejectedCounted, now: now)
        acceptedCounted = counters.accepted
        rejectedCounted = rejected
    }

    /// Accepted sentences per second over the last 5 s, in tenths (0 as soon as the port goes
    /// quiet, whatever came before).
    func sentencesPerSecondTenths(now: MonotonicTime) -> Int {
        activity.sentencesPerSecondTenths(overLast: Self.recentMilliseconds, now: now)
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
