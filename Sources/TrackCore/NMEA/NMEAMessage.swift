/// A decoded sentence.
public enum NMEAMessage: Equatable, Sendable {
    case gga(GGA)
    case rmc(RMC)
    case gsa(GSA)
    case gsv(GSV)
    case vtg(VTG)
    case gll(GLL)
    case gns(GNS)
    case zda(ZDA)
    case gst(GST)
    case txt(TXT)
    /// A well-formed sentence of a type trackd does not use.
    case unknown
    /// A proprietary `$P…` sentence, skipped.
    case proprietary

    /// Decodes a framed sentence by its type: a pure function of the bytes.
    public init(_ sentence: borrowing NMEASentence) throws(NMEAError) {
        var sentence = copy sentence
        try self.init(decoding: &sentence)
    }

    /// Decodes in place (see `NMEASentence+InPlace.swift`); `sentence` is only read.
    init(decoding sentence: inout NMEASentence) throws(NMEAError) {
        switch sentence.type {
        case .gga: self = .gga(try GGA(decoding: &sentence))
        case .rmc: self = .rmc(try RMC(decoding: &sentence))
        case .gsa: self = .gsa(try GSA(decoding: &sentence))
        case .gsv: self = .gsv(try GSV(decoding: &sentence))
        case .vtg: self = .vtg(try VTG(decoding: &sentence))
        case .gll: self = .gll(try GLL(decoding: &sentence))
        case .gns: self = .gns(try GNS(decoding: &sentence))
        case .zda: self = .zda(try ZDA(decoding: &sentence))
        case .gst: self = .gst(try GST(decoding: &sentence))
        case .txt: self = .txt(try TXT(decoding: &sentence))
        case .unknown: self = .unknown
        case .proprietary: self = .proprietary
        }
    }
}
