import TrackCore
import TrackIO

/// What the rest of the daemon says about sleeping, once per wake-up: whether and since when
/// the tracker stands still (the fixes' motion), when the sampling last recorded and how long
/// its heartbeat is, the button's presses and the in-use input, whether a fence edge is near
/// and whether the installer is still checking the antenna (`not-determined`).
struct PowerInputs {
    var motion: FixMotion
    /// Short and long presses so far, and the in-use input's state.
    var presses: Int
    var inUse: Bool
    /// The last fix's accuracy circle (with the fences' hysteresis) touched a fence's edge.
    var nearFence: Bool
    var notDetermined: Bool

    /// The inputs from what the services say: `fixes.motion`, `board.status`, `fences.nearEdge`
    /// and `state.permission`.
    init(_ motion: FixMotion, _ gpio: GPIOStatus, nearFence: Bool, _ permission: Permission) {
        self.motion = motion
        presses = gpio.shortPresses + gpio.longPresses
        inUse = gpio.inUse
        self.nearFence = nearFence
        notDetermined = permission.state == .notDetermined
    }
}

/// Why the receiver was last woken, for status.
enum WakeReason: Equatable {
    case heartbeat, button, inUse, request

    var words: StaticString {
        switch self {
        case .heartbeat: "for the heartbeat"
        case .button: "by the button"
        case .inUse: "by the in-use input"
        case .request: "by trackctl receiver wake"
        }
    }
}

/// The receiver's sleep (`power-save = sleep`): when the tracker has stood still for
/// `power-save-after`, no fence edge is near and the permission is past `not-determined`, the
/// receiver is put to sleep (`ReceiverPlan.sleep`) until the sampling's heartbeat is due (5 s
/// before it, so the heartbeat fix is on time; at least 20 s), a button press, the in-use input
/// going active or `trackctl receiver wake`. After a wake it stays up until the sampling has
/// recorded (the heartbeat fix, at most 60 s), or for `power-save-after` after a press, the
/// input or a request. Time asleep is counted for the duty cycle.
struct ReceiverPower {
    /// How long before the heartbeat the receiver is woken, in ms (a hot start takes 1–2 s).
    static var leadMilliseconds: Int64 { 5_000 }
    /// The shortest sleep worth a wake-up, in ms.
    static var shortestSleepMilliseconds: Int64 { 20_000 }
    /// Longest wait for a record after a heartbeat wake, in ms (a receiver indoors never fixes).
    static var recordWaitMilliseconds: Int64 { 60_000 }

    /// Since when it sleeps, and when it is to wake; nil while awake.
    var asleepSince: MonotonicTime?
    var wakeAt: MonotonicTime?
    /// The receiver's time of the last epoch before the last sleep: where its sleep record
    /// starts in the log. Kept until the next sleep.
    var sleptAfter: UTCTime?
    /// When it was last woken, and why.
    var wokeAt: MonotonicTime?
    var wokeBy: WakeReason?
    /// Not before this time: a press, the input or a request keeps it up.
    var awakeUntil: MonotonicTime?
    /// `trackctl receiver sleep` asked for a sleep now.
    var sleepRequested = false
    /// A press, the input or a request came while asleep: wake now.
    var wakeWanted: WakeReason?
    /// The inputs at the last look: a press or the input going active is a change from them.
    var pressesSeen = 0
    var inUseSeen = false
    /// Sleeps so far and the time spent asleep in ms (the sleep under way not included).
    var sleeps = 0
    var asleepMilliseconds: Int64 = 0
    /// When the duty cycle is counted from: the first look with power save on.
    var countedFrom: MonotonicTime?

    var isAsleep: Bool { asleepSince != nil }

    /// The port opened at `now`: whatever was asleep has restarted.
    mutating func opened(now: MonotonicTime) {
        guard let since = asleepSince else { return }
        asleepMilliseconds += max(now.milliseconds(since: since), 0)
        asleepSince = nil
        wakeAt = nil
        wakeWanted = nil
    }

