import TrackCore
import TrackIO

/// The time service: the receiver's UTC time for chrony or ntpd through one unit of the NTP
/// shared-memory refclock (`[time] shm`, `NTPSharedMemory`), as gpsd provides it.
///
/// The unit is attached once at start-up and again only when a reload changes it. Once per
/// epoch whose fix is good (2D or 3D with a dated UTC time, not judged stale or invalid by
/// the filter) `publish` writes the receiver's time against the system clock at the moment
/// the epoch's first byte arrived. A unit that cannot be attached is a `problem` (journal,
/// status, doctor) and trackd tracks on. Nothing here allocates after `attach`.
///
/// Example: `TimeService(config.time, isRoot: false)` attaches unit 2; an epoch stamped
/// 12:00:00.000 whose first byte came at system time 12:00:00.040 is written with those two
/// times (chrony sees the system clock 40 ms ahead), and `lastOffsetNanoseconds` is -40_000_000.
struct TimeService: ~Copyable {
    /// The `[time]` keys in force.
    private(set) var settings: TrackdConfig.Time
    /// The attached unit; nil when off or when attaching failed.
    private var segment: NTPSharedMemory?
    /// The unit the settings ask for, nil when off.
    private(set) var unit: Int?
    /// Why no unit is attached, e.g. `unit 2: Permission denied` (key 0x4E545030 + unit).
    private(set) var problem: String?
    /// Samples written since start.
    private(set) var samples = 0
    /// Good epochs that came without a receive time (the first after start or a reopen).
    private(set) var skipped = 0
    /// The last sample's receiver minus system time.
    private(set) var lastOffsetNanoseconds: Int64?
    private let isRoot: Bool
    /// False for a replay: its times are history, not the present, and never go to chrony.
    private let live: Bool
    /// Unit 0's key: NTP's, or a test's own.
    private let baseKey: Int32

    /// Attaches the unit `settings` ask for (allocates: start-up).
    init(_ settings: TrackdConfig.Time, live: Bool = true, isRoot: Bool = NTPSharedMemory.runningAsRoot,
         baseKey: Int32 = NTPSharedMemory.baseKey) {
        self.settings = settings
        self.live = live
        self.isRoot = isRoot
        self.baseKey = baseKey
        attach()
    }

    /// Applies a reload's `[time]`; attaches again only when the unit changed (or failed before).
    mutating func apply(_ plan: ReloadPlan) {
        let settings = plan.config.time
        let changed = (live ? settings.shm.resolved(isRoot: isRoot) : nil) != unit || problem != nil
        self.settings = settings
        if changed { attach() }
    }

    /// What status and doctor show of the unit.
    var facts: StatusModel.TimeFacts {
        StatusModel.TimeFacts(unit: unit, problem: problem, samples: samples, lastOffsetNanoseconds: lastOffsetNanoseconds)
    }

    /// Writes `fix`'s time when the fix is good: 2D or 3D, a dated UTC time, and accepted by
    /// the filter or rejected only for its position (`rejection`: accuracy, a jump), which
    /// leaves its time good; a stale, invalid or satellite-poor fix writes nothing. `receivedAt`:
    /// when the epoch's first byte came (system clock, ns since 1970). Allocates nothing.
    mutating func publish(_ fix: borrowing Fix, rejection: FilterRejection?, receivedAt: Int64?) {
        guard isActive, let utc = fix.time, fix.mode.rawValue >= FixMode.twoD.rawValue else { return }
        switch rejection {
        case nil, .inaccurate?, .implausibleJump?: break
        default: return
        }
        publish(receiverTime: utc, receivedAt: receivedAt)
    }

    /// Attaches the unit; one line in the journal when it cannot be (start-up, a reload).
    private mutating func attach() {
        attachUnit()
        if let problem { Journal.say("time: NTP shared memory " + problem + "; chrony gets no time from trackd, tracking goes on") }
    }

    private mutating func attachUnit() {
        segment = nil
        problem = nil
        unit = live ? settings.shm.resolved(isRoot: isRoot) : nil
        guard let unit else { return }
        do {
            segment = try NTPSharedMemory(unit: unit, baseKey: baseKey)
        } catch {
            problem = String(joining: "unit ", String(unit), ": ", error.message)
        }
    }

    /// Whether a unit is attached and written to.
    var isActive: Bool { segment != nil }

    /// Writes one sample: the good epoch stamped `receiverTime`, whose first byte arrived at
    /// `receivedAt` (the system clock, ns since 1970; nil when unknown). Allocates nothing.
    mutating func publish(receiverTime: UTCTime, receivedAt: Int64?) {
        guard segment != nil else { return }
        guard let receivedAt else {
            skipped += 1
            return
        }
        let sample = NTPSample(receiverNanoseconds: receiverTime.millisecondsSinceEpoch &* 1_000_000,
                               systemNanoseconds: receivedAt)
        segment?.write(sample, precision: settings.precisionLog2Seconds)
        samples += 1
        lastOffsetNanoseconds = sample.offsetNanoseconds
    }
}
