// The sentence table: every sentence type trackd decodes, one row each. A new type is a file in
// Sentences/ with its `NMEASentenceDecoder` (fields and what it adds to the epoch) plus its
// case below (the formatter) and its row in `visitRow` (the minimum field count and the
// decoder). Nothing else in the receiver names sentence types.

/// The sentence formatter after the talker: `GGA` in `$GNGGA`. The raw value is the three
/// formatter letters packed big-endian, e.g. `GGA` → 0x474741.
public enum SentenceType: UInt32, Equatable, Sendable {
    case gga = 0x47_47_41
    case rmc = 0x52_4D_43
    case gsa = 0x47_53_41
    case gsv = 0x47_53_56
    case vtg = 0x56_54_47
    case gll = 0x47_4C_4C
    case gns = 0x47_4E_53
    case zda = 0x5A_44_41
    case gst = 0x47_53_54
    case txt = 0x54_58_54
    case gbs = 0x47_42_53
    /// A formatter trackd does not decode (e.g. `RMB`).
    case unknown = 0
    /// A proprietary sentence (`$P…`, e.g. `$PUBX`), skipped by design.
    case proprietary = 1
}

extension SentenceType {
    /// Calls `visitor` with this type's row: its decoder and minimum field count (the address
    /// field included, e.g. 10 for GGA: address, time, latitude, N/S, longitude, E/W, quality,
    /// satellites, HDOP, altitude); `skip` for unknown and proprietary sentences.
    @inline(__always)
    func visitRow<Visitor: SentenceTableVisitor>(_ visitor: inout Visitor) throws(NMEAError) {
        switch self {
        //                       decoder   minimum fields
        case .gga: try visitor.visit(GGA.self, minimumFields: 10)
        case .rmc: try visitor.visit(RMC.self, minimumFields: 10)
        case .gsa: try visitor.visit(GSA.self, minimumFields: 3)
        case .gsv: try visitor.visit(GSV.self, minimumFields: 4)
        case .vtg: try visitor.visit(VTG.self, minimumFields: 5)
        case .gll: try visitor.visit(GLL.self, minimumFields: 5)
        case .gns: try visitor.visit(GNS.self, minimumFields: 7)
        case .zda: try visitor.visit(ZDA.self, minimumFields: 5)
        case .gst: try visitor.visit(GST.self, minimumFields: 9)
        case .txt: try visitor.visit(TXT.self, minimumFields: 5)
        case .gbs: try visitor.visit(GBS.self, minimumFields: 5)
        case .unknown, .proprietary: visitor.skip()
        }
    }
}

/// What walks one row of the sentence table: the receiver decoding into the epoch, the
/// minimum-field lookup, the `NMEAMessage` view for tests.
protocol SentenceTableVisitor {
    /// The row of a decoded type.
    mutating func visit<Decoder: NMEASentenceDecoder>(_ decoder: Decoder.Type, minimumFields: Int) throws(NMEAError)
    /// An unknown or proprietary sentence.
    mutating func skip()
}
