/// A sentence type's decoder: the struct a row of the sentence table (`SentenceTable.swift`)
/// names. Decoding is a pure function of the sentence's bytes; `contribute` is what the
/// decoded sentence adds to the epoch in progress.
///
/// E.g. `try GST(sentence)` for `$GPGST,024603.00,3.2,6.6,4.7,47.3,5.8,5.6,22.0*58` gives the
/// 1σ errors 5.8 m, 5.6 m and 22.0 m as 580, 560 and 2200 cm; in the receiver, its
/// `contribute` puts them into the epoch's fix.
public protocol NMEASentenceDecoder: Sendable {
    /// The sentence type this decoder reads, e.g. `.gst`.
    static var type: SentenceType { get }
    /// Decodes the fields of `s`, which the table has checked to have at least its minimum
    /// count (the readers are `mutating` only to read in place; `s` is only read).
    init(decoding s: inout NMEASentence) throws(NMEAError)
    /// Adds the sentence to the epoch in progress; true when that completed the previous epoch
    /// (its fix is then in `epoch.completed`).
    func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool
    /// The sentence as an `NMEAMessage` (tests and tools); `.other(type)` unless the enum has
    /// a case for it.
    var message: NMEAMessage { get }
}

extension NMEASentenceDecoder {
    /// `.other(type)`: a type without a case of its own in `NMEAMessage`.
    public var message: NMEAMessage { .other(Self.type) }

    /// Decodes a framed sentence of this type: at least the table's minimum field count, then
    /// the decoder's own rules, e.g. a GGA of 9 fields → `tooFewFields(.gga, count: 9)`.
    public init(_ s: borrowing NMEASentence) throws(NMEAError) {
        var sentence = copy s
        let minimum = Self.type.minimumFields
        guard sentence.fieldCount >= minimum else { throw .tooFewFields(Self.type, count: sentence.fieldCount) }
        try self.init(decoding: &sentence)
    }
}
