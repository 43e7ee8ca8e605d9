import TrackCore
import TrackIO

/// What happens to each fix the receiver core emits: the filter, the sampling policy and the
/// status the control socket reports. Fixed-size; nothing here allocates.
struct FixPipeline {
    var filter: FixFilter
    var sampling: SamplingPolicy
    var status = DaemonStatus()

    mutating func handle(_ fix: borrowing Fix, now: MonotonicTime) {
        status.lastFix = copy fix
        status.lastFixAt = now
        let decision = filter.evaluate(fix, now: now)
        status.filter = filter.counters
        switch decision {
        case .accepted(let accuracy):
            status.lastGoodFix = copy fix
            status.lastGoodFixAt = now
            status.lastGoodAccuracyMillimetres = accuracy
            if status.firstFixAfterMilliseconds == nil {
                status.firstFixAfterMilliseconds = now.milliseconds(since: status.startedAt)
            }
            if let trigger = sampling.consider(fix, accuracyMillimetres: accuracy, now: now) {
                status.lastTrigger = trigger
            }
            status.sampling = sampling.counters
        case .rejected(let reason):
            status.lastRejection = reason
        }
    }
}
