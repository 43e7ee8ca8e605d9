/// Why an LED pattern's text was rejected, and where: `offset` is the byte offset (UTF-8, 0
/// for the first byte) of the offending word in the text, so the config layer can add its file,
/// line and key, e.g. `"on 100 of 100"` → `.unknownWord("of", offset: 7)`.
public enum LEDPatternError: Error, Equatable, Sendable {
    /// Nothing but spaces.
    case empty
    /// A word that is not `on`, `off`, `solid` or a duration, e.g. `blink`.
    case unknownWord(String, offset: Int)
    /// `on` or `off` at the end of the text, without its milliseconds.
    case missingDuration(offset: Int)
    /// A duration that is not a whole number of milliseconds, e.g. `1.5` or `100ms`.
    case badDuration(String, offset: Int)
    /// A duration outside 1 … 60 000 ms, e.g. `0`.
    case durationOutOfRange(String, offset: Int)
    /// A number where `on` or `off` was expected, e.g. the second `100` of `on 100 100`.
    case missingLevel(String, offset: Int)
    /// More than `LEDPattern.maximumSteps` steps; `offset` is the first step too many.
    case tooManySteps(offset: Int)
    /// Text after `solid` or `off`, e.g. `solid 100`.
    case trailingText(String, offset: Int)
}

extension LEDPatternError: CustomStringConvertible {
    /// The problem in words with its column (1-based), e.g.
    /// `column 8: "of" is not on, off, solid or a number of milliseconds`.
    public var description: String {
        switch self {
        case .empty:
            return "empty pattern (write solid, off, or steps such as on 100 off 900)"
        case .unknownWord(let word, let offset):
            return String(joining: "column ", String(offset + 1), ": ", quoted(word), " is not on, off, solid or a number of milliseconds")
        case .missingDuration(let offset):
            return String(joining: "column ", String(offset + 1), ": on/off needs a number of milliseconds after it")
        case .badDuration(let word, let offset):
            return String(joining: "column ", String(offset + 1), ": ", quoted(word), " is not a whole number of milliseconds")
        case .durationOutOfRange(let word, let offset):
            return String(joining: "column ", String(offset + 1), ": ", quoted(word), " is outside 1 … 60000 ms")
        case .missingLevel(let word, let offset):
            return String(joining: "column ", String(offset + 1), ": ", quoted(word), " needs on or off before it")
        case .tooManySteps(let offset):
            return String(joining: "column ", String(offset + 1), ": more than ", String(LEDPattern.maximumSteps), " steps")
        case .trailingText(let word, let offset):
            return String(joining: "column ", String(offset + 1), ": ", quoted(word), " after a steady pattern")
        }
    }
}

extension LEDPattern {
    /// Parses the config's pattern syntax into a repeating, priority-0 pattern:
    ///
    /// * `solid` or `off`: steady;
    /// * `on MS` / `off MS` steps separated by spaces or tabs, 1 … 8 of them, each 1 … 60 000
    ///   ms, e.g. `on 100 off 100 on 100 off 700` (a double flash every second).
    ///
    /// Words are lower case. Throws `LEDPatternError` with the byte offset of the bad word.
    public static func parse(_ text: String) throws(LEDPatternError) -> LEDPattern {
        let words = Self.words(of: text)
        guard let first = words.first else { throw .empty }
        if first.text.bytesEqual("solid") || (first.text.bytesEqual("off") && words.count == 1) {
            if words.count > 1 { throw .trailingText(words[1].text, offset: words[1].offset) }
            return .steady(on: first.text.bytesEqual("solid"))
        }
        var steps: [LEDStep] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            guard word.text.bytesEqual("on") || word.text.bytesEqual("off") else {
                if word.text.utf8.first.map({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) ?? false {
                    throw .missingLevel(word.text, offset: word.offset)
                }
                if word.text.bytesEqual("solid") { throw .trailingText(word.text, offset: word.offset) }
                throw .unknownWord(word.text, offset: word.offset)
            }
            guard index + 1 < words.count else { throw .missingDuration(offset: word.offset) }
            let duration = words[index + 1]
            let milliseconds = try Self.milliseconds(duration)
            guard steps.count < maximumSteps else { throw .tooManySteps(offset: word.offset) }
            steps.append(LEDStep(on: word.text.bytesEqual("on"), milliseconds: milliseconds))
            index += 2
        }
        // Every step was checked above, so the initializer cannot fail here.
        guard let pattern = LEDPattern(steps: steps) else { throw .empty }
        return pattern
    }

    /// A duration word as milliseconds, 1 … 60 000.
    private static func milliseconds(_ word: (text: String, offset: Int)) throws(LEDPatternError) -> Int32 {
        let value: Int64
        do throws(DecimalText.Problem) {
            value = try DecimalText.unsigned(word.text, maximum: Int64(maximumStepMilliseconds))
        } catch .malformed {
            if word.text.bytesEqual("on") || word.text.bytesEqual("off") || word.text.bytesEqual("solid") {
                throw .missingDuration(offset: word.offset)
            }
            throw .badDuration(word.text, offset: word.offset)
        } catch {
            throw .durationOutOfRange(word.text, offset: word.offset)
        }
        guard value >= 1 else { throw .durationOutOfRange(word.text, offset: word.offset) }
        return Int32(value)
    }

    /// The words of `text` (split on spaces and tabs) with their byte offsets.
    private static func words(of text: String) -> [(text: String, offset: Int)] {
        var words: [(text: String, offset: Int)] = []
        var start: Int?
        var offset = 0
        let bytes = Array(text.utf8)
        for byte in bytes {
            let isSpace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            if isSpace, let begin = start {
                words.append((String(decoding: bytes[begin..<offset], as: UTF8.self), begin))
                start = nil
            } else if !isSpace && start == nil {
                start = offset
            }
            offset += 1
        }
        if let begin = start { words.append((String(decoding: bytes[begin..<offset], as: UTF8.self), begin)) }
        return words
    }
}

extension LEDPattern {
    /// The pattern in the config's syntax, which `parse` reads back, e.g. `on 100 off 900`,
    /// `solid`, `off`. Allocates (docs and start-up).
    public var text: String {
        if stepCount == 1 && step(0).milliseconds == 1000 { return step(0).isOn ? "solid" : "off" }
        var result = ""
        for index in 0..<stepCount {
            if index > 0 { result += " " }
            result += step(index).isOn ? "on " : "off "
            result += "\(step(index).milliseconds)"
        }
        return result
    }
}