    /// Whether to put the receiver to sleep at `now`, and until when (nil: not now). `enabled`
    /// is `power-save = sleep`; `after` its `power-save-after`.
    func sleepDue(_ inputs: PowerInputs, enabled: Bool, afterMilliseconds after: Int64, now: MonotonicTime) -> MonotonicTime? {
        guard !isAsleep else { return nil }
        let wake = wakeTime(inputs.motion, afterMilliseconds: after, now: now)
        if sleepRequested { return wake }
        guard enabled, !inputs.notDetermined, !inputs.nearFence, let still = inputs.motion.stillSince,
              now.milliseconds(since: still) >= after, awakeUntil.map({ now >= $0 }) ?? true else { return nil }
        // Woken for the heartbeat: up until the sampling recorded it (or gave up waiting).
        if let woke = wokeAt, wokeBy == .heartbeat, now.milliseconds(since: woke) < Self.recordWaitMilliseconds,
           inputs.motion.lastRecordedAt.map({ $0 < woke }) ?? true {
            return nil
        }
        return wake.milliseconds(since: now) >= Self.shortestSleepMilliseconds ? wake : nil
    }

    /// When a sleep begun at `now` ends: 5 s before the heartbeat, else after `after`; at
    /// least the shortest sleep.
    func wakeTime(_ motion: FixMotion, afterMilliseconds after: Int64, now: MonotonicTime) -> MonotonicTime {
        var wake = now.adding(milliseconds: after)
        // The heartbeat from the last record (none when nothing may be logged: then `after`).
        if let recorded = motion.lastRecordedAt, let heartbeat = motion.heartbeatMilliseconds {
            let beat = recorded.adding(milliseconds: heartbeat - Self.leadMilliseconds)
            if beat > now { wake = beat }
        }
        return max(wake, now.adding(milliseconds: Self.shortestSleepMilliseconds))
    }

    /// A press or the in-use input going active since the last look: up for `after` (woken
    /// when asleep). The duty cycle counts from the first look with `enabled`.
    mutating func notice(_ inputs: PowerInputs, enabled: Bool, afterMilliseconds after: Int64, now: MonotonicTime) {
        if enabled && countedFrom == nil { countedFrom = now }
        if inputs.presses != pressesSeen {
            pressesSeen = inputs.presses
            keepAwake(.button, afterMilliseconds: after, now: now)
        }
        if inputs.inUse && !inUseSeen { keepAwake(.inUse, afterMilliseconds: after, now: now) }
        inUseSeen = inputs.inUse
    }

    /// Why to wake now, if at all (asleep only).
    func wakeDue(now: MonotonicTime) -> WakeReason? {
        guard isAsleep else { return nil }
        if let wakeWanted { return wakeWanted }
        if let wakeAt, now >= wakeAt { return .heartbeat }
        return nil
    }

    /// Keeps the receiver up for `after` from `now` (and wakes it if asleep): a press, the
    /// in-use input, `trackctl receiver wake`.
    mutating func keepAwake(_ reason: WakeReason, afterMilliseconds after: Int64, now: MonotonicTime) {
        awakeUntil = now.adding(milliseconds: after)
        if isAsleep { wakeWanted = reason }
        sleepRequested = false
    }

    /// The sleep command went out at `now`; `lastEpoch` is the receiver's time of the epoch before.
    mutating func fellAsleep(until wake: MonotonicTime, lastEpoch: UTCTime?, now: MonotonicTime) {
        asleepSince = now
        wakeAt = wake
        sleptAfter = lastEpoch
        sleepRequested = false
        awakeUntil = nil
        sleeps += 1
    }

    /// The sleep request was refused or never answered at `now` (a MediaTek's PMTK161): the
    /// receiver is awake, and stays so for `after` before the next try.
    mutating func sleepFailed(afterMilliseconds after: Int64, now: MonotonicTime) {
        guard isAsleep else { return }
        asleepSince = nil
        wakeAt = nil
        sleeps -= 1
        awakeUntil = now.adding(milliseconds: after)
    }

    /// The wake bytes went out at `now`.
    mutating func woke(_ reason: WakeReason, now: MonotonicTime) {
        if let since = asleepSince { asleepMilliseconds += max(now.milliseconds(since: since), 0) }
        asleepSince = nil
        wakeAt = nil
        wakeWanted = nil
        wokeAt = now
        wokeBy = reason
    }

    /// The share of the time asleep since power save was first on, in tenths of a percent;
    /// nil before.
    func asleepPermille(now: MonotonicTime) -> Int64? {
        guard let from = countedFrom else { return nil }
        let total = now.milliseconds(since: from)
        guard total > 0 else { return nil }
        let asleep = asleepMilliseconds + (asleepSince.map { now.milliseconds(since: $0) } ?? 0)
        return asleep * 1000 / total
    }

    /// When the receiver is to be woken (asleep only).
    var nextDeadline: MonotonicTime? { isAsleep ? wakeAt : nil }
}
