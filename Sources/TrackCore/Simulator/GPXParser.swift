/// The XML walk behind `GPXTrack(parsing:)`: tags, attributes, comments, processing
/// instructions and CDATA over the bytes, with line numbers; only what GPX needs.
struct GPXParser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    /// Names of the open elements, as byte ranges of `bytes`.
    var stack: [Range<Int>] = []
    var sawRoot = false
    var points: [GPXPoint] = []
    /// The point being read, and the depth of its element in `stack`.
    var point: GPXPoint?
    var pointDepth = 0
    /// Text of the point's `<ele>` or `<time>` being read.
    var text: [UInt8] = []
    var textLine = 0
    var lastTime: UTCTime?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    mutating func parse() throws(GPXError) {
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                try markup()
            } else {
                try characters()
            }
        }
        if let open = stack.last { throw GPXError(line: line, .unexpectedEnd("<\(name(open))>")) }
        guard sawRoot else { throw GPXError(line: line, .notGPX(root: "")) }
        guard !points.isEmpty else { throw GPXError(line: line, .noPoints) }
    }

    mutating func markup() throws(GPXError) {
        if starts(with: "<!--") {
            let startLine = line
            index += 4
            while index < bytes.count && !starts(with: "--") { advance() }
            guard index < bytes.count else { throw GPXError(line: startLine, .unexpectedEnd("a comment")) }
            // XML forbids "--" inside a comment: only "-->" may follow.
            guard starts(with: "-->") else { throw GPXError(line: line, .malformedTag("\"--\" inside a comment")) }
            index += 3
        } else if starts(with: "<![CDATA[") {
            let startLine = line
            index += 9
            let begin = index
            try skip(past: "]]>", what: "a CDATA section")
            try content(begin..<(index - 3), line: startLine)
        } else if starts(with: "<?") {
            try skip(past: "?>", what: "a processing instruction")
        } else if starts(with: "<!") {
            // <!DOCTYPE gpx>: allowed, but not an internal subset with entities.
            while index < bytes.count && bytes[index] != UInt8(ascii: ">") {
                if bytes[index] == UInt8(ascii: "[") {
                    throw GPXError(line: line, .unexpectedContent("DTD internal subset"))
                }
                advance()
            }
            guard index < bytes.count else { throw GPXError(line: line, .unexpectedEnd("<!…>")) }
            index += 1
        } else if starts(with: "</") {
            try endTag()
        } else {
            try startTag()
        }
    }

    mutating func characters() throws(GPXError) {
        let startLine = line
        let begin = index
        while index < bytes.count && bytes[index] != UInt8(ascii: "<") { advance() }
        try content(begin..<index, line: startLine)
    }

    /// Character data: collected inside a point's `<ele>`/`<time>`, else only whitespace is
    /// allowed outside the root.
    mutating func content(_ range: Range<Int>, line startLine: Int) throws(GPXError) {
        if capturing {
            if text.isEmpty { textLine = startLine }
            text.append(contentsOf: bytes[range])
        } else if stack.isEmpty, let first = range.first(where: { !isSpace(bytes[$0]) }) {
            var textLine = startLine
            for offset in range.lowerBound..<first where bytes[offset] == 0x0A { textLine += 1 }
            throw GPXError(line: textLine, .unexpectedContent("text outside the root element"))
        }
    }

    /// True inside `<ele>` or `<time>` directly in a point.
    var capturing: Bool {
        guard point != nil, stack.count == pointDepth + 1, let top = stack.last else { return false }
        return equals(top, "ele") || equals(top, "time")
    }

    mutating func startTag() throws(GPXError) {
        let tagLine = line
        index += 1
        let nameRange = readName()
        guard !nameRange.isEmpty else { throw GPXError(line: tagLine, .malformedTag("a tag without a name")) }
        var attributes = GPXAttributes()
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else { throw GPXError(line: tagLine, .unexpectedEnd("<\(name(nameRange))>")) }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") || starts(with: "/>") { break }
            let attribute = readName()
            guard hadSpace, !attribute.isEmpty else {
                throw GPXError(line: line, .malformedTag("<\(name(nameRange))> has a stray character"))
            }
            _ = skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw GPXError(line: line, .malformedTag("attribute \(name(attribute)) has no value"))
            }
            index += 1
            _ = skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw GPXError(line: line, .malformedTag("the value of \(name(attribute)) is not quoted"))
            }
            let quote = bytes[index]
            index += 1
            let begin = index
            while index < bytes.count && bytes[index] != quote { advance() }
            guard index < bytes.count else { throw GPXError(line: tagLine, .unexpectedEnd("<\(name(nameRange))>")) }
            attributes.record(name: name(attribute), value: begin..<index)
            index += 1
        }
        let selfClosing = bytes[index] == UInt8(ascii: "/")
        index += selfClosing ? 2 : 1
        try open(nameRange, attributes: attributes, line: tagLine)
        if selfClosing { try close() }
    }

    mutating func endTag() throws(GPXError) {
        let tagLine = line
        index += 2
        let nameRange = readName()
        _ = skipSpace()
        guard index < bytes.count else { throw GPXError(line: tagLine, .unexpectedEnd("</\(name(nameRange))>")) }
        guard bytes[index] == UInt8(ascii: ">"), !nameRange.isEmpty else {
            throw GPXError(line: tagLine, .malformedTag("</\(name(nameRange))"))
        }
        index += 1
        guard let open = stack.last else {
            throw GPXError(line: tagLine, .unexpectedContent("</\(name(nameRange))> with no open element"))
        }
        guard bytes[open] == bytes[nameRange] else {
            throw GPXError(line: tagLine, .mismatchedTag(expected: name(open), found: name(nameRange)))
        }
        try close()
    }

    // MARK: bytes

    mutating func advance() {
        if bytes[index] == 0x0A { line += 1 }
        index += 1
    }

    mutating func skip(past terminator: StaticString, what: String) throws(GPXError) {
        let startLine = line
        while index < bytes.count {
            if starts(with: terminator) {
                index += terminator.utf8CodeUnitCount
                return
            }
            advance()
        }
        throw GPXError(line: startLine, .unexpectedEnd(what))
    }

    /// Skips whitespace; returns true if there was any.
    mutating func skipSpace() -> Bool {
        let begin = index
        while index < bytes.count && isSpace(bytes[index]) { advance() }
        return index > begin
    }

    mutating func readName() -> Range<Int> {
        let begin = index
        while index < bytes.count {
            let byte = bytes[index]
            if isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "<") {
                break
            }
            index += 1
        }
        return begin..<index
    }

    func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let start = text.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
        return true
    }

    func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let start = text.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != start[offset] { return false }
        return true
    }

    func name(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}

@inline(__always)
func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
