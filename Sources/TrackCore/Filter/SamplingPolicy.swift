/// Why `SamplingPolicy` recorded a fix; when several apply, the first in this order is given.
public enum RecordTrigger: UInt8, Equatable, Sendable, CaseIterable {
    /// Nothing recorded yet (or the receiver's time went back before the last record).
    case first
    /// At least `minDistanceMillimetres` from the last recorded fix.
    case distance
    /// Course at least `minHeadingChangeMillidegrees` from the last recorded fix's, both moving.
    case heading
    /// Speed at least `minSpeedChangeMillimetresPerSecond` from the last recorded fix's.
    case speed
    /// At least `minPeriodMilliseconds` since the last record, and moving.
    case period
    /// At least `heartbeatMilliseconds` since the last record.
    case heartbeat

    /// The trigger's name for logs and `trackctl status`, e.g. `"heading"`.
    public var name: StaticString {
        switch self {
        case .first: "first"
        case .distance: "distance"
        case .heading: "heading"
        case .speed: "speed"
        case .period: "period"
        case .heartbeat: "heartbeat"
        }
    }
}

/// Records made by `SamplingPolicy`, by trigger, and the fixes it passed over.
public struct SamplingCounters: Equatable, Sendable {
    /// Records for `.first`.
    public var first = 0
    /// Records for `.distance`.
    public var distance = 0
    /// Records for `.heading`.
    public var heading = 0
    /// Records for `.speed`.
    public var speed = 0
    /// Records for `.period`.
    public var period = 0
    /// Records for `.heartbeat`.
    public var heartbeat = 0
    /// Fixes not recorded because their accuracy was worse than the profile's limit.
    public var tooInaccurate = 0
    /// Fixes considered and not recorded because no trigger fired.
    public var skipped = 0

    /// Zeroed counters.
    public init() {}

    /// Records made for `trigger`.
    public func count(of trigger: RecordTrigger) -> Int {
        switch trigger {
        case .first: first
        case .distance: distance
        case .heading: heading
        case .speed: speed
        case .period: period
        case .heartbeat: heartbeat
        }
    }

    /// Records made for any trigger.
    public var recorded: Int { first + distance + heading + speed + period + heartbeat }

    /// Counts one record made for `trigger`.
    public mutating func count(_ trigger: RecordTrigger) {
        switch trigger {
        case .first: first += 1
        case .distance: distance += 1
        case .heading: heading += 1
        case .speed: speed += 1
        case .period: period += 1
        case .heartbeat: heartbeat += 1
        }
    }

    /// Writes `first=… distance=… … too-inaccurate=… skipped=…` on one line.
    public func write(to buffer: inout TextBuffer) {
        // By raw value rather than `allCases`, which would build an array.
        for raw in UInt8(0)...5 {
            guard let trigger = RecordTrigger(rawValue: raw) else { continue }
            if trigger != .first { buffer.append(UInt8(ascii: " ")) }
            buffer.append(trigger.name)
            buffer.append(UInt8(ascii: "="))
            buffer.append(integer: Int64(count(of: trigger)))
        }
        buffer.append(" too-inaccurate=")
        buffer.append(integer: Int64(tooInaccurate))
        buffer.append(" skipped=")
        buffer.append(integer: Int64(skipped))
    }
}

/// Decides which filtered fixes go into the track log: the device's `distanceFilter` and
/// `desiredAccuracy`, with the triggers of `SamplingSettings`; any one of them records.
///
/// Distances, course and speed changes are measured against the last recorded fix; periods
/// on the fixes' UTC times (which `FixFilter` keeps strictly increasing), so a loop that
/// stalled and then read a backlog of epochs still spaces records by the receiver's time.
/// Course counts only while moving: standing still, it is noise.
///
/// The period is a time trigger while moving (trackers' "min period on moving"), not a rate
/// limit: records closer together than it come only from distance, heading or speed. The
/// heartbeat is the time trigger that holds moving or not, so while accurate fixes keep
/// coming, no two records are further apart than the heartbeat plus one fix interval.
/// Fixed-size state, no allocation.
///
/// ```swift
/// var policy = SamplingPolicy(settings: SamplingSettings(profile: .track))
/// if let trigger = policy.consider(fix, accuracyMillimetres: accuracy, now: now) { log(fix, trigger) }
/// ```
public struct SamplingPolicy: Sendable {
    struct Recorded: Sendable {
        var millisecondsSinceEpoch: Int64
        var position: Coordinate
        var speedMillimetresPerSecond: Int32?
        var courseMillidegrees: Int32?
    }

