/// An NMEA sentence a receiver can be told to send or not, with its number in each vendor's
/// command set.
///
/// The numbers, by command:
/// * u-blox CFG-MSG, class 0xF0: GGA 00, GLL 01, GSA 02, GSV 03, RMC 04, VTG 05, GST 07,
///   ZDA 08, GBS 09 (UBX-13003221, section 32.8.3 "NMEA Standard Messages"; gpsd's
///   `gps/ubx.py` table `nmea_ids` agrees);
/// * MediaTek PMTK314, the field of the 19 (0-based): GLL 0, RMC 1, VTG 2, GGA 3, GSA 4,
///   GSV 5, GST 7, ZDA 17 (MediaTek's PMTK command packet manual; gpsd's
///   `drivers/driver_nmea0183.c` lists the same fields above `mtk3301_event_hook`); PMTK314
///   has no field for GBS;
/// * PAIR062 (Airoha inside: Quectel LC29H, LC79H, LC79D, LC76G, LC86G): GGA 0, GLL 1, GSA 2,
///   GSV 3, RMC 4, VTG 5, ZDA 6 (Quectel's LC29H&LC79H protocol specification, PAIR062; the
///   Airoha PAIR list SIMCom's SIM65M manual quotes has the same seven); GST and GBS have no
///   number trackd can document, so they are left as the receiver has them.
public enum NMEAOutputSentence: Int, CaseIterable, Equatable, Sendable {
    case gga, gll, gsa, gsv, rmc, vtg, gst, zda, gbs

    /// The formatter, e.g. `"GST"`.
    public var name: StaticString {
        switch self {
        case .gga: "GGA"
        case .gll: "GLL"
        case .gsa: "GSA"
        case .gsv: "GSV"
        case .rmc: "RMC"
        case .vtg: "VTG"
        case .gst: "GST"
        case .zda: "ZDA"
        case .gbs: "GBS"
        }
    }

    /// The formatter as a string, e.g. `"GST"` (status and messages).
    public var text: String {
        String(decoding: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), as: UTF8.self)
    }

    /// The formatter in lower case, e.g. `"gst"`: how trackd.conf and `trackctl receiver
    /// sentences` write it. ASCII by hand: `String.lowercased()` links the standard library's
    /// Unicode case tables (16 KB of firmware).
    public var lowercaseText: String {
        String(unsafeUninitializedCapacity: name.utf8CodeUnitCount) { bytes in
            for offset in 0..<name.utf8CodeUnitCount { bytes[offset] = name.utf8Start[offset] | 0x20 }
            return name.utf8CodeUnitCount
        }
    }

    /// The sentence named by `text` in either case, e.g. `"gst"` → `.gst`; nil for others.
    public init?(name text: some Collection<UInt8>) {
        guard text.count == 3 else { return nil }
        candidates: for sentence in Self.allCases {
            var offset = 0
            for byte in text {
                let upper = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
                if upper != sentence.name.utf8Start[offset] { continue candidates }
                offset += 1
            }
            self = sentence
            return
        }
        return nil
    }

    /// The message id of the u-blox NMEA class 0xF0, e.g. `.gst` → 0x07.
    public var ubxID: UInt8 {
        switch self {
        case .gga: 0x00
        case .gll: 0x01
        case .gsa: 0x02
        case .gsv: 0x03
        case .rmc: 0x04
        case .vtg: 0x05
        case .gst: 0x07
        case .zda: 0x08
        case .gbs: 0x09
        }
    }

    /// The u-blox 9/10 configuration key of this sentence's rate on UART1, e.g. `.gst` →
    /// CFG-MSGOUT-NMEA_ID_GST_UART1, 0x209100D4 (UBX-21035062 section 4.9.x "CFG-MSGOUT";
    /// the same keys in gpsd's `gps/ubx.py` and SparkFun's `u-blox_config_keys.h`).
    public var ubxUART1RateKey: UBXConfigKey {
        switch self {
        case .gga: UBXConfigKey(rawValue: 0x2091_00BB)
        case .gll: UBXConfigKey(rawValue: 0x2091_00CA)
        case .gsa: UBXConfigKey(rawValue: 0x2091_00C0)
        case .gsv: UBXConfigKey(rawValue: 0x2091_00C5)
        case .rmc: UBXConfigKey(rawValue: 0x2091_00AC)
        case .vtg: UBXConfigKey(rawValue: 0x2091_00B1)
        case .gst: UBXConfigKey(rawValue: 0x2091_00D4)
        case .zda: UBXConfigKey(rawValue: 0x2091_00D9)
        case .gbs: UBXConfigKey(rawValue: 0x2091_00DE)
        }
    }

    /// The PMTK314 field (0-based, of 19), nil for GBS which PMTK314 cannot set.
    public var pmtk314Field: Int? {
        switch self {
        case .gll: 0
        case .rmc: 1
        case .vtg: 2
        case .gga: 3
        case .gsa: 4
        case .gsv: 5
        case .gst: 7
        case .zda: 17
        case .gbs: nil
        }
    }

    /// The PAIR062 type, nil where Quectel's specification gives none trackd relies on.
    public var pair062Type: Int? {
        switch self {
        case .gga: 0
        case .gll: 1
        case .gsa: 2
        case .gsv: 3
        case .rmc: 4
        case .vtg: 5
        case .zda: 6
        case .gst, .gbs: nil
        }
    }
}

/// How often each sentence is sent, in epochs: 0 off, 1 every epoch, 5 every fifth, at most
/// 20 (the largest interval every vendor takes; PMTK314 takes 0…5).
///
/// Example: `SentenceRates(rmc: 1, gga: 1, gsa: 1, gst: 1, gsv: 5)` — trackd's default, the
/// sentences the fix assembler and the filter use, satellites every fifth epoch.
public struct SentenceRates: Equatable, Sendable {
    var everyEpochs: InlineArray<9, UInt8>

    /// Largest interval accepted, in epochs.
    public static var maximumInterval: Int { 20 }

    /// All sentences off.
    public init() { everyEpochs = InlineArray(repeating: 0) }

    /// The given sentences at the given intervals, the rest off.
    public init(gga: Int = 0, gll: Int = 0, gsa: Int = 0, gsv: Int = 0, rmc: Int = 0, vtg: Int = 0,
                gst: Int = 0, zda: Int = 0, gbs: Int = 0) {
        self.init()
        self[.gga] = gga
        self[.gll] = gll
        self[.gsa] = gsa
        self[.gsv] = gsv
        self[.rmc] = rmc
        self[.vtg] = vtg
        self[.gst] = gst
        self[.zda] = zda
        self[.gbs] = gbs
    }

    /// trackd's default: RMC, GGA, GSA and GST every epoch, GSV every fifth.
    public static var trackdDefault: SentenceRates { SentenceRates(gga: 1, gsa: 1, gsv: 5, rmc: 1, gst: 1) }

    /// The interval of one sentence in epochs (0: off), clamped to 0…`maximumInterval`.
    public subscript(sentence: NMEAOutputSentence) -> Int {
        get { Int(everyEpochs[sentence.rawValue]) }
        set { everyEpochs[sentence.rawValue] = UInt8(min(max(newValue, 0), Self.maximumInterval)) }
    }

    public static func == (lhs: SentenceRates, rhs: SentenceRates) -> Bool {
        for sentence in NMEAOutputSentence.allCases where lhs[sentence] != rhs[sentence] { return false }
        return true
    }
}
