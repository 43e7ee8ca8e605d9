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
/// (`driver_nmea0183.c`, processGSV and processGSA):
///
/// * GSVs that follow each other accumulate, across talkers (GLGSV then GPGSV) and signals (a
///   u-blox M8's GPGSV for L1 then for L2); a set's first sentence after any other sentence
///   starts the view afresh;
/// * a satellite's PRN follows gpsd's numbering: the constellation from the system ID when
///   sent (GSA's NMEA 4.1 field, the one Quectel adds to GSV), else from the talker, then
///   gpsd's ranges (`prn(_:system:talker:)`);
/// * the view is complete at a set's last sentence, unless every azimuth is 0 (SiRFstar II's
///   "hairball" when it sees nothing): then it is emptied;
/// * GSAs that follow each other accumulate the used list, except that the same talker again
///   (other than GN) starts it afresh, as does the first GSA after any other sentence;
/// * a satellite is used when its PRN is in the used list at its GSV and its signal is above 0.
///
/// Fixed storage: at most `capacity` satellites, as gpsd's MAXCHANNELS bounds its table.
public struct SkyView: Sendable {
    /// Most satellites kept (a four-constellation receiver sees ~40).
    public static var capacity: Int { 64 }
    /// PRNs the used set can hold: gpsd's numbering ends below 600 (NavIC 501–).
    static var prnLimit: Int { 640 }

    /// The satellites, first `count` valid.
    public private(set) var satellites: InlineArray<64, SkySatellite> =
        InlineArray(repeating: SkySatellite(prn: 0, elevationDegrees: nil, azimuthDegrees: nil, snr: nil, used: false))
    /// Satellites in `satellites`.
    public private(set) var count = 0
    /// True once a whole set has arrived since the view was last started afresh.
    public private(set) var complete = false
    // The PRNs the GSAs named, one bit each: a GSV's satellites are looked up at once.
    var usedBits: InlineArray<10, UInt64> = InlineArray(repeating: 0)
    // The second letter of the talker of the GSV (GSA) just before, 0 after any other sentence.
    var lastGSVTalker: UInt8 = 0
    var lastGSATalker: UInt8 = 0

    /// An empty sky.
    public init() {}

    /// Satellites marked used.
    public var usedSatellites: Int {
        var used = 0
        for index in 0..<count where satellites[index].used { used += 1 }
        return used
    }

    /// Called after every sentence but a GSV (GSA): the next GSV (GSA) starts a new run.
    @inline(__always)
    mutating func endRuns(after type: SentenceType) {
        if type != .gsv { lastGSVTalker = 0 }
        if type != .gsa { lastGSATalker = 0 }
    }

