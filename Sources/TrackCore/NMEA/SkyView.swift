/// One satellite of the sky view, as gpsd's SKY reports it.
public struct SkySatellite: Equatable, Sendable {
    /// gpsd's PRN (NMEA 2.x–4.0 numbering, see `SkyView.prn`): GPS 1–32, SBAS 33–64 and
    /// 120–158, GLONASS 65–96, QZSS 193–197, Galileo 301–336, BeiDou 401–437; 0 unknown.
    public var prn: UInt16
    /// Elevation in degrees −90…90; nil when not sent.
    public var elevationDegrees: Int8?
    /// Azimuth in degrees 0…360; nil when not sent.
    public var azimuthDegrees: Int16?
    /// Signal to noise ratio in dB-Hz; nil when not tracked.
    public var snr: UInt8?
    /// Used in the solution: named by the GSAs before it and tracked (a signal above 0).
    public var used: Bool
}

/// The satellites in view, merged from GSV sets and marked used from GSA, by gpsd's rules
/// (`driver_nmea0183.c`, processGSV and processGSA; where gpsd 3.22 and the gpsd of the
/// regression outputs in ../shared/data/gpsd-regress (3.27) differ, the later one, named):
///
/// * GSVs that follow each other accumulate, across talkers (GLGSV then GPGSV) and signals (a
///   u-blox M8's GPGSV for L1 then for L2, a Unicore UM621's GPGSV for L1 then L5); a set's
///   first sentence after any other sentence starts the view afresh. (gpsd 3.22 also started
///   afresh at a GPGSV set of signal 0, 1, 7 or 8; 3.27 keeps them: its output for the UM621
///   lists 80 signals, for the Quectel EG25-G its GLGSV satellites before its GPGSV ones.)
/// * a satellite number of 0 (or an empty one) is no satellite (gpsd: "skip bogus fields");
///   a satellite's PRN follows gpsd's numbering (`SkyView+PRN.swift`);
/// * the view is complete at a set's last sentence, unless every azimuth is 0 (SiRFstar II's
///   "hairball" when it sees nothing): then it is emptied;
/// * gpsd reports a SKY at each set's last sentence (processGSV returns SATELLITE_SET), except
///   at the end of a GPGSV set once another constellation's GSV has been seen: "assumes GLGSV
///   or BDGSV group, if present, is emitted after the GPGSV". The counts at those reports are
///   kept for the epoch (`reports(_:)`), so that trackd's gpsd service sends the same
///   SKYs after the epoch's TPV;
/// * GSAs that follow each other accumulate the used list, except that the same talker again
///   (other than GN) starts it afresh, as does the first GSA after any other sentence;
/// * a satellite is used when its PRN is in the used list at its GSV and its signal is above 0.
///
/// Fixed storage: at most `capacity` satellites, gpsd's MAXCHANNELS; as in gpsd a set that
/// would go past it empties the view.
public struct SkyView: Sendable {
    /// Most satellites kept: gpsd's MAXCHANNELS (`gps.h`: 140, "u-blox 9 tracks 140 signals").
    public static var capacity: Int { 140 }
    /// Most SKY reports one epoch keeps (a receiver sends a set per constellation and signal:
    /// the UM621 sends seven).
    public static var reportCapacity: Int { 16 }
    /// PRNs the used set can hold: gpsd's numbering ends below 600 (NavIC 501–).
    static var prnLimit: Int { 640 }

    /// The satellites, first `count` valid.
    public private(set) var satellites: InlineArray<140, SkySatellite> =
        InlineArray(repeating: SkySatellite(prn: 0, elevationDegrees: nil, azimuthDegrees: nil, snr: nil, used: false))
    /// Satellites in `satellites`, the set in progress included.
    public private(set) var count = 0
    /// Satellites as of the last set's end: the view a client is shown. 0 until a set of the
    /// run in progress has ended.
    public private(set) var completeCount = 0
    // The satellite counts at the SKY reports of the epoch in progress (the 16 from offset
    // `bank`, 0 or 16) and of
    // the last epoch completed (the other 16): `closeEpoch` swaps them, no copy.
    var reportBanks: InlineArray<32, UInt8> = InlineArray(repeating: 0)
    var bank = 0
    var reportCount = 0
    var closedReportCount = 0
    // The PRNs the GSAs named, one bit each: a GSV's satellites are looked up at once.
    var usedBits: InlineArray<10, UInt64> = InlineArray(repeating: 0)
    // The second letter of the talker of the GSV (GSA) just before, 0 after any other sentence.
    var lastGSVTalker: UInt8 = 0
    var lastGSATalker: UInt8 = 0
    // A GSV of another talker than GP has been seen (gpsd's seen_glgsv, seen_gagsv, …).
    var seenOtherConstellation = false