    /// The resolved settings applied.
    public var settings: SamplingSettings
    /// Records and skips so far.
    public private(set) var counters = SamplingCounters()
    /// Loop clock reading at the last record; nil before the first.
    public private(set) var lastRecordedAt: MonotonicTime?
    var last: Recorded?

    /// A policy that has recorded nothing, e.g. `SamplingPolicy(settings: SamplingProfile.arrival.settings)`.
    public init(settings: SamplingSettings) {
        self.settings = settings
    }

    /// Forgets the last record (not the counters): the next fix is recorded as `.first`.
    public mutating func reset() { last = nil }

    /// Says why to record `fix`, or nil to skip it, and remembers it when recorded.
    ///
    /// `fix` should be one `FixFilter` accepted, with the accuracy it reported, in mm; a fix
    /// without time or position is never recorded. `now` is the loop clock, kept for status.
    public mutating func consider(
        _ fix: borrowing Fix, accuracyMillimetres: Int64, now: MonotonicTime
    ) -> RecordTrigger? {
        guard let time = fix.time?.millisecondsSinceEpoch, let position = fix.position else { return nil }
        guard accuracyMillimetres <= settings.accuracyLimitMillimetres else {
            counters.tooInaccurate += 1
            return nil
        }
        let current = Recorded(
            millisecondsSinceEpoch: time, position: position,
            speedMillimetresPerSecond: fix.speedMillimetresPerSecond, courseMillidegrees: fix.courseMillidegrees)
        guard let trigger = trigger(for: current) else {
            counters.skipped += 1
            return nil
        }
        last = current
        lastRecordedAt = now
        counters.count(trigger)
        return trigger
    }

    func trigger(for current: Recorded) -> RecordTrigger? {
        guard let last, current.millisecondsSinceEpoch >= last.millisecondsSinceEpoch else { return .first }
        let elapsed = current.millisecondsSinceEpoch - last.millisecondsSinceEpoch
        if settings.minDistanceMillimetres > 0 {
            let metres = geodesicDistanceAndBearing(last.position, current.position).metres
            if metres * 1000 >= Double(settings.minDistanceMillimetres) { return .distance }
        }
        if settings.minHeadingChangeMillidegrees > 0, isMoving(current), isMoving(last),
           let from = last.courseMillidegrees, let to = current.courseMillidegrees,
           Self.courseChangeMillidegrees(from, to) >= settings.minHeadingChangeMillidegrees {
            return .heading
        }
        if settings.minSpeedChangeMillimetresPerSecond > 0,
           let from = last.speedMillimetresPerSecond, let to = current.speedMillimetresPerSecond,
           (Int64(to) - Int64(from)).magnitude >= UInt64(settings.minSpeedChangeMillimetresPerSecond) {
            return .speed
        }
        if settings.minPeriodMilliseconds > 0, elapsed >= settings.minPeriodMilliseconds, isMoving(current) {
            return .period
        }
        if settings.heartbeatMilliseconds > 0, elapsed >= settings.heartbeatMilliseconds { return .heartbeat }
        return nil
    }

    /// True when `fix` is at or above the moving speed, or says nothing about its speed.
    func isMoving(_ fix: Recorded) -> Bool {
        guard let speed = fix.speedMillimetresPerSecond else { return true }
        return speed >= settings.movingSpeedMillimetresPerSecond
    }

    /// The smaller angle between two courses in millidegrees, 0…180,000: 350° → 10° is 20,000.
    static func courseChangeMillidegrees(_ a: Int32, _ b: Int32) -> Int32 {
        var difference = (Int64(b) - Int64(a)) % 360_000
        if difference < 0 { difference += 360_000 }
        return Int32(difference > 180_000 ? 360_000 - difference : difference)
    }
}
