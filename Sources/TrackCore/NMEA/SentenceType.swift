/// The sentence formatter after the talker: `GGA` in `$GNGGA`.
public enum SentenceType: UInt8, Equatable, Sendable, CaseIterable {
    case gga, rmc, gsa, gsv, vtg, gll, gns, zda, gst, txt
    /// A formatter trackd does not decode (e.g. `GBS`, `RMB`).
    case unknown
    /// A proprietary sentence (`$P…`, e.g. `$PUBX`), skipped by design.
    case proprietary

    /// The three-letter formatter, e.g. `"GGA"`.
    public var name: String {
        switch self {
        case .gga: "GGA"
        case .rmc: "RMC"
        case .gsa: "GSA"
        case .gsv: "GSV"
        case .vtg: "VTG"
        case .gll: "GLL"
        case .gns: "GNS"
        case .zda: "ZDA"
        case .gst: "GST"
        case .txt: "TXT"
        case .unknown: "unknown"
        case .proprietary: "proprietary"
        }
    }

    /// Classifies the address field's bytes, e.g. `GNGGA` → `.gga`, `PUBX` → `.proprietary`.
    ///
    /// A standard address is a two-letter talker plus a three-letter formatter. `$PQGSV` is
    /// Quectel's QZSS talker, not a proprietary sentence, so `P` followed by a known formatter
    /// in a five-letter address is decoded.
    static func classify(_ a0: UInt8, _ a1: UInt8, _ a2: UInt8, _ a3: UInt8, _ a4: UInt8,
                         length: Int) -> SentenceType {
        if length != 5 { return a0 == UInt8(ascii: "P") ? .proprietary : .unknown }
        // Pack the formatter into one integer so the match is a single switch.
        let key = UInt32(a2) << 16 | UInt32(a3) << 8 | UInt32(a4)
        let type: SentenceType
        switch key {
        case 0x47_47_41: type = .gga
        case 0x52_4D_43: type = .rmc
        case 0x47_53_41: type = .gsa
        case 0x47_53_56: type = .gsv
        case 0x56_54_47: type = .vtg
        case 0x47_4C_4C: type = .gll
        case 0x47_4E_53: type = .gns
        case 0x5A_44_41: type = .zda
        case 0x47_53_54: type = .gst
        case 0x54_58_54: type = .txt
        default: type = .unknown
        }
        // Only Quectel's `PQ` talker carries standard formatters; Garmin's `$PGRMC` is its own.
        if a0 == UInt8(ascii: "P") && (a1 != UInt8(ascii: "Q") || type == .unknown) { return .proprietary }
        return type
    }
}
