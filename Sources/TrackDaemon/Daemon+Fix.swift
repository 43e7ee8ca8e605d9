import TrackCore
import TrackIO

/// The path of one fix from the receiver core to the log, in its own scope: the filter, the
/// trip detector, the fences (precise position, when the permission allows), the disclosure
/// rule, the place name, sampling, the odometer and the track log. Nothing here allocates.
extension Daemon where Source: ~Copyable {
    mutating func handle(_ fix: borrowing Fix, now: MonotonicTime) {
        // Every epoch goes to gpsd's clients, as gpsd sends every one (disclosed there).
        publishGpsd(fix, now: now)
        let judged = fixes.judge(fix, now: now, startedAt: startedAt)
        publishTime(fix, accepted: judged != nil)
        guard let accuracy = judged else { return }
        let time = fix.time ?? utcNow
        // Fences see the precise position, and only when the permission allows them.
        if fences.allow(mayEvaluateFences(now: now)), let position = fix.position {
            fences.evaluate(position, accuracyMillimetres: accuracy, time: time, now: now)
        }
        // What is not allowed is not considered for the log at all.
        let disclosure = disclosure(now: now)
        // The place name follows the same rule: none when withheld, the grid cell's when approximate.
        places.observe(fix.position, disclosure: disclosure)
        guard disclosure.allowsPosition else {
            fixes.notAllowed += 1
            return
        }
        // Approximate mode: the snapped position only, with no accuracy (the grid is it).
        let shown = fix.disclosed(disclosure)
        guard fixes.sample(shown, accuracyMillimetres: accuracy, now: now), let position = shown.position else { return }
        // The odometer is the length of the recorded track.
        _ = state.odometer.add(position, accuracyMillimetres: Int32(clamping: accuracy),
                               timeMilliseconds: time.millisecondsSinceEpoch)
        if let recorded = LogFix(shown, accuracyMillimetres: disclosure == .precise ? accuracy : nil, time: time) {
            trackLog.record(recorded, now: now)
            fixes.recordedFix = true
        }
    }

    /// Whether a trip detected from speed counts as "in use": only when the board has no
    /// in-use input (the input decides when there is one).
    var tripCounts: Bool { fixes.onTrip && !(board.gpio.isActive && board.gpio.hasInUseInput) }

    /// What a position may become when it leaves the daemon at `now` (status, where, waypoints,
    /// the log): the permission with the in-use input and the trip state.
    mutating func disclosure(now: MonotonicTime) -> Disclosure {
        state.permission.disclosure(inUse: board.gpio.inUse, onTrip: tripCounts, now: now)
    }

    mutating func mayEvaluateFences(now: MonotonicTime) -> Bool {
        state.permission.mayEvaluateFences(inUse: board.gpio.inUse, onTrip: tripCounts, now: now)
    }

    /// A good fix is current for 10 s: ten epochs of a 1 Hz receiver, two of a 0.2 Hz one.
    /// `where` and `mark` refuse an older one instead of passing it off as the present.
    static var currentFixMilliseconds: Int64 { 10_000 }

    /// The position `where`, `mark` and the button may use at `now`: the last good fix, if
    /// recent and if the permission lets a position out (snapped in approximate mode).
    mutating func currentPosition(now: MonotonicTime) throws(PositionRefusal) -> DisclosedPosition {
        guard let fix = fixes.lastGoodFix, fix.position != nil, let at = fixes.lastGoodFixAt else { throw .noFix }
        let disclosure = disclosure(now: now)
        guard disclosure.allowsPosition else { throw .notAllowed(state.permission.state) }
        let age = now.milliseconds(since: at)
        guard age <= Self.currentFixMilliseconds else { throw .stale(ageMilliseconds: age) }
        let shown = fix.disclosed(disclosure)
        guard let position = shown.position else { throw .noFix }
        return DisclosedPosition(fix: shown, position: position, disclosure: disclosure, ageMilliseconds: age)
    }

    /// Records a waypoint at the current position: the one path for the button and `trackctl
    /// mark`, under the rules of `currentPosition` (not allowed, stale or no fix: nothing is
    /// recorded, the refusal is counted and shown). led-status acknowledges a recorded one.
    @discardableResult
    mutating func recordWaypoint(label: WaypointLabel, now: MonotonicTime) -> Result<DisclosedPosition, PositionRefusal> {
        let current: DisclosedPosition
        do {
            current = try currentPosition(now: now)
        } catch {
            waypoints.refused += 1
            waypoints.lastRefusal = error
            return .failure(error)
        }
        waypoints.count += 1
        waypoints.lastLabel = label
        waypoints.lastRefusal = nil
        board.gpio.waypointSavedAt = now
        var logLabel = LogLabel()
        for index in 0..<min(label.count, LogLabel.capacity) { _ = logLabel.append(label.bytes[index]) }
        trackLog.append(.waypoint(time: current.fix.time ?? utcNow, position: LogPosition(current.position), label: logLabel),
                        now: now)
        return .success(current)
    }
}
