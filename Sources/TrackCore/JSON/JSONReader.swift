/// Where a `JSONReader` gets its text: the next bytes each time it asks, e.g. a file read
/// 64 KiB at a time (`trackctl fence compile`) or an array handed over whole (`JSONBytes`).
public protocol JSONByteSource {
    /// Copies up to `buffer.count` of the next bytes into `buffer` and returns how many; 0 at
    /// the end of the text. A source that fails returns 0 and keeps the failure for its owner.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int
}

/// A text held whole in memory, e.g. `JSONBytes(Array("[1]".utf8))`.
public struct JSONBytes: JSONByteSource {
    let bytes: [UInt8]
    var position = 0

    /// The text `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next bytes of the array.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - position)
        guard count > 0, let target = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { target.copyMemory(from: $0.baseAddress! + position, byteCount: count) }
        position += count
        return count
    }
}

/// What `JSONReader.next` found: one step through the text in document order. The decoded
/// bytes of a `.key` or `.string` are in the reader's `text` until the next call.
///
/// Example: `{"a":[1,true]}` → `.objectStart`, `.key` ("a"), `.arrayStart`, `.number(1)`,
/// `.bool(true)`, `.arrayEnd`, `.objectEnd`, `.end`.
public enum JSONEvent: Equatable, Sendable {
    /// `{`.
    case objectStart
    /// `}`.
    case objectEnd
    /// `[`.
    case arrayStart
    /// `]`.
    case arrayEnd
    /// An object member's key (in `text`); its value comes next.
    case key
    /// A string value (in `text`).
    case string
    /// A number.
    case number(JSONNumber)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// The top-level value ended and only white space followed: the text is whole.
    case end
}

/// A strict RFC 8259 reader that streams: it holds a window of the text (64 KiB by default)
/// and the keys of the objects open around the current place, never the document, so a
/// 100 MB fences file is read in the memory of its largest string. The grammar is
/// `JSONDocument`'s (which is built on it): no comments, trailing commas, NaN, single quotes,
/// leading zeros or lone surrogates; UTF-8 checked, depth limited, duplicate keys refused.
/// Errors carry the byte offset, line and column.
///
/// Example: `var reader = JSONReader(JSONBytes(Array("[1]".utf8)))`; `try reader.next()` →
/// `.arrayStart`, then `.number(1)`, `.arrayEnd`, `.end`.
public struct JSONReader<Source: JSONByteSource> {
    /// Where the bytes come from (its failure, if any, is its own to report).
    public private(set) var source: Source
    var window: [UInt8]
    /// Bytes of the text in `window`, and the next one to read.
    var count = 0
    var position = 0
    /// Offset in the text of `window[0]`.
    var base = 0
    var sourceEnded = false
    /// The current line (1-based) and the offset its first byte has: newlines occur only in
    /// white space (a raw one in a string is an error), so counting them there is enough.
    var line = 1
    var lineStart = 0
    /// The decoded bytes of the last `.key` or `.string`.
    public internal(set) var text: [UInt8] = []
    /// Offset of the first byte of the value the last event began or was, e.g. of its `[`.
    public private(set) var valueOffset = 0
    /// The containers open: −1 for an array, for an object the index in `keyEnds` of its
    /// first key.
    var stack: [Int] = []
    /// The keys of the open objects, one after the other, and where each ends.
    var keys: [UInt8] = []
    var keyEnds: [Int] = []
    var state = State.value

    enum State {
        case value, firstElement, firstMember, member, afterValue, finished
    }

    /// A reader of `source` with a window of `windowBytes` (at least 8).
    public init(_ source: Source, windowBytes: Int = 65_536) {
        self.source = source
        window = [UInt8](repeating: 0, count: max(windowBytes, 8))
        stack.reserveCapacity(JSONDocument.maximumDepth)
    }

    /// The offset of the next byte to read.
    public var offset: Int { base + position }

    /// Containers open around the current place (0 at the top level).
    public var depth: Int { stack.count }

    /// The next step through the text; `.end` once the text is whole, then `.end` again.
    /// Throws the first place the text breaks the grammar.
    public mutating func next() throws(JSONError) -> JSONEvent {
        switch state {
        case .value:
            return try value()
        case .firstElement:
            skipWhiteSpace()
            if try peek() == UInt8(ascii: "]") {
                position += 1
                stack.removeLast()
                state = .afterValue
                return .arrayEnd
            }
            return try value()
        case .firstMember:
            skipWhiteSpace()
            if try peek() == UInt8(ascii: "}") {
                position += 1
                closeObject()
                state = .afterValue
                return .objectEnd
            }
            return try key()
        case .member:
            return try key()
        case .afterValue:
            skipWhiteSpace()
            guard let top = stack.last else {
                if peekByte() != nil { throw error(.trailingContent) }
                state = .finished
                return .end
            }
            let byte = try peek()
            if top < 0 && byte == UInt8(ascii: "]") {
                position += 1
                stack.removeLast()
                return .arrayEnd
            }
            if top >= 0 && byte == UInt8(ascii: "}") {
                position += 1
                closeObject()
                return .objectEnd
            }
            guard byte == UInt8(ascii: ",") else { throw error(.unexpectedByte(byte)) }
            position += 1
            if top >= 0 { return try key() }
            return try value()
        case .finished:
            return .end
        }
    }

