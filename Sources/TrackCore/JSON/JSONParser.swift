/// Builds a `JSONDocument` from a `JSONReader`'s events: every value a node, linked to its
/// parent's previous child, keys and strings copied into the document's string bytes.
enum JSONParser {
    /// The document of the whole text `reader` reads.
    static func document<Source: JSONByteSource>(_ reader: inout JSONReader<Source>) throws(JSONError) -> JSONDocument {
        var document = JSONDocument()
        // The open containers: their node and their last child so far (−1: none yet).
        var open: [(node: Int, last: Int)] = []
        var key: Range<Int>?
        while true {
            let event = try reader.next()
            var node: JSONNode
            switch event {
            case .end:
                return document
            case .key:
                key = document.appendString(reader.text)
                continue
            case .objectEnd, .arrayEnd:
                open.removeLast()
                continue
            case .objectStart: node = JSONNode(kind: .object, offset: reader.valueOffset)
            case .arrayStart: node = JSONNode(kind: .array, offset: reader.valueOffset)
            case .string:
                node = JSONNode(kind: .string, offset: reader.valueOffset)
                node.value = document.appendString(reader.text)
            case .number(let number):
                node = JSONNode(kind: .number, offset: reader.valueOffset)
                node.number = number
            case .bool(let value):
                node = JSONNode(kind: .bool, offset: reader.valueOffset)
                node.bool = value
            case .null: node = JSONNode(kind: .null, offset: reader.valueOffset)
            }
            if let member = key {
                node.key = member
                node.hasKey = true
                key = nil
            }
            let index = document.nodes.count
            document.nodes.append(node)
            if let parent = open.last {
                if parent.last < 0 { document.nodes[parent.node].firstChild = index } else { document.nodes[parent.last].nextSibling = index }
                document.nodes[parent.node].childCount += 1
                open[open.count - 1].last = index
            }
            if event == .objectStart || event == .arrayStart { open.append((index, -1)) }
        }
    }
}

extension JSONDocument {
    /// Appends decoded string bytes; returns where they are.
    mutating func appendString(_ bytes: [UInt8]) -> Range<Int> {
        let start = stringBytes.count
        stringBytes.append(contentsOf: bytes)
        return start..<stringBytes.count
    }
}
