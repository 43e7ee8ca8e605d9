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
        var named: InlineArray<9, Bool> = InlineArray(repeating: false)
        var word: [UInt8] = []
        for byte in text {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == 0x09 {
                try take(word, &named)
                word.removeAll()
            } else {
                word.append(byte)
            }
        }
        try take(word, &named)
    }

    mutating func take(_ word: [UInt8], _ named: inout InlineArray<9, Bool>) throws(SentenceRatesError) {
        guard !word.isEmpty else { return }
        let text = String(decoding: word, as: UTF8.self)
        let slash = word.firstIndex(of: UInt8(ascii: "/"))
        guard let sentence = NMEAOutputSentence(name: word[..<(slash ?? word.count)]) else {
            throw .unknownSentence(text)
        }
        var every = 1
        if let slash {
            let digits = word[(slash + 1)...]
            guard !digits.isEmpty, digits.count <= 2, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                throw .badInterval(text)
            }
            every = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
            guard (1...Self.maximumInterval).contains(every) else { throw .badInterval(text) }
        }
        guard !named[sentence.rawValue] else { throw .repeated(text) }
        named[sentence.rawValue] = true
        self[sentence] = every
    }

    /// The list as `SentenceRates(parsing:)` reads it, e.g. `gga gsa gsv/5 rmc gst`.
    public var text: String {
        var words: [String] = []
        for sentence in NMEAOutputSentence.allCases where self[sentence] > 0 {
            let every = self[sentence]
            words.append(sentence.text.lowercased() + (every == 1 ? "" : String(joining: "/", String(every))))
        }
        return words.joined(separator: " ")
    }
}
