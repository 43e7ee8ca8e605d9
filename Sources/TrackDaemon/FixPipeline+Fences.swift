import TrackCore
import TrackIO

/// Fences on the per-fix path: the monitor is fed each accepted fix the permission lets it
/// see, with the precise position (approximate mode never gets here); its events go to the
/// status and to the queue from which the loop logs them and starts their commands. Nothing
/// here allocates.
extension FixPipeline {
    mutating func evaluateFences(_ position: Coordinate, accuracyMillimetres: Int64, time: UTCTime, now: MonotonicTime) {
        guard status.fences.fences.count > 0 else {
            status.fencesEvaluated = false
            return
        }
        guard updateFenceEvaluation(now: now) else { return }
        var monitor = status.fences
        monitor.update(position: position, accuracyMillimetres: accuracyMillimetres,
                       timeMilliseconds: time.millisecondsSinceEpoch) { fence, transition in
            let record = FenceEventRecord(fence: fence, transition: transition, position: position,
                                          accuracyMillimetres: accuracyMillimetres, time: time)
            status.lastFenceEvent = record
            status.fenceEvents += 1
            guard let kind = transition.logKind else { return }
            status.lastFenceEventAt = now
            _ = kind
            // The loop writes it to the track log and starts the fence's command after this read.
            pendingCommands.push(record, &status.fenceCommands)
        }
        status.fencesInside = monitor.insideCount
        status.insideFence = status.fencesInside > 0
    }

    /// Whether fences may be evaluated at `now`; when the permission has just stopped them, the
    /// fence states start over, so nothing learnt while allowed outlives the permission (the
    /// fence LED goes dark, `fence list` shows them unknown). Also called when the permission
    /// changes. Allocates nothing.
    @discardableResult
    mutating func updateFenceEvaluation(now: MonotonicTime) -> Bool {
        let wasEvaluated = status.fencesEvaluated
        status.fencesEvaluated = status.permission.mayEvaluateFences(inUse: status.gpio.inUse, onTrip: status.tripCounts, now: now)
        if wasEvaluated && !status.fencesEvaluated {
            status.fences.restart()
            status.fencesInside = 0
            status.insideFence = false
        }
        return status.fencesEvaluated
    }
}
