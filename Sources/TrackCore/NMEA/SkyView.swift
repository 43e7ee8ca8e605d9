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
/// * GSVs that follow each other accumulate across talkers (GPGSV then GLGSV); a set's first
///   sentence after any other sentence, or a GPGSV set's first sentence of signal 0, 1 or 7
///   (L1 and E1: a new cycle rather than a second signal), starts the view afresh;
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
    /// Most PRNs in the used list.
    static var usedCapacity: Int { 48 }

    /// The satellites, first `count` valid.
    public private(set) var satellites: InlineArray<64, SkySatellite> =
        InlineArray(repeating: SkySatellite(prn: 0, elevationDegrees: nil, azimuthDegrees: nil, snr: nil, used: false))
    /// Satellites in `satellites`.
    public private(set) var count = 0
    /// True once a whole set has arrived since the view was last started afresh.
    public private(set) var complete = false
    var usedPRNs: InlineArray<48, UInt16> = InlineArray(repeating: 0)
    var usedCount = 0
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
    mutating func endRuns(after type: SentenceType) {
        if type != .gsv { lastGSVTalker = 0 }
        if type != .gsa { lastGSATalker = 0 }
    }

    /// One GSV sentence from `talker`.
    mutating func add(_ gsv: GSV, talker: UInt16) {
        let second = UInt8(truncatingIfNeeded: talker)
        if gsv.number == 1 {
            // NMEA 4.1 signal 1 (L1 C/A) and 7 (E1) are u-blox's signal 0, as gpsd maps them.
            let firstSignal = gsv.signalID.map { $0 == 0 || $0 == 1 || $0 == 7 } ?? true
            if lastGSVTalker == 0 || (second == UInt8(ascii: "P") && firstSignal) {
                count = 0
                complete = false
            }
            lastGSVTalker = second
        }
        for index in 0..<gsv.satelliteCount where count < Self.capacity {
            let entry = gsv.satellites[index]
            let prn = Self.prn(Int(entry.id), talker: talker)
            var used = false
            if prn > 0, let snr = entry.snr, snr > 0 {
                for slot in 0..<usedCount where usedPRNs[slot] == prn { used = true }
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
            usedCount = 0
        }
        lastGSATalker = second
        for index in 0..<gsa.satelliteCount where usedCount < Self.usedCapacity {
            let prn = Self.prn(Int(gsa.satellites[index]), talker: talker)
            guard prn > 0 else { continue }
            usedPRNs[usedCount] = prn
            usedCount += 1
        }
    }

    /// gpsd's PRN for NMEA satellite number `id` from `talker` (gpsd's nmeaid_to_prn without a
    /// system ID): IDs 1–32 are told apart by talker (GA +300, GB/BD/PQ +400, GL +64, QZ +192),
    /// the NMEA ranges above 32 are kept, non-standard BeiDou 201–237 move to 401–437, and IDs
    /// in no range are 0. E.g. `$GAGSV` satellite 11 → 311.
    public static func prn(_ id: Int, talker: UInt16) -> UInt16 {
        switch id {
        case 1...32:
            switch talker {
            case 0x4741: return UInt16(300 + id)  // GA
            case 0x4742, 0x4244, 0x5051: return UInt16(400 + id)  // GB, BD, PQ (Quectel's BeiDou)
            case 0x474C: return UInt16(64 + id)  // GL
            case 0x515A: return UInt16(192 + id)  // QZ
            default: return UInt16(id)
            }
        case 33...96, 120...158, 173...182, 193...197, 301...356, 401...437: return UInt16(id)
        case 201...237: return UInt16(id + 200)
        default: return 0
        }
    }
}
