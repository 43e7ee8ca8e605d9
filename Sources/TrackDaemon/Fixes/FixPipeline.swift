import TrackCore
import TrackIO

/// What the daemon knows of the fixes: the filter that judges each, the sampling policy that
/// picks those to record, the trip detector, and the last fixes with when they came. Its
/// methods are the steps of one fix's path (`Daemon+Fix.swift`); nothing here allocates.
struct FixPipeline {
    var filter: FixFilter
    var sampling: SamplingPolicy
    var trip = TripDetector()
    var profile = SamplingProfile.track
    /// The latest fix from the receiver (any mode) and when it came; when the last 2D or 3D one
    /// came.
    var lastFix: Fix?
    var lastFixAt: MonotonicTime?
    var lastFixedAt: MonotonicTime?
    /// The latest fix the filter accepted, its accuracy and when: kept precise inside the core
    /// (every output applies the disclosure as it leaves).
    var lastGoodFix: Fix?
    var lastGoodAccuracyMillimetres: Int64?
    var lastGoodFixAt: MonotonicTime?
    /// Time to first fix, from start-up.
    var firstFixAfterMilliseconds: Int64?
    var lastRejection: FilterRejection?
    var lastTrigger: RecordTrigger?
    /// Accepted fixes the permission kept out of the log.
    var notAllowed = 0
    /// True once a fix went to the log since start: other records then take the receiver's time.
    var recordedFix = false
    var onTrip = false
    /// Since when every accepted fix has been slower than the sampling's moving speed; nil
    /// while moving (or when a fix said nothing of its speed).
    var stillSince: MonotonicTime?

    init(_ config: TrackdConfig) {
        filter = FixFilter(settings: ConfigLoader.filterSettings(config))
        sampling = SamplingPolicy(settings: ConfigLoader.samplingSettings(config))
        profile = ConfigLoader.profile(config)
    }

    /// New settings from a reload: the history stays.
    mutating func apply(_ config: TrackdConfig) {
        filter.settings = ConfigLoader.filterSettings(config)
        sampling.settings = ConfigLoader.samplingSettings(config)
        profile = ConfigLoader.profile(config)
    }

    /// Notes `fix` and judges it: its accuracy when the filter accepts it, nil otherwise (the
    /// reason kept in `lastRejection`). `startedAt` is for the time to first fix.
    mutating func judge(_ fix: borrowing Fix, now: MonotonicTime, startedAt: MonotonicTime) -> Int64? {
        lastFix = copy fix
        lastFixAt = now
        if fix.mode.rawValue >= FixMode.twoD.rawValue { lastFixedAt = now }
        switch filter.evaluate(fix, now: now) {
        case .rejected(let reason):
            lastRejection = reason
            return nil
        case .accepted(let accuracy):
            lastGoodFix = copy fix
            lastGoodFixAt = now
            lastGoodAccuracyMillimetres = accuracy
            if firstFixAfterMilliseconds == nil { firstFixAfterMilliseconds = now.milliseconds(since: startedAt) }
            onTrip = trip.update(speedMillimetresPerSecond: fix.speedMillimetresPerSecond,
                                 now: fix.time ?? UTCTime(millisecondsSinceEpoch: 0))
            let still = fix.speedMillimetresPerSecond.map { $0 < sampling.settings.movingSpeedMillimetresPerSecond } ?? false
            stillSince = still ? stillSince ?? now : nil
            return accuracy
        }
    }

    /// What status and doctor show of the fixes.
    var facts: StatusModel.FixFacts {
        StatusModel.FixFacts(lastFix: lastFix, lastFixAt: lastFixAt, lastFixedAt: lastFixedAt, lastGoodFixAt: lastGoodFixAt,
                             lastGoodAccuracyMillimetres: lastGoodAccuracyMillimetres,
                             firstFixAfterMilliseconds: firstFixAfterMilliseconds, lastRejection: lastRejection,
                             filter: filter.counters, profile: profile, recorded: sampling.counters.recorded,
                             lastTrigger: lastTrigger, notAllowed: notAllowed)
    }

    /// The tracker's motion as the receiver's power save reads it: still since when, the last
    /// record and the heartbeat.
    var motion: FixMotion {
        let heartbeat = sampling.settings.heartbeatMilliseconds
        return FixMotion(stillSince: stillSince, lastRecordedAt: sampling.lastRecordedAt,
                         heartbeatMilliseconds: heartbeat > 0 ? heartbeat : nil)
    }

    /// The last good fix's time: where a gap starts when the receiver is lost.
    var lastGoodFixTime: UTCTime? { lastGoodFix?.time }

    /// The receiver's time for records that are not fixes, once a fix went to the log since
    /// start (before that, the system clock's: `Wake.utc`).
    var recordTime: UTCTime? { recordedFix ? lastFix?.time : nil }

    /// A good fix is current for 10 s: ten epochs of a 1 Hz receiver, two of a 0.2 Hz one.
    /// `where` and `mark` refuse an older one instead of passing it off as the present.
    static var currentFixMilliseconds: Int64 { 10_000 }

    /// The position `where`, `mark` and the button may use: the last good fix, if recent and if
    /// `wake`'s disclosure lets a position out (snapped in approximate mode); `permission`
    /// names the refusal.
    func currentPosition(_ wake: Wake, permission: PermissionState) -> Result<DisclosedPosition, PositionRefusal> {
        guard let fix = lastGoodFix, fix.position != nil, let at = lastGoodFixAt else { return .failure(.noFix) }
        guard wake.disclosure.allowsPosition else { return .failure(.notAllowed(permission)) }
        let age = wake.now.milliseconds(since: at)
        guard age <= Self.currentFixMilliseconds else { return .failure(.stale(ageMilliseconds: age)) }
        let shown = fix.disclosed(wake.disclosure)
        guard let position = shown.position else { return .failure(.noFix) }
        return .success(DisclosedPosition(fix: shown, position: position, disclosure: wake.disclosure, ageMilliseconds: age))
    }

    /// Asks the sampling policy whether `shown` (the fix as it may be logged) is recorded.
    mutating func sample(_ shown: borrowing Fix, accuracyMillimetres: Int64, now: MonotonicTime) -> Bool {
        guard let trigger = sampling.consider(shown, accuracyMillimetres: accuracyMillimetres, now: now) else { return false }
        lastTrigger = trigger
        return true
    }
}

/// Whether the tracker stands still, and the sampling's heartbeat: what the receiver's sleep
/// needs of the fixes (`FixPipeline.motion`).
struct FixMotion {
    /// Since when the accepted fixes have all been slower than the moving speed; nil: moving.
    var stillSince: MonotonicTime?
    /// When the sampling last recorded a fix; nil before the first.
    var lastRecordedAt: MonotonicTime?
    /// The sampling's heartbeat in ms; nil when off.
    var heartbeatMilliseconds: Int64?
}
