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
    /// Control socket.
    var controlPath = ""
    var controlRefused = 0
    var controlDropped = 0
    /// Loop wake-ups.
    var wakeUps = 0
    /// Geofences: the monitor (its state is shared by copies of the status), the file, and
    /// what they did. The fence LED reads `fencesInside` (on while > 0) and `lastFenceEventAt`
    /// (flashes after an enter, exit or dwell).
    var fences = FenceMonitor(fences: FenceSet(), settings: FenceSettings())
    var fencesFile = ""
    var fencesInside = 0
    var lastFenceEventAt: MonotonicTime?
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
