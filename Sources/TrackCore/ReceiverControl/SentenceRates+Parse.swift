/// Why a sentence list does not read.
public enum SentenceRatesError: Error, Equatable, Sendable {
    /// A word that is not one of the sentences receiver control sets, e.g. `"gsx"`.
    case unknownSentence(String)
    /// An interval that is not a whole number of epochs in 1…20, e.g. `"gsv/0"`.
    case badInterval(String)
    /// A sentence named twice.
    case repeated(String)

    /// One line, e.g. `"gsx: not a sentence trackd sets (gga gll gsa gsv rmc vtg gst zda gbs)"`.
    public var description: String {
        switch self {
        case .unknownSentence(let word): String(joining: word, ": not a sentence trackd sets (gga gll gsa gsv rmc vtg gst zda gbs)")
        case .badInterval(let word): String(joining: word, ": the interval after / is whole epochs, 1 to ", String(SentenceRates.maximumInterval))
        case .repeated(let word): String(joining: word, ": named twice")
        }
    }
}

extension SentenceRates {
    /// The sentences of a list such as `rmc gga gsa gst gsv/5` (spaces or commas between the
    /// words, either case; `/N` sends the sentence every N-th epoch, default every epoch);
    /// the sentences not named are off. Example: `"rmc,GGA gsv/5"` → RMC and GGA every epoch,
    /// GSV every fifth, the rest off.
    public init(parsing text: some Collection<UInt8>) throws(SentenceRatesError) {
        self.init()
        // A word in a fixed buffer (the longest good one, `gsv/20`, has 6 bytes): the control
        // socket parses `receiver sentences …` in the loop, which allocates nothing.
        var named: InlineArray<9, Bool> = InlineArray(repeating: false)
        var word = SentenceWord()
        for byte in text {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == 0x09 {
                try take(word, &named)
                word = SentenceWord()
            } else {
                word.append(byte)
            }
        }
        try take(word, &named)
    }

    mutating func take(_ word: SentenceWord, _ named: inout InlineArray<9, Bool>) throws(SentenceRatesError) {
        guard word.count > 0 else { return }
        let slash = word.slash
        guard word.count <= SentenceWord.capacity,
              let sentence = word.withBytes({ NMEAOutputSentence(name: $0[..<(slash ?? word.count)]) }) else {
            throw .unknownSentence(word.text)
        }
        var every = 1
        if let slash {
            let digits = word.count - slash - 1
            guard digits >= 1, digits <= 2 else { throw .badInterval(word.text) }
            every = 0
            for index in (slash + 1)..<word.count {
                let byte = word[index]
                guard byte >= 48 && byte <= 57 else { throw .badInterval(word.text) }
                every = every * 10 + Int(byte - 48)
            }
            guard (1...Self.maximumInterval).contains(every) else { throw .badInterval(word.text) }
        }
        guard !named[sentence.rawValue] else { throw .repeated(word.text) }
        named[sentence.rawValue] = true
        self[sentence] = every
    }

    /// The list as `SentenceRates(parsing:)` reads it, e.g. `gga gsa gsv/5 rmc gst`.
    public var text: String {
        // Appended in place: an array of words and `joined` cost the firmware 0.9 KB.
        var text = ""
        for sentence in NMEAOutputSentence.allCases where self[sentence] > 0 {
            if !text.isEmpty { text.append(" ") }
            text.append(sentence.lowercaseText)
            let every = self[sentence]
            if every != 1 { text.append(String(joining: "/", String(every))) }
        }
        return text
    }
}

/// One word of a sentence list, its first 8 bytes kept (more make it unknown); `count` counts
/// them all.
struct SentenceWord {
    static var capacity: Int { 8 }
    var bytes: InlineArray<8, UInt8> = InlineArray(repeating: 0)
    var count = 0

    mutating func append(_ byte: UInt8) {
        if count < Self.capacity { bytes[count] = byte }
        count += 1
    }

    subscript(index: Int) -> UInt8 { bytes[index] }

    /// Where its `/` is, if it has one.
    var slash: Int? {
        for index in 0..<min(count, Self.capacity) where bytes[index] == UInt8(ascii: "/") { return index }
        return nil
    }

    /// Calls `body` with the kept bytes.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let kept = min(count, Self.capacity)
        return bytes.span.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<kept])) }
    }

    /// The word as written (for the error: allocates), `…` marking bytes not kept.
    var text: String {
        withBytes { String(decoding: $0, as: UTF8.self) } + (count > Self.capacity ? "…" : "")
    }
}
