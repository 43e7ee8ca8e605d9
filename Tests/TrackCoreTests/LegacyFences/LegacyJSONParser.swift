@testable import TrackCore

// JSONDocument's parser as it was before JSONReader (commit fda96ce), for LegacyFenceCompiler.

/// The recursive-descent reader behind `JSONDocument.parse`: RFC 8259 with no extensions (no
/// comments, trailing commas, NaN, single quotes, leading zeros or lone surrogates), UTF-8
/// checked, depth limited, duplicate keys refused.
struct LegacyJSONParser {
    let bytes: [UInt8]
    var position = 0
    var document = JSONDocument()

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONError) -> JSONDocument {
        skipWhiteSpace()
        _ = try parseValue(depth: 0)
        skipWhiteSpace()
        if position < bytes.count { throw error(.trailingContent) }
        return document
    }

    func error(_ problem: JSONError.Problem, at offset: Int? = nil) -> JSONError {
        let at = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<at where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONError(offset: at, line: line, column: at - lineStart + 1, problem: problem)
    }

    mutating func skipWhiteSpace() {
        while position < bytes.count {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            position += 1
        }
    }

    func peek() throws(JSONError) -> UInt8 {
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        return bytes[position]
    }

    /// Parses one value at `position` into a new node and returns its index.
    mutating func parseValue(depth: Int) throws(JSONError) -> Int {
        let byte = try peek()
        let index = document.nodes.count
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONDocument.maximumDepth else { throw error(.tooDeep) }
            document.nodes.append(JSONNode(kind: byte == UInt8(ascii: "{") ? .object : .array, offset: position))
            position += 1
            try parseContainer(index, object: byte == UInt8(ascii: "{"), depth: depth + 1)
        case UInt8(ascii: "\""):
            var node = JSONNode(kind: .string, offset: position)
            node.value = try parseString()
            document.nodes.append(node)
        case UInt8(ascii: "t"):
            try literal("true")
            var node = JSONNode(kind: .bool, offset: position - 4)
            node.bool = true
            document.nodes.append(node)
        case UInt8(ascii: "f"):
            try literal("false")
            document.nodes.append(JSONNode(kind: .bool, offset: position - 5))
        case UInt8(ascii: "n"):
            try literal("null")
            document.nodes.append(JSONNode(kind: .null, offset: position - 4))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            var node = JSONNode(kind: .number, offset: position)
            node.number = try parseNumber()
            document.nodes.append(node)
        default:
            throw error(.unexpectedByte(byte))
        }
        return index
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        for offset in 0..<word.utf8CodeUnitCount {
            let byte = try peek()
            guard byte == word.utf8Start[offset] else { throw error(.unexpectedByte(byte)) }
            position += 1
        }
    }

    mutating func parseContainer(_ index: Int, object: Bool, depth: Int) throws(JSONError) {
        let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        skipWhiteSpace()
        if try peek() == close {
            position += 1
            return
        }
        var previous = -1
        while true {
            skipWhiteSpace()
            var key: Range<Int> = 0..<0
            var keyOffset = position
            if object {
                keyOffset = position
                let byte = try peek()
                guard byte == UInt8(ascii: "\"") else { throw error(.unexpectedByte(byte)) }
                key = try parseString()
                try checkUnique(key, in: index, at: keyOffset)
                skipWhiteSpace()
                let colon = try peek()
                guard colon == UInt8(ascii: ":") else { throw error(.unexpectedByte(colon)) }
                position += 1
                skipWhiteSpace()
            }
            let child = try parseValue(depth: depth)
            if object {
                document.nodes[child].key = key
                document.nodes[child].hasKey = true
            }
            if previous < 0 { document.nodes[index].firstChild = child } else { document.nodes[previous].nextSibling = child }
            previous = child
            document.nodes[index].childCount += 1
            skipWhiteSpace()
            let byte = try peek()
            position += 1
            if byte == close { return }
            guard byte == UInt8(ascii: ",") else {
                position -= 1
                throw error(.unexpectedByte(byte))
            }
        }
    }

    func checkUnique(_ key: Range<Int>, in object: Int, at offset: Int) throws(JSONError) {
        var child = document.nodes[object].firstChild
        while child >= 0 {
            let other = document.nodes[child].key
            if other.count == key.count && document.stringBytes[other].elementsEqual(document.stringBytes[key]) {
                throw error(.duplicateKey(document.text(key)), at: offset)
            }
            child = document.nodes[child].nextSibling
        }
    }
}

