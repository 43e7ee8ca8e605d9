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
        var message = NMEAMessage.unknown
        try Self.decode(&sentence, into: &message) { decoded, message in message = copy decoded }
        self = message
    }

    /// Decodes `sentence` in place (see `NMEASentence+Fields.swift`; it is only read) and
    /// calls `body` once with the message and `context` (not at all when decoding throws).
    ///
    /// Each case builds its message where `body` reads it. A function returning the message
    /// assembles it in a temporary and copies all of it (over 200 bytes, for TXT) on the way out.
    @inline(__always)
    static func decode<Context>(
        _ sentence: inout NMEASentence, into context: inout Context,
        _ body: (borrowing NMEAMessage, inout Context) -> Void
    ) throws(NMEAError) {
        switch sentence.type {
        case .gga: body(.gga(try GGA(decoding: &sentence)), &context)
        case .rmc: body(.rmc(try RMC(decoding: &sentence)), &context)
        case .gsa: body(.gsa(try GSA(decoding: &sentence)), &context)
        case .gsv: body(.gsv(try GSV(decoding: &sentence)), &context)
        case .vtg: body(.vtg(try VTG(decoding: &sentence)), &context)
        case .gll: body(.gll(try GLL(decoding: &sentence)), &context)
        case .gns: body(.gns(try GNS(decoding: &sentence)), &context)
        case .zda: body(.zda(try ZDA(decoding: &sentence)), &context)
        case .gst: body(.gst(try GST(decoding: &sentence)), &context)
        case .txt: body(.txt(try TXT(decoding: &sentence)), &context)
        case .unknown: body(.unknown, &context)
        case .proprietary: body(.proprietary, &context)
        }
    }
}
