/// The recursive-descent reader behind `JSONDocument.parse`: RFC 8259 with no extensions (no
/// comments, trailing commas, NaN, single quotes, leading zeros or lone surrogates), UTF-8
/// checked, depth limited, duplicate keys refused.
struct JSONParser {
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