    /// Reads to the end of a value whose first event was `event` (nothing more for a scalar),
    /// e.g. a member the caller has no use for.
    public mutating func skipValue(after event: JSONEvent) throws(JSONError) {
        guard event == .objectStart || event == .arrayStart else { return }
        let depth = stack.count - 1
        while stack.count > depth { _ = try next() }
    }

    /// The error `problem` at `offset` (default: the next byte).
    func error(_ problem: JSONError.Problem, at offset: Int? = nil) -> JSONError {
        let at = offset ?? self.offset
        return JSONError(offset: at, line: line, column: at - lineStart + 1, problem: problem)
    }

    /// The next byte, nil at the end of the text.
    @inline(__always)
    mutating func peekByte() -> UInt8? {
        if position < count { return window[position] }
        return refill() ? window[position] : nil
    }

    /// The next byte; `unexpectedEnd` at the end of the text.
    @inline(__always)
    mutating func peek() throws(JSONError) -> UInt8 {
        guard let byte = peekByte() else { throw error(.unexpectedEnd) }
        return byte
    }

    /// Reads the next window once this one is used up; false at the end of the text.
    mutating func refill() -> Bool {
        base += count
        position = 0
        count = 0
        guard !sourceEnded else { return false }
        count = window.withUnsafeMutableBytes { source.read(into: $0) }
        if count == 0 { sourceEnded = true }
        return count > 0
    }

    /// Makes `wanted` bytes from the next one readable at once (fewer only at the end of the
    /// text), moving what is left of the window to its start.
    mutating func ensure(_ wanted: Int) {
        guard count - position < wanted, !sourceEnded else { return }
        let left = count - position
        window.withUnsafeMutableBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            start.copyMemory(from: start + position, byteCount: left)
        }
        base += position
        position = 0
        count = left
        while count < wanted && !sourceEnded {
            let got = window.withUnsafeMutableBytes { source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            if got == 0 { sourceEnded = true }
            count += got
        }
    }

    mutating func skipWhiteSpace() {
        while let byte = peekByte() {
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            if byte == 0x0A {
                line += 1
                lineStart = offset + 1
            }
            position += 1
        }
    }

    /// One value at the next byte (after white space): a scalar whole, or a container opened.
    mutating func value() throws(JSONError) -> JSONEvent {
        skipWhiteSpace()
        let byte = try peek()
        valueOffset = offset
        state = .afterValue
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < JSONDocument.maximumDepth else { throw error(.tooDeep) }
            position += 1
            if byte == UInt8(ascii: "{") {
                stack.append(keyEnds.count)
                state = .firstMember
                return .objectStart
            }
            stack.append(-1)
            state = .firstElement
            return .arrayStart
        case UInt8(ascii: "\""):
            try parseString()
            return .string
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw error(.unexpectedByte(byte))
        }
    }

    /// One member's key and its colon; the value is the next event.
    mutating func key() throws(JSONError) -> JSONEvent {
        skipWhiteSpace()
        let keyOffset = offset
        let byte = try peek()
        guard byte == UInt8(ascii: "\"") else { throw error(.unexpectedByte(byte)) }
        try parseString()
        try checkUnique(at: keyOffset)
        skipWhiteSpace()
        let colon = try peek()
        guard colon == UInt8(ascii: ":") else { throw error(.unexpectedByte(colon)) }
        position += 1
        state = .value
        return .key
    }

    /// Refuses the key in `text` if the innermost object has it already; remembers it.
    mutating func checkUnique(at keyOffset: Int) throws(JSONError) {
        let first = stack[stack.count - 1]
        var start = first == 0 ? 0 : keyEnds[first - 1]
        for end in keyEnds[first...] {
            if end - start == text.count && keys[start..<end].elementsEqual(text) {
                throw error(.duplicateKey(String(decoding: text, as: UTF8.self)), at: keyOffset)
            }
            start = end
        }
        keys.append(contentsOf: text)
        keyEnds.append(keys.count)
    }

    /// Forgets the keys of the innermost object, which has just closed.
    mutating func closeObject() {
        let first = stack.removeLast()
        keys.removeSubrange((first == 0 ? 0 : keyEnds[first - 1])...)
        keyEnds.removeSubrange(first...)
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        for index in 0..<word.utf8CodeUnitCount {
            let byte = try peek()
            guard byte == word.utf8Start[index] else { throw error(.unexpectedByte(byte)) }
            position += 1
        }
    }
}

extension JSONReader {
    /// The index in `names` of the last key, nil when it is none of them.
    func keyName(_ names: [StaticString]) -> Int? {
        names.firstIndex { textIs($0) }
    }
}