    /// An empty sky.
    public init() {}

    /// True once a whole set has arrived since the view was last started afresh.
    public var complete: Bool { completeCount > 0 }

    /// Satellites marked used among the first `count`.
    public func usedSatellites(in count: Int) -> Int {
        var used = 0
        for index in 0..<min(count, self.count) where satellites[index].used { used += 1 }
        return used
    }

    /// Satellites marked used in the complete view.
    public var usedSatellites: Int { usedSatellites(in: completeCount) }

    /// The satellite counts of the SKYs gpsd reported during the epoch completed last, in
    /// order, each a prefix of `satellites`; e.g. `[11, 18]` for a GPGSV, GLGSV and GAGSV run
    /// of 1, 10 and 7 satellites (no report at the GPGSV's end, one at each other's).
    public func reports(_ index: Int) -> Int { Int(reportBanks[(16 - bank) + index]) }
    /// How many `reports(_:)` there are.
    public var reportsInEpoch: Int { closedReportCount }

    /// Called after every sentence but a GSV (GSA): the next GSV (GSA) starts a new run.
    @inline(__always)
    mutating func endRuns(after type: SentenceType) {
        if type != .gsv { lastGSVTalker = 0 }
        if type != .gsa { lastGSATalker = 0 }
    }

    /// The epoch in progress is complete: its reports become `reports(_:)`.
    mutating func closeEpoch() {
        closedReportCount = reportCount
        reportCount = 0
        bank = 16 - bank
    }

    /// Empties the view (a new run, a hairball, an overflow); reports of this epoch that were
    /// prefixes of it go with it.
    mutating func empty() {
        count = 0
        completeCount = 0
        reportCount = 0
    }

    /// One GSV sentence from `talker`.
    mutating func add(_ gsv: GSV, talker: UInt16) {
        let second = UInt8(truncatingIfNeeded: talker)
        if gsv.number == 1 && lastGSVTalker == 0 { empty() }
        lastGSVTalker = second
        if second != UInt8(ascii: "P") { seenOtherConstellation = true }
        let system = gsv.systemID.map { Int($0) } ?? Self.system(talker: talker)
        let low = Self.lowOffset(system: system, talker: talker)
        for index in 0..<gsv.satelliteCount {
            let entry = gsv.satellites[index]
            guard entry.id > 0 else { continue }
            // gpsd: "internal error - too many satellites", and the view is zeroed.
            guard count < Self.capacity else {
                empty()
                return
            }
            let prn = Self.prn(Int(entry.id), system: system, talker: talker, low: low)
            var used = false
            if prn > 0, let snr = entry.snr, snr > 0 {
                used = Int(prn) < Self.prnLimit && usedBits[Int(prn) >> 6] & (1 << UInt64(prn & 63)) != 0
            }
            satellites[count] = SkySatellite(
                prn: prn, elevationDegrees: entry.elevationDegrees, azimuthDegrees: entry.azimuthDegrees,
                snr: entry.snr, used: used)
            count += 1
        }
        guard gsv.number == gsv.total else { return }
        for index in 0..<count where (satellites[index].azimuthDegrees ?? 0) != 0 {
            completeCount = count
            report(talker: second)
            return
        }
        empty()
    }

    /// Counts gpsd's SKY report at the end of a set from a talker ending in `second`.
    @inline(__always)
    mutating func report(talker second: UInt8) {
        if second == UInt8(ascii: "P") && seenOtherConstellation { return }
        guard reportCount < Self.reportCapacity else { return }
        reportBanks[bank + reportCount] = UInt8(count)
        reportCount += 1
    }

    /// One GSA sentence from `talker`.
    mutating func add(_ gsa: GSA, talker: UInt16) {
        let second = UInt8(truncatingIfNeeded: talker)
        if lastGSATalker == 0 || (second == lastGSATalker && second != UInt8(ascii: "N")) {
            usedBits = InlineArray(repeating: 0)
        }
        lastGSATalker = second
        // NMEA 4.1's system ID says which constellation a GNGSA's numbers belong to.
        let system = gsa.systemID.map { Int($0) } ?? Self.system(talker: talker)
        let low = Self.lowOffset(system: system, talker: talker)
        for index in 0..<gsa.satelliteCount {
            let prn = Int(Self.prn(Int(gsa.satellites[index]), system: system, talker: talker, low: low))
            guard prn > 0, prn < Self.prnLimit else { continue }
            usedBits[prn >> 6] |= 1 << UInt64(prn & 63)
        }
    }
}
