/// Why a configuration file was rejected, and where: the file, the line (1-based), the key when
/// the line has one, and the problem.
///
/// `description` is the one line a person reads in the journal, e.g.
/// `trackd.conf:12: sampling.min-distance: "ten" is not a number of metres`.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file name as given to `TrackdConfig.parse`, e.g. `/etc/trackd/trackd.conf`.
    public var file: String
    /// Line number, 1 for the first line.
    public var line: Int
    /// The key as `section.key`, e.g. `filter.max-age`; nil for lines that are not a key.
    public var key: String?
    /// What is wrong.
    public var problem: Problem

    /// An error at `line` of `file`, about `key` when there is one.
    public init(file: String, line: Int, key: String?, problem: Problem) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
    }

    /// What is wrong with a line. Values are quoted as written in the file.
    public enum Problem: Error, Equatable, Sendable {
        /// A line that is neither `key = value`, `[section]`, a comment nor blank, e.g. `baud 9600`.
        case malformedLine(String)
        /// A `[` without its `]`, or text after the `]`, e.g. `[receiver`.
        case malformedSection(String)
        /// A section name that is not lower-case-with-dashes, e.g. `Receiver`.
        case badSectionName(String)
        /// A key that is not lower-case-with-dashes, e.g. `Baud`.
        case badKeyName
        /// A `key = value` line before the first `[section]`.
        case keyOutsideSection
        /// A section the daemon does not know; `known` lists the sections it does.
        case unknownSection(String, known: [String])
        /// A key its section does not have; `known` lists the keys it has.
        case unknownKey(known: [String])
        /// The key was already set on `firstLine` of the same file.
        case duplicateKey(firstLine: Int)
        /// Nothing after the `=` for a key that needs a value.
        case missingValue
        /// A value of the wrong form; `expected` completes "is not …", e.g. `a number of metres`.
        case badValue(String, expected: String)
        /// A number with more decimals than the key keeps, e.g. `5.0001` m (`resolution` `1 mm`).
        case tooPrecise(String, resolution: String)
        /// A well-formed value outside the key's range, e.g. `20000` for `1 … 10000 m`.
        case outOfRange(String, range: String)
        /// A value that contradicts another key; `reason` completes the sentence, e.g.
        /// `is more than receiver.reopen-max (30s)`.
        case conflict(String, reason: String)
        /// A value its own parser rejected, with that parser's reason, e.g. an LED pattern:
        /// `"on 100 of 100": column 8: "of" is not on, off, solid or a number of milliseconds`.
        case rejected(String, reason: String)
    }

    /// One line: `file:line: key: problem`, or `file:line: problem` without a key, e.g.
    /// `trackd.conf:12: sampling.min-distance: "ten" is not a number of metres`.
    public var description: String {
        let place = String(joining: file, ":", String(line), ": ")
        guard let key else { return place + problem.description }
        return place + escaped(key) + ": " + problem.description
    }
}

extension ConfigError.Problem: CustomStringConvertible {
    /// The problem in words, without file, line and key, e.g. `"ten" is not a number of metres`.
    public var description: String {
        switch self {
        case .malformedLine(let text):
            return String(joining: quoted(text), " is not \"key = value\", a [section] or a # comment")
        case .malformedSection(let text):
            return String(joining: quoted(text), " is not a [section] line")
        case .badSectionName(let name):
            return String(joining: "section [", escaped(name), "]: names are lower-case-with-dashes")
        case .badKeyName:
            return "key names are lower-case-with-dashes"
        case .keyOutsideSection:
            return "key before the first [section]"
        case .unknownSection(let name, let known):
            return String(joining: "unknown section [", escaped(name), "] (known: ", list(known), ")")
        case .unknownKey(let known):
            return String(joining: "unknown key (this section has: ", list(known), ")")
        case .duplicateKey(let firstLine):
            return String(joining: "set twice (first on line ", String(firstLine), ")")
        case .missingValue:
            return "no value after \"=\""
        case .badValue(let value, let expected):
            return String(joining: quoted(value), " is not ", expected)
        case .tooPrecise(let value, let resolution):
            return String(joining: quoted(value), " is finer than ", resolution)
        case .outOfRange(let value, let range):
            return String(joining: quoted(value), " is outside ", range)
        case .conflict(let value, let reason):
            return String(joining: quoted(value), " ", reason)
        case .rejected(let value, let reason):
            return String(joining: quoted(value), ": ", reason)
        }
    }
}

private func list(_ names: [String]) -> String {
    var text = ""
    for name in names {
        if !text.isEmpty { text += ", " }
        text += name
    }
    return text
}

/// `text` in double quotes with control bytes, quotes and backslashes escaped, so a file of
/// NUL bytes (a power cut during a write) prints as `"\x00\x00"` rather than raw bytes.
func quoted(_ text: String) -> String {
    "\"" + escaped(text) + "\""
}

private func escaped(_ text: String) -> String {
    let digits: StaticString = "0123456789abcdef"
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
        if byte < 0x20 || byte == 0x7F {
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x"),
                                      digits.utf8Start[Int(byte >> 4)], digits.utf8Start[Int(byte & 15)]])
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
