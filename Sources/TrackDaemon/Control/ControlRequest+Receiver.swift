import TrackCore
import TrackIO

extension ControlRequest {
    static let receiverUsage: StaticString =
        "error usage: receiver info|rate 1|2|5|10|baud N|sentences LIST (e.g. rmc gga gsa gst gsv/5)|sleep|wake\n"

    /// `receiver info`, `rate HZ` (1, 2, 5 or 10), `baud N` (4800 … 921600), `sentences LIST`
    /// (`rmc gga gsa gst gsv/5`: `SentenceRates(parsing:)`), `sleep`, `wake`.
    static func parseReceiver(_ words: inout Words, _ line: Span<UInt8>) -> ControlRequest {
        let verb = words.next()
        if matches(verb, line, "sentences") {
            let rest = words.rest()
            guard !rest.isEmpty else { return .refused(receiverUsage) }
            let rates = line.withUnsafeBufferPointer { bytes -> SentenceRates? in
                try? SentenceRates(parsing: bytes[rest])
            }
            guard let rates else {
                return .refused("error usage: receiver sentences: names of gga gll gsa gsv rmc vtg gst zda gbs, each once, /N for every N-th epoch (1 to 20)\n")
            }
            return .receiver(.sentences(rates))
        }
        let argument = words.next()
        guard words.next() == nil else { return .refused(receiverUsage) }
        if argument == nil {
            if matches(verb, line, "info") { return .receiver(.info) }
            if matches(verb, line, "sleep") { return .receiver(.sleep) }
            if matches(verb, line, "wake") { return .receiver(.wake) }
            return .refused(receiverUsage)
        }
        guard let argument, let number = integer(line.extracting(argument)) else { return .refused(receiverUsage) }
        // Switches, not array literals: the loop parses requests and allocates nothing.
        if matches(verb, line, "rate") {
            switch number {
            case 1, 2, 5, 10: return .receiver(.rate(milliseconds: 1000 / number))
            default: return .refused("error usage: receiver rate 1|2|5|10 (fixes per second)\n")
            }
        }
        if matches(verb, line, "baud") {
            switch number {
            case 4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600: return .receiver(.baud(number))
            default: return .refused("error usage: receiver baud 4800|9600|19200|38400|57600|115200|230400|460800|921600\n")
            }
        }
        return .refused(receiverUsage)
    }

    /// A decimal number of at most 7 digits, e.g. `115200`; nil for anything else.
    static func integer(_ text: Span<UInt8>) -> Int? {
        guard text.count >= 1 && text.count <= 7 else { return nil }
        var value = 0
        for index in 0..<text.count {
            let byte = text[index]
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}
