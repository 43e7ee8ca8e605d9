/// A parsed JSON text (RFC 8259, strictly, as `JSONReader` reads it): every value a node in one
/// flat array, strings decoded to UTF-8 in one byte array; about 100 bytes a value, so for small
/// texts (a number argument, a test); fences files are read streaming (`FenceFile`).
///
/// Example: `{"a":[1,true]}` gives nodes object(root) → array (key "a") → number 1, true.
/// `JSONDocument.parse("[1]")` → root `.array` with one child `.number`.
public struct JSONDocument: Sendable {
    /// Objects and arrays nested deeper than this are refused, so hostile input cannot exhaust
    /// the stack.
    public static var maximumDepth: Int { 64 }

    /// Every value; the root is `nodes[0]`.
    public internal(set) var nodes: [JSONNode] = []
    /// Decoded string bytes (keys and string values), referred to by ranges in the nodes.
    var stringBytes: [UInt8] = []

    /// The top-level value.
    public var root: Int { 0 }

    /// Parses `bytes` as one JSON text, e.g. `{"type":"FeatureCollection","features":[]}`.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONDocument {
        var reader = JSONReader(JSONBytes(bytes), windowBytes: min(bytes.count, 65_536))
        return try JSONParser.document(&reader)
    }

    /// Parses the UTF-8 of `text`.
    public static func parse(_ text: String) throws(JSONError) -> JSONDocument {
        try parse(Array(text.utf8))
    }

    /// The children of an array or the members of an object, in order (empty for scalars).
    public func children(of index: Int) -> [Int] {
        var result: [Int] = []
        var child = nodes[index].firstChild
        while child >= 0 {
            result.append(child)
            child = nodes[child].nextSibling
        }
        return result
    }

    /// The member of object `index` whose key is `key`, or nil (also for non-objects),
    /// e.g. `member("type", of: root)`.
    public func member(_ key: String, of index: Int) -> Int? {
        guard nodes[index].kind == .object else { return nil }
        var child = nodes[index].firstChild
        while child >= 0 {
            if bytesEqual(nodes[child].key, key) { return child }
            child = nodes[child].nextSibling
        }
        return nil
    }

    /// The decoded text of a string node, or nil for other kinds.
    public func string(_ index: Int) -> String? {
        guard nodes[index].kind == .string else { return nil }
        return text(nodes[index].value)
    }

    /// The key of an object member (nil for array elements and the root).
    public func key(_ index: Int) -> String? {
        nodes[index].key.isEmpty && !nodes[index].hasKey ? nil : text(nodes[index].key)
    }

    /// True when node `index` is a string equal to `expected`, e.g. `"Polygon"`.
    public func isString(_ index: Int, _ expected: String) -> Bool {
        nodes[index].kind == .string && bytesEqual(nodes[index].value, expected)
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: stringBytes[range], as: UTF8.self)
    }

    func bytesEqual(_ range: Range<Int>, _ expected: String) -> Bool {
        var position = range.lowerBound
        for byte in expected.utf8 {
            guard position < range.upperBound, stringBytes[position] == byte else { return false }
            position += 1
        }
        return position == range.upperBound
    }
}

/// The kind of a JSON value.
public enum JSONKind: UInt8, Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool
    /// A number.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object
}

/// One value of a `JSONDocument`: its kind, its scalar, and links to children and siblings
/// (indices into `nodes`, −1 for none).
public struct JSONNode: Equatable, Sendable {
    /// What the value is.
    public var kind: JSONKind
    /// The value of a `.bool`.
    public var bool = false
    /// The value of a `.number`.
    public var number = JSONNumber(negative: false, significand: 0, exponent: 0)
    /// Children of an array or object (elements or members).
    public var childCount = 0
    /// Byte offset of the value in the text, for error messages.
    public var offset = 0
    var value: Range<Int> = 0..<0
    var key: Range<Int> = 0..<0
    var hasKey = false
    var firstChild = -1
    var nextSibling = -1

    init(kind: JSONKind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }
}
