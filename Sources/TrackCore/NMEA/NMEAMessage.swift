/// A decoded sentence, as one value: for tests and tools that want to look at what a
/// sentence said. The receiver does not use it; it decodes through the sentence table
/// straight into the epoch.
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
    /// A sentence of a table row this enum has no case for (decode it with its own
    /// decoder, e.g. `try GBS(sentence)`); it did decode.
    case other(SentenceType)
    /// A well-formed sentence of a type trackd does not use.
    case unknown
    /// A proprietary `$P…` sentence, skipped.
    case proprietary

    /// Decodes a framed sentence by its type's table row: a pure function of the bytes.
    public init(_ sentence: borrowing NMEASentence) throws(NMEAError) {
        var visitor = MessageDecoding(sentence: copy sentence)
        try sentence.type.visitRow(&visitor)
        self = visitor.message
    }
}

/// Decodes one sentence into an `NMEAMessage`.
private struct MessageDecoding: SentenceTableVisitor {
    var sentence: NMEASentence
    var message = NMEAMessage.unknown

    mutating func visit<Decoder: NMEASentenceDecoder>(_ decoder: Decoder.Type, minimumFields: Int) throws(NMEAError) {
        message = try Decoder(sentence).message
    }

    mutating func skip() {
        message = sentence.type == .proprietary ? .proprietary : .unknown
    }
}
