import TrackCore
import TrackIO

/// The path of one fix from the receiver core to the log, in its own scope: gpsd's clients,
/// the filter, the time for chrony, the trip detector, the fences (precise position, when the
/// permission allows), the place name, sampling, the odometer and the track log. Each step is
/// the service's own; nothing here allocates.
extension Daemon where Source: ~Copyable {
    mutating func handle(_ fix: borrowing Fix, _ wake: inout Wake) {
        // Every epoch goes to gpsd's clients, as gpsd sends every one (disclosed there).
        gpsd.publish(fix, sky: receiver.sky, wake: wake)
        let onTrip = fixes.onTrip
        let judged = fixes.judge(fix, now: wake.now, startedAt: startedAt)
        time.publish(fix, rejection: judged == nil ? fixes.lastRejection : nil, receivedAt: receiver.fixReceivedAt)
        if fixes.onTrip != onTrip { wake = self.wake(wake.now) }
        defer { if let recordTime = fixes.recordTime { wake.utc = recordTime } }
        guard let accuracy = judged else { return }
        let at = fix.time ?? wake.utc
        // Fences see the precise position, and only when the permission allows them.
        if fences.allow(wake.fencesAllowed), let position = fix.position {
            fences.evaluate(position, accuracyMillimetres: accuracy, time: at, now: wake.now)
        }
        // The place name follows the disclosure: none when withheld, the grid cell's when approximate.
        places.observe(fix.position, disclosure: wake.disclosure)
        // What is not allowed is not considered for the log at all.
        guard wake.disclosure.allowsPosition else {
            fixes.notAllowed += 1
            return
        }
        // Approximate mode: the snapped position only, with no accuracy (the grid is it).
        let shown = fix.disclosed(wake.disclosure)
        guard fixes.sample(shown, accuracyMillimetres: accuracy, now: wake.now), let position = shown.position else { return }
        // The odometer is the length of the recorded track.
        state.addToOdometer(position, accuracyMillimetres: accuracy, time: at)
        if let recorded = LogFix(shown, accuracyMillimetres: wake.disclosure == .precise ? accuracy : nil, time: at) {
            trackLog.record(recorded, now: wake.now, sleptAfter: receiver.sleptAfter)
            fixes.recordedFix = true
        }
    }

    /// Records a waypoint at the current position: the one path for the button and `trackctl
    /// mark`, under the rules of `FixPipeline.currentPosition` (not allowed, stale or no fix:
    /// nothing is recorded, the refusal is counted and shown). led-status acknowledges it.
    @discardableResult
    mutating func recordWaypoint(label: WaypointLabel, _ wake: Wake) -> Result<DisclosedPosition, PositionRefusal> {
        let result = fixes.currentPosition(wake, permission: state.permissionState)
        waypoints.note(label, result)
        guard case .success(let current) = result else { return result }
        board.waypointSaved(now: wake.now)
        trackLog.append(.waypoint(time: current.fix.time ?? wake.utc, position: LogPosition(current.position),
                                  label: LogLabel(label)), now: wake.now)
        return result
    }
}
