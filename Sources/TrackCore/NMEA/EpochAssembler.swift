/// Merges decoded sentences into one `Fix` per receiver epoch (each sentence type's
/// `contribute`, through the sentence table), following gpsd's rules:
///
/// * a change of UTC time (more than 10 ms) in RMC, GGA, GLL, GNS or ZDA starts a new epoch;
///   sentences without a time (GSA, GSV, VTG, GST) belong to the epoch in progress;
/// * the date comes from RMC or ZDA; GGA/GLL/GNS times count only once a date is known,
///   and roll the date over at midnight;
/// * GSA's fix type decides 2D/3D; without GSA, a position with an altitude is 3D, a
///   position alone is 2D; a 3D receiver sending only RMC in an epoch stays 3D;
/// * RMC status V, GGA quality 0, GLL status V and GNS mode N mean no fix;
/// * when the epoch's sentences disagree on the position, the one most agree on wins
///   (`PositionVote`), else the latest.
public struct EpochAssembler: Sendable {
    var fix = Fix()
    var epochTime: TimeOfDay?
    var hasData = false
    var date: CalendarDate?
    var lastTimeOfDay: TimeOfDay?
    var previousMode = FixMode.unknown
    // What this epoch said about its mode.
    var gsaFixType: UInt8?
    var invalid = false
    var gsaSatellites = 0
    var reportedFix = false
    var positions = PositionVote()
    var inViewByTalker: InlineArray<8, UInt8> = InlineArray(repeating: 0)
    /// The satellites in view (GSV) and used (GSA); it spans epochs, as GSV sets do.
    public internal(set) var sky = SkyView()
    /// The epoch the last `add` or `finish` completed, when it returned true.
    public internal(set) var completed = Fix()

    /// An assembler with no date yet.
    public init() {}

    /// Ends the input: completes the epoch in progress, if any; true when there was one (its
    /// fix is then in `completed`).
    public mutating func finish() -> Bool {
        defer { epochTime = nil }
        guard hasData else { return false }
        complete()
        return true
    }

    /// Starts the epoch of a sentence stamped `time` (nil: the sentence joins the epoch in
    /// progress); true when that completed the previous epoch.
    mutating func startEpoch(at time: TimeOfDay?) -> Bool {
        guard let time else { return false }
        var done = false
        if let current = epochTime {
            let delta = time.millisecondsSinceMidnight - current.millisecondsSinceMidnight
            if delta > 10 || delta < -10 {
                if hasData { complete(); done = true }
            } else if let stamped = fix.time, let date, stamped == UTCTime(date: date, time: time) {
                // Same instant again; a new date for the same time of day (RMC after GGA) restamps.
                return false
            }
        } else if hasData {
            complete()
            done = true
        }
        // Within one epoch the latest timestamp wins, as in gpsd: the Magellan eXplorist 210
        // stamps the sentences of one epoch a few milliseconds apart.
        epochTime = time
        stamp(time)
        return done
    }

    /// Gives the epoch its UTC time when a date is known, rolling over at midnight.
    mutating func stamp(_ time: TimeOfDay) {
        guard var date else { return }
        if let last = lastTimeOfDay, time.millisecondsSinceMidnight + 43_200_000 < last.millisecondsSinceMidnight {
            date = CalendarDate(daysSinceEpoch: date.daysSinceEpoch + 1)
            self.date = date
        }
        lastTimeOfDay = time
        fix.time = UTCTime(date: date, time: time)
    }

    /// Moves the epoch in progress to `completed` and starts an empty one.
    mutating func complete() {
        fix.mode = resolvedMode()
        completed = fix
        // The SKYs gpsd reported during the epoch go out after its TPV.
        sky.closeEpoch()
        previousMode = fix.mode
        // Satellites in view carry over: GSV sets often span several epochs.
        let inView = fix.satellitesInView
        fix = Fix()
        fix.satellitesInView = inView
        hasData = false
        gsaFixType = nil
        invalid = false
        gsaSatellites = 0
        reportedFix = false
        positions = PositionVote()
    }

    func resolvedMode() -> FixMode {
        if let type = gsaFixType, let mode = FixMode(rawValue: type) {
            return invalid && fix.position == nil ? .noFix : mode
        }
        if invalid { return .noFix }
        // A time-only epoch (ZDA alone) says nothing about the fix.
        guard fix.position != nil else { return reportedFix ? .noFix : .unknown }
        // Without GSA the receiver does not say 2D or 3D; an altitude with the position is
        // taken as 3D, as gpsd does (the MediaTek 3301 sends GGA+RMC only).
        if fix.altitudeMSLMillimetres != nil { return .threeD }
        if previousMode == .threeD && fix.altitudeMSLMillimetres == nil { return .threeD }
        return .twoD
    }
}

/// Slot 0…7 for per-constellation counts: GP, GL, GA, GB/BD, GQ/QZ/PQ, GI, GN, other.
func talkerSlot(_ talker: UInt16) -> UInt8 {
    switch talker {
    case 0x4750: 0  // GP
    case 0x474C: 1  // GL
    case 0x4741: 2  // GA
    case 0x4742, 0x4244: 3  // GB, BD
    case 0x4751, 0x515A, 0x5051: 4  // GQ, QZ, PQ
    case 0x4749: 5  // GI
    case 0x474E: 6  // GN
    default: 7
    }
}
