/// TXT, a text message from the receiver: `$GPTXT,01,01,02,ANTSTATUS=OK*3B`.
public struct TXT: NMEASentenceDecoder, Equatable, Sendable {
    /// Number of sentences in the message.
    public var total: UInt8?
    /// This sentence's number.
    public var number: UInt8?
    /// Text identifier (u-blox: 00 error, 01 warning, 02 notice, 07 user).
    public var identifier: UInt8?
    /// The text bytes (first `length` entries), at most 200.
    public var text: InlineArray<200, UInt8>
    /// Number of valid bytes in `text`.
    public var length: Int

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        total = try s.integer(1, in: 0...99).map { UInt8($0) }
        number = try s.integer(2, in: 0...99).map { UInt8($0) }
        identifier = try s.integer(3, in: 0...99).map { UInt8($0) }
        text = InlineArray(repeating: 0)
        length = 0
        // The text is everything after the fourth comma (it may itself contain commas).
        let start = s.range(of: 4).lowerBound
        let bytes = s.bytes.span
        for offset in start..<s.count where length < 200 {
            text[length] = bytes[offset]
            length += 1
        }
    }

    /// The text as a string.
    public var string: String {
        var bytes: [UInt8] = []
        for index in 0..<length { bytes.append(text[index]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .txt }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .txt(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        // Receiver messages say nothing about the fix.
        false
    }
}

extension TXT {
    public static func == (lhs: TXT, rhs: TXT) -> Bool {
        lhs.total == rhs.total && lhs.number == rhs.number && lhs.identifier == rhs.identifier
            && prefixEqual(lhs.text, lhs.length, rhs.text, rhs.length)
    }
}
