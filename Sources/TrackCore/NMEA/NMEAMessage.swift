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
        switch sentence.type {
        case .gga: self = .gga(try GGA(sentence))
        case .rmc: self = .rmc(try RMC(sentence))
        case .gsa: self = .gsa(try GSA(sentence))
        case .gsv: self = .gsv(try GSV(sentence))
        case .vtg: self = .vtg(try VTG(sentence))
        case .gll: self = .gll(try GLL(sentence))
        case .gns: self = .gns(try GNS(sentence))
        case .zda: self = .zda(try ZDA(sentence))
        case .gst: self = .gst(try GST(sentence))
        case .txt: self = .txt(try TXT(sentence))
        case .unknown: self = .unknown
        case .proprietary: self = .proprietary
        }
    }
}