    /// One GSV sentence from `talker`.
    mutating func add(_ gsv: GSV, talker: UInt16) {
        let second = UInt8(truncatingIfNeeded: talker)
        if gsv.number == 1 && lastGSVTalker == 0 {
            count = 0
            complete = false
        }
        lastGSVTalker = second
        let system = gsv.systemID.map { Int($0) } ?? Self.system(talker: talker)
        let low = Self.lowOffset(system: system, talker: talker)
        for index in 0..<gsv.satelliteCount where count < Self.capacity {
            let entry = gsv.satellites[index]
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
            complete = true
            return
        }
        count = 0
        complete = false
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

    /// `prn(_:system:talker:)` for a sentence's satellites: IDs 1–32 (most of them) are the ID
    /// plus `low`, GLONASS's 65–96 stay as they are; the rest take the general rule.
    @inline(__always)
    static func prn(_ id: Int, system: Int, talker: UInt16, low: Int) -> UInt16 {
        if id >= 1 && id <= 32 && low >= 0 { return UInt16(id + low) }
        if id >= 65 && id <= 96 && (system == 0 || system == 2) { return UInt16(id) }
        return prn(id, system: system, talker: talker)
    }

    /// What gpsd adds to IDs 1–32 of `system` (0: by `talker`); −1 when they have no PRN.
    static func lowOffset(system: Int, talker: UInt16) -> Int {
        switch system {
        case 0: Int(prn(1, talker: talker)) - 1
        case 1: 0
        case 2: 64
        case 3: 300
        case 4: 400
        case 5: 192
        case 6: 500
        default: -1
        }
    }

    /// NMEA 4.1's system ID a talker implies, as gpsd reads it: GA Galileo 3, GB/BD BeiDou 4,
    /// GI NavIC 6, GL GLONASS 2, GQ/PQ/QZ QZSS 5; 0 (none) for GP, GN and the rest.
    public static func system(talker: UInt16) -> Int {
        switch UInt8(truncatingIfNeeded: talker) {
        case UInt8(ascii: "A"): 3
        case UInt8(ascii: "B"), UInt8(ascii: "D"): 4
        case UInt8(ascii: "I"): 6
        case UInt8(ascii: "L"): 2
        case UInt8(ascii: "Q"), UInt8(ascii: "Z"): 5
        default: 0
        }
    }

    /// gpsd's PRN for NMEA satellite number `id` of NMEA 4.1 system `system` (0: not known,
    /// the ranges of NMEA 2.x–4.0 decide), after gpsd's nmeaid_to_prn. With a system: GPS and
    /// SBAS keep their numbers, GLONASS is 65–96, Galileo 301–, BeiDou 401–, QZSS 193–, NavIC
    /// 501–, each also from the receivers' own offsets (Quectel's Galileo 101–, BeiDou 201–).
    /// Without: IDs 1–32 of a GA, GB/BD, GI, GL, GQ, PQ or QZ talker move to those ranges, IDs
    /// above 32 keep NMEA's ranges (BeiDou 201–237 moves to 401–437), and IDs in no range are 0.
    /// E.g. `$GAGSV` satellite 11 → 311.
    public static func prn(_ id: Int, system: Int, talker: UInt16) -> UInt16 {
        guard id > 0 else { return 0 }
        switch system {
        case 0:
            return prn(id, talker: talker)
        case 1:
            switch id {
            case 1...136, 152...157, 193...264: return UInt16(id)
            default: return 0
            }
        case 2: return UInt16(64 + (id < 64 ? id : id - 64))
        case 3: return UInt16(300 + Self.own(id, quirks: 101...199, 301...399))
        case 4: return UInt16(400 + Self.own(id, quirks: 201...299, 401...499))
        case 5: return UInt16(192 + (id < 100 ? id : id - 192))
        case 6: return UInt16(500 + id)
        default: return 0
        }
    }

    /// A constellation's own number: NMEA's 1–99 as is, a receiver's ranges from their starts
    /// (Galileo's 101–199 is Quectel's, 301–399 Jackson Labs'), else 0 as in gpsd.
    static func own(_ id: Int, quirks first: ClosedRange<Int>, _ second: ClosedRange<Int>) -> Int {
        if id < 100 { return id }
        if first.contains(id) { return id - first.lowerBound + 1 }
        if second.contains(id) { return id - second.lowerBound + 1 }
        return 0
    }

    /// gpsd's PRN for NMEA 2.x–4.0 satellite number `id` from `talker`.
    static func prn(_ id: Int, talker: UInt16) -> UInt16 {
        switch id {
        case 1...32:
            switch talker {
            case 0x4741: return UInt16(300 + id)  // GA
            case 0x4742, 0x4244: return UInt16(400 + id)  // GB, BD
            case 0x4749: return UInt16(500 + id)  // GI
            case 0x474C: return UInt16(64 + id)  // GL
            case 0x4751, 0x515A: return UInt16(192 + id)  // GQ, QZ
            case 0x5051: return UInt16(400 + id)  // PQ: Quectel's BeiDou
            default: return UInt16(id)
            }
        case 33...96, 120...158, 173...182, 193...197, 301...356, 401...437: return UInt16(id)
        case 201...237: return UInt16(id + 200)
        default: return 0
        }
    }
}