/// Strings and numbers: the byte-level grammar of RFC 8259 §6 and §7, with UTF-8 checked as
/// RFC 3629 defines it.
extension LegacyJSONParser {
    /// Parses a string at `position` (on its opening quote); returns its decoded bytes' range in
    /// `document.stringBytes`.
    mutating func parseString() throws(JSONError) -> Range<Int> {
        position += 1
        let start = document.stringBytes.count
        while true {
            let byte = try peek()
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return start..<document.stringBytes.count
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw error(.controlCharacterInString(byte))
            case 0x20..<0x80:
                document.stringBytes.append(byte)
                position += 1
            default:
                try copyUTF8Sequence()
            }
        }
    }

    mutating func parseEscape() throws(JSONError) {
        let escapeStart = position
        position += 1
        let byte = try peek()
        position += 1
        let simple: UInt8
        switch byte {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if scalar >= 0xD800 && scalar < 0xDC00 {
                // A high surrogate must be followed by \u and a low one.
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                      bytes[position + 1] == UInt8(ascii: "u") else { throw error(.loneSurrogate, at: escapeStart) }
                position += 2
                let low = try hexQuad()
                guard low >= 0xDC00 && low < 0xE000 else { throw error(.loneSurrogate, at: escapeStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                throw error(.loneSurrogate, at: escapeStart)
            }
            appendUTF8(scalar)
            return
        default:
            throw error(.invalidEscape, at: escapeStart)
        }
        document.stringBytes.append(simple)
    }

    mutating func hexQuad() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = HexDigit.value(try peek()) else { throw error(.invalidEscape) }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        if scalar < 0x80 {
            document.stringBytes.append(UInt8(scalar))
        } else if scalar < 0x800 {
            document.stringBytes.append(UInt8(0xC0 | scalar >> 6))
            document.stringBytes.append(UInt8(0x80 | scalar & 0x3F))
        } else if scalar < 0x10000 {
            document.stringBytes.append(UInt8(0xE0 | scalar >> 12))
            document.stringBytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            document.stringBytes.append(UInt8(0x80 | scalar & 0x3F))
        } else {
            document.stringBytes.append(UInt8(0xF0 | scalar >> 18))
            document.stringBytes.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            document.stringBytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            document.stringBytes.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Copies one multi-byte UTF-8 sequence, refusing what RFC 3629 forbids.
    mutating func copyUTF8Sequence() throws(JSONError) {
        guard let length = UTF8Sequence.length(bytes.span, at: position) else { throw error(.invalidUTF8) }
        for offset in 0..<length { document.stringBytes.append(bytes[position + offset]) }
        position += length
    }

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = position
        var number = JSONNumber(negative: false, significand: 0, exponent: 0)
        if bytes[position] == UInt8(ascii: "-") {
            number.negative = true
            position += 1
        }
        var digits = 0
        var significantDigits = 0
        var fractionDigits = 0
        var seenPoint = false
        var dropped = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint, digits > 0 else { break }
                seenPoint = true
                position += 1
                guard position < bytes.count, isDigit(bytes[position]) else { throw error(.malformedNumber, at: start) }
                continue
            }
            guard isDigit(byte) else { break }
            // A leading zero may only stand alone before the point.
            if digits == 1 && !seenPoint && number.significand == 0 && significantDigits == 0 {
                throw error(.malformedNumber, at: start)
            }
            digits += 1
            if seenPoint { fractionDigits += 1 }
            let digit = UInt64(byte - UInt8(ascii: "0"))
            if significantDigits < 19 {
                number.significand = number.significand * 10 + digit
                if number.significand > 0 { significantDigits += 1 }
            } else {
                if !seenPoint { dropped += 1 }
                if digit != 0 { number.truncated = true }
                if seenPoint { fractionDigits -= 1 }
            }
            position += 1
        }
        guard digits > 0 else { throw error(.malformedNumber, at: start) }
        var exponent = 0
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            var negativeExponent = false
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                negativeExponent = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            var exponentDigits = 0
            while position < bytes.count && isDigit(bytes[position]) {
                exponent = min(exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")), 1_000_000)
                exponentDigits += 1
                position += 1
            }
            guard exponentDigits > 0 else { throw error(.malformedNumber, at: start) }
            if negativeExponent { exponent = -exponent }
        }
        number.exponent = exponent + dropped - fractionDigits
        return number
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
