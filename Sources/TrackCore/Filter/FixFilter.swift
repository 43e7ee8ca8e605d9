/// Decides, fix by fix, which receiver fixes are fit to log, fence and show: the device's
/// counterpart of a phone app dropping stale, invalid and inaccurate locations.
///
/// Checks, in order (the first failing one is the reason given and counted):
///
/// 1. `.invalid`: mode below 2D. Checked before the position because a no-fix epoch usually
///    has no position either, and "no fix" is the reason a person needs to see.
/// 2. `.noPosition`, 3. `.noTime`.
/// 4. `.stale`: the fix's UTC time is more than `maxAgeMilliseconds` behind the newest time of
///    any fix that got this far, or is not after the last accepted fix's time (backwards or a
///    repeated epoch: the track must stay in time order, and a repeated time would make the
///    jump check divide by zero). Receiver time only; the system clock never counts.
/// 5. `.tooFewSatellites`, 6. `.inaccurate` (see `Fix.horizontalAccuracyMillimetres`).
/// 7. `.implausibleJump`: distance from the last accepted fix, minus both fixes' accuracy,
///    over the UTC time between them, above `maxSpeedMillimetresPerSecond`.
///
/// One bad fix that was accepted (a cold-start fix far off, or a receiver time far ahead)
/// must not shut the filter out for good. So it recovers: `recoveryFixes` consecutive fixes
/// that agree with each other (each reachable from the previous at a plausible speed) while
/// all disagreeing with the last accepted fix replace it, the last of them accepted; and the
/// same number of consecutive stale fixes whose own times advance reset the time base (the
/// receiver's clock stepped back, e.g. after a week-number rollover was corrected).
///
/// Fixed-size state, no allocation: safe to call for every epoch.
///
/// ```swift
/// var filter = FixFilter()
/// if case .accepted(let accuracy) = filter.evaluate(fix, now: now) { log(fix, accuracy) }
/// ```
public struct FixFilter: Sendable {
    /// What the last accepted fix (or the run of fixes that may replace it) left to compare with.
    struct Anchor: Sendable {
        var millisecondsSinceEpoch: Int64
        var position: Coordinate
        var accuracyMillimetres: Int64
    }

    /// The limits applied.
    public var settings: FilterSettings
    /// Fixes seen so far by outcome.
    public private(set) var counters = FilterCounters()
    /// Loop clock reading when the last fix was accepted; nil before the first.
    public private(set) var lastAcceptedAt: MonotonicTime?

    var newestMilliseconds: Int64?
    var lastAccepted: Anchor?
    // Fixes that disagree with `lastAccepted` but agree with each other: the newest of them.
    var candidate: Anchor?
    var candidateCount = 0
    // Consecutive stale fixes with advancing times, and the time of the newest of them.
    var staleRun = 0
    var staleRunMilliseconds: Int64 = 0

    /// A filter with no history, e.g. `FixFilter(settings: FilterSettings(maxAccuracyMillimetres: 30_000))`.
    public init(settings: FilterSettings = FilterSettings()) {
        self.settings = settings
    }

    /// Forgets the fixes seen (not the counters): the next valid fix is judged on its own.
    public mutating func reset() {
        newestMilliseconds = nil
        lastAccepted = nil
        candidate = nil
        candidateCount = 0
        staleRun = 0
    }

    /// Judges one fix and counts the outcome; `now` is the loop clock at this wake-up.
    ///
    /// Returns `.accepted(accuracyMillimetres:)` with the fix's 1σ horizontal accuracy, or
    /// `.rejected` with the first check that failed (see the type's documentation).
    public mutating func evaluate(_ fix: borrowing Fix, now: MonotonicTime) -> FilterDecision {
        let decision = judge(fix)
        switch decision {
        case .accepted: counters.accepted += 1; lastAcceptedAt = now
        case .rejected(let reason): counters.count(reason)
        }
        return decision
    }

