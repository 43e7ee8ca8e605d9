// The line syntax trackd.conf and the board files share: lines, `#` comments, blanks.

// Bytes, not Characters: Swift reads "\r\n" as one Character, so splitting on "\n" would miss it.
/// The lines of `text` as UTF-8 bytes, without a leading byte-order mark and without the CR of
/// CRLF line ends (files edited on Windows), e.g. `"\u{FEFF}a\r\nb"` → `["a", "b"]`.
func lines(of text: String) -> [ArraySlice<UInt8>] {
    var bytes = Array(text.utf8)[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    var result: [ArraySlice<UInt8>] = []
    while let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
        result.append(withoutCR(bytes[..<newline]))
        bytes = bytes[(newline + 1)...]
    }
    if !bytes.isEmpty { result.append(withoutCR(bytes)) }
    return result
}

func withoutCR(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    line.last == UInt8(ascii: "\r") ? line.dropLast() : line
}

/// The line up to a `#` that starts it or follows a space or tab; a `#` inside a word stays.
func withoutComment(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var previous = UInt8(ascii: " ")
    for index in line.indices {
        if line[index] == UInt8(ascii: "#"), isBlank(previous) { return line[..<index] }
        previous = line[index]
    }
    return line
}

func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var result = bytes
    while let first = result.first, isBlank(first) { result = result.dropFirst() }
    while let last = result.last, isBlank(last) { result = result.dropLast() }
    return result
}

func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

/// One meaningful line of an INI-style file: a `[section]` or a `key = value`, with its line
/// number (1-based), e.g. `led-fix = GPIO17` on line 9 → `.entry("led-fix", "GPIO17", line: 9)`.
enum INILine {
    /// `[name]`, the name checked to be lower-case-with-dashes.
    case section(String, line: Int)
    /// `key = value`, both trimmed; the key is not checked yet (its section decides).
    case entry(key: String, value: String, line: Int)
}

/// The sections and entries of `text`, in order; blank and comment lines left out. Throws the
/// first line that is neither, naming `file` and the line (start-up and reload only; allocates).
func iniLines(_ text: String, file: String) throws(ConfigError) -> [INILine] {
    var result: [INILine] = []
    var lineNumber = 0
    for rawLine in lines(of: text) {
        lineNumber += 1
        let line = trimmed(withoutComment(rawLine))
        if line.isEmpty { continue }
        let lineText = String(decoding: line, as: UTF8.self)
        if line.first == UInt8(ascii: "[") {
            guard line.last == UInt8(ascii: "]"), line.count >= 2 else {
                throw ConfigError(file: file, line: lineNumber, key: nil, problem: .malformedSection(lineText))
            }
            let name = String(decoding: trimmed(line.dropFirst().dropLast()), as: UTF8.self)
            guard isLowerDashName(name) else {
                throw ConfigError(file: file, line: lineNumber, key: nil, problem: .badSectionName(name))
            }
            result.append(.section(name, line: lineNumber))
            continue
        }
        guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
            throw ConfigError(file: file, line: lineNumber, key: nil, problem: .malformedLine(lineText))
        }
        let name = String(decoding: trimmed(line[..<equals]), as: UTF8.self)
        guard !name.isEmpty else {
            throw ConfigError(file: file, line: lineNumber, key: nil, problem: .malformedLine(lineText))
        }
        result.append(.entry(key: name, value: String(decoding: trimmed(line[(equals + 1)...]), as: UTF8.self),
                             line: lineNumber))
    }
    return result
}
