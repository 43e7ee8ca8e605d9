/// The MediaTek and Quectel models' answers to PMTK and PAIR commands.
extension SimulatedReceiver {
    mutating func takeText(_ sentence: inout NMEASentence, _ replies: inout TextBuffer) {
        guard let (prefix, number) = Self.address(&sentence) else {
            if model == .quectel && ReceiverReply.addressIs("PQTMVERNO", &sentence) {
                Self.writeSentence("PQTMVERNO,LC29HEANR11A03S,2023/07/14,14:45:13", to: &replies)
                taken()
            }
            return
        }
        switch (model, prefix) {
        case (.mediatek, .pmtk): takePMTK(number, &sentence, &replies)
        case (.quectel, .pair): takePAIR(number, &sentence, &replies)
        default: break
        }
    }

    enum Prefix { case pmtk, pair }

    /// `PMTK` or `PAIR` and the three-digit number of the address, e.g. `PMTK314` → 314.
    static func address(_ sentence: inout NMEASentence) -> (Prefix, Int)? {
        guard let number = ReceiverReply.addressNumber(&sentence) else { return nil }
        if ReceiverReply.startsWithPMTK(&sentence) { return (.pmtk, number) }
        let start = sentence.range(of: 0).lowerBound
        let bytes = sentence.bytes.span
        let pair = bytes[start] == UInt8(ascii: "P") && bytes[start + 1] == UInt8(ascii: "A")
            && bytes[start + 2] == UInt8(ascii: "I") && bytes[start + 3] == UInt8(ascii: "R")
        return pair ? (.pair, number) : nil
    }

    mutating func takePMTK(_ number: Int, _ sentence: inout NMEASentence, _ replies: inout TextBuffer) {
        var flag = 3
        switch number {
        case 220, 300:
            if let interval = try? sentence.integer(1, in: 100...10_000) { fixIntervalMilliseconds = interval } else { flag = 2 }
        case 251:
            // No answer: the receiver switches at once (after what it already sent).
            if let baud = try? sentence.integer(1, in: 0...921_600) {
                pendingBaud = baud == 0 ? 9600 : baud
                taken()
            }
            return
        case 314:
            flag = takeSentenceMask(&sentence) ? 3 : 0
        case 161:
            isAsleep = true
        case 225:
            let mode = try? sentence.integer(1, in: 0...9)
            if mode == 0 { powerSave = false } else if mode != nil { powerSave = true } else { flag = 0 }
        case 605:
            Self.writeSentence("PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0", to: &replies)
            taken()
            return
        default:
            flag = 1
        }
        writePMTK001(number, flag, &replies)
        if flag == 3 { taken() } else { refused() }
    }

    /// PMTK314: 19 intervals 0…5, or `-1` for the defaults; false for anything else.
    mutating func takeSentenceMask(_ sentence: inout NMEASentence) -> Bool {
        if sentence.fieldCount == 2, (try? sentence.decimal(1, scale: 0)) == -1 {
            sentences = nil
            return true
        }
        guard sentence.fieldCount == 20 else { return false }
        var rates = Self.stockSentences
        for candidate in NMEAOutputSentence.allCases {
            guard let field = candidate.pmtk314Field else { continue }
            guard let every = try? sentence.integer(field + 1, in: 0...5) else { return false }
            rates[candidate] = every
        }
        sentences = rates
        return true
    }

    mutating func takePAIR(_ number: Int, _ sentence: inout NMEASentence, _ replies: inout TextBuffer) {
        var result = 0
        switch number {
        case 50:
            if let interval = try? sentence.integer(1, in: 100...1000) { fixIntervalMilliseconds = interval } else { result = 4 }
        case 62:
            if let type = try? sentence.integer(1, in: 0...8), let every = try? sentence.integer(2, in: 0...20) {
                if let candidate = NMEAOutputSentence.allCases.first(where: { $0.pair062Type == type }) {
                    setRate(candidate, every)
                }
            } else {
                result = 4
            }
        case 864:
            if let baud = try? sentence.integer(3, in: 4800...921_600), (try? sentence.integer(1, in: 0...0)) == 0 {
                pendingBaud = baud
            } else {
                result = 4
            }
        case 650:
            isAsleep = true
        default:
            result = 3
        }
        let start = NMEASimulator.begin("PAIR001,", &replies)
        replies.append(integer: number, width: 3)
        replies.append(UInt8(ascii: ","))
        replies.append(integer: Int64(result))
        NMEASimulator.end(from: start, &replies)
        if result == 0 { taken() } else { refused() }
    }

    func writePMTK001(_ number: Int, _ flag: Int, _ replies: inout TextBuffer) {
        let start = NMEASimulator.begin("PMTK001,", &replies)
        replies.append(integer: Int64(number))
        replies.append(UInt8(ascii: ","))
        replies.append(integer: Int64(flag))
        NMEASimulator.end(from: start, &replies)
    }
}