    mutating func judge(_ fix: borrowing Fix) -> FilterDecision {
        // rawValue, not `==` twice: `||` takes an autoclosure, which cannot capture a borrow.
        guard fix.mode.rawValue >= FixMode.twoD.rawValue else { return .rejected(.invalid) }
        guard let position = fix.position else { return .rejected(.noPosition) }
        guard let time = fix.time?.millisecondsSinceEpoch else { return .rejected(.noTime) }

        if isStale(time) {
            // A run of stale fixes that advance among themselves means the reference is wrong.
            if staleRun > 0 && time > staleRunMilliseconds { staleRun += 1 } else { staleRun = 1 }
            staleRunMilliseconds = time
            guard staleRun >= max(settings.recoveryFixes, 1) else { return .rejected(.stale) }
            reset()
            counters.recoveries += 1
        }
        staleRun = 0
        newestMilliseconds = max(newestMilliseconds ?? time, time)

        if let used = fix.satellitesUsed, used < settings.minSatellites {
            return .rejected(.tooFewSatellites(used))
        }
        let accuracy = fix.horizontalAccuracyMillimetres(
            uereMillimetres: settings.uereMillimetres, assumedHDOPCenti: settings.assumedHDOPCenti)
        guard accuracy <= settings.maxAccuracyMillimetres else {
            return .rejected(.inaccurate(accuracyMillimetres: accuracy))
        }

        let anchor = Anchor(millisecondsSinceEpoch: time, position: position, accuracyMillimetres: accuracy)
        guard let last = lastAccepted else { return accept(anchor) }
        let fromLast = impliedMillimetresPerSecond(from: last, to: anchor)
        if fromLast <= settings.maxSpeedMillimetresPerSecond { return accept(anchor) }

        // Disagrees with the last accepted fix: does it continue the run of those that also did?
        if let previous = candidate, anchor.millisecondsSinceEpoch > previous.millisecondsSinceEpoch,
           impliedMillimetresPerSecond(from: previous, to: anchor) <= settings.maxSpeedMillimetresPerSecond {
            candidateCount += 1
        } else {
            candidateCount = 1
        }
        candidate = anchor
        if candidateCount >= max(settings.recoveryFixes, 1) {
            counters.recoveries += 1
            return accept(anchor)
        }
        // Rounded up so a rejection never reports a speed at or under the limit.
        return .rejected(.implausibleJump(metresPerSecond: (fromLast + 999) / 1000))
    }

    func isStale(_ time: Int64) -> Bool {
        if let newest = newestMilliseconds, time < newest &- settings.maxAgeMilliseconds { return true }
        if let last = lastAccepted, time <= last.millisecondsSinceEpoch { return true }
        return false
    }

    mutating func accept(_ anchor: Anchor) -> FilterDecision {
        lastAccepted = anchor
        candidate = nil
        candidateCount = 0
        return .accepted(accuracyMillimetres: anchor.accuracyMillimetres)
    }

    /// Speed in mm/s needed to get from `a` to `b` (b later) if each was off by its accuracy
    /// towards the other; 0 when the accuracy circles overlap.
    func impliedMillimetresPerSecond(from a: Anchor, to b: Anchor) -> Int64 {
        let elapsed = b.millisecondsSinceEpoch - a.millisecondsSinceEpoch
        guard elapsed > 0 else { return Self.speedCap }
        let metres = geodesicDistanceAndBearing(a.position, b.position).metres
        let slack = (Double(a.accuracyMillimetres) + Double(b.accuracyMillimetres)) / 1000
        guard metres > slack else { return 0 }
        // Metres per millisecond × 1,000,000 = mm/s.
        let speed = (metres - slack) / Double(elapsed) * 1_000_000
        return speed < Double(Self.speedCap) ? Int64(speed) : Self.speedCap
    }

    // Far above any limit, far below Int64.max: rounding a reported speed cannot overflow.
    static let speedCap: Int64 = 1_000_000_000_000_000
}
