import TrackCore
import TrackIO

/// Fences on the per-fix path: the monitor is fed each accepted fix the permission lets it
/// see, with the precise position (approximate mode never gets here); its events go to the
/// status, the log and the command queue. Nothing here allocates.
extension FixPipeline {
    mutating func evaluateFences(_ position: Coordinate, accuracyMillimetres: Int64, time: UTCTime, now: MonotonicTime) {
        guard status.fences.fences.count > 0 else {
            status.fencesEvaluated = false
            return
        }
        status.fencesEvaluated = status.permission.mayEvaluateFences(inUse: false, onTrip: status.onTrip, now: time)
        guard status.fencesEvaluated else { return }
        var monitor = status.fences
        let fences = monitor.fences
        monitor.update(position: position, accuracyMillimetres: accuracyMillimetres,
                       timeMilliseconds: time.millisecondsSinceEpoch) { fence, transition in
            let record = FenceEventRecord(fence: fence, transition: transition, position: position,
                                          accuracyMillimetres: accuracyMillimetres, time: time)
            status.lastFenceEvent = record
            status.fenceEvents += 1
            guard let kind = transition.logKind else { return }
            status.lastFenceEventAt = now
            recordFenceEvent(time: time, fence: fence, kind: kind, position: position)
            if !fences.fences[fence].command.isEmpty { pendingCommands.push(record, &status.fenceCommands) }
        }
        status.fencesInside = monitor.insideCount
    }

    /// The fence event for the track log: enter, exit or dwell of fence number `fence` (its
    /// index in the fences file) at the fix that confirmed it. The log writer connects here;
    /// until it does the record is only counted (`unlogged`).
    mutating func recordFenceEvent(time: UTCTime, fence: Int, kind: FenceEventKind, position: Coordinate) {
        let record = LogRecord.fenceEvent(
            time: time, fenceID: UInt32(truncatingIfNeeded: fence), kind: kind,
            position: LogPosition(latitudeE7: Int32(truncatingIfNeeded: position.latitudeNanodegrees / 100),
                                  longitudeE7: Int32(truncatingIfNeeded: position.longitudeNanodegrees / 100)))
        _ = record
        status.fenceCommands.unlogged += 1
    }
}
