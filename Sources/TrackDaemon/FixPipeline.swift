import TrackCore
import TrackIO

/// What happens to each fix the receiver core emits: the filter, the sampling policy and the
/// status the control socket reports. Fixed-size; nothing here allocates.
struct FixPipeline {
    var filter: FixFilter
    var sampling: SamplingPolicy
    var trip = TripDetector()
    var status = DaemonStatus()
    /// Fence events whose command the loop starts after this read.
    var pendingCommands = FenceEventQueue()

    /// Runs `fix` through filter, permission and sampling; returns it at the log's precision
    /// when the sampling policy records it (the position snapped in approximate mode).
    mutating func handle(_ fix: borrowing Fix, now: MonotonicTime) -> LogFix? {
        status.lastFix = copy fix
        status.lastFixAt = now
        if fix.mode.rawValue >= FixMode.twoD.rawValue { status.lastFixedAt = now }
        let decision = filter.evaluate(fix, now: now)
        status.filter = filter.counters
        switch decision {
        case .accepted(let accuracy):
            let time = fix.time ?? status.utcNow
            if status.permission.expire(now: now) != nil { status.permissionChanged = true }
            status.onTrip = trip.update(speedMillimetresPerSecond: fix.speedMillimetresPerSecond, now: time)
            // Kept precise inside the core; every output applies `disclosure` as it leaves.
            status.lastGoodFix = copy fix
            status.lastGoodFixAt = now
            status.lastGoodAccuracyMillimetres = accuracy
            if status.firstFixAfterMilliseconds == nil {
                status.firstFixAfterMilliseconds = now.milliseconds(since: status.startedAt)
            }
            // Fences see the precise position, and only when the permission allows them.
            if let position = fix.position {
                evaluateFences(position, accuracyMillimetres: accuracy, time: time, now: now)
            }
            // What is not allowed is not considered for the log at all.
            let disclosure = status.disclosure(now: now)
            guard disclosure.allowsPosition else {
                status.notAllowed += 1
                return nil
            }
            // Approximate mode: the snapped position only, with no accuracy (the grid is it).
            let shown = fix.disclosed(disclosure)
            let shownAccuracy = disclosure == .precise ? accuracy : nil
            var recorded: LogFix?
            if let trigger = sampling.consider(shown, accuracyMillimetres: accuracy, now: now) {
                status.lastTrigger = trigger
                // The odometer is the length of the recorded track.
                if let position = shown.position {
                    _ = status.odometer.add(position, accuracyMillimetres: Int32(clamping: accuracy),
                                            timeMilliseconds: time.millisecondsSinceEpoch)
                }
                recorded = LogFix(shown, accuracyMillimetres: shownAccuracy, time: time)
            }
            status.sampling = sampling.counters
            return recorded
        case .rejected(let reason):
            status.lastRejection = reason
            return nil
        }
    }
}
