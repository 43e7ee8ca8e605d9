import TrackCore

/// The words of the daemon's current place name, kept in fixed storage so that status and
/// `where` can show them without the table and without the heap, e.g.
/// `2.8 km NE of Tübingen, Baden-Wurttemberg, DE` (44 bytes).
///
/// Holds up to `capacity` bytes of UTF-8: the longest name the table format allows ("999 km NW
/// of", a 255-byte name, a 255-byte region, the country code) fits. A longer text is cut at a
/// character boundary, never inside one.
struct PlaceWords {
    /// Bytes the words may take: 640.
    static var capacity: Int { 640 }

    private var storage: InlineArray<640, UInt8> = InlineArray(repeating: 0)
    /// Bytes held; 0 means no words.
    private(set) var count = 0

    /// No words.
    init() {}

    /// True when there are no words.
    var isEmpty: Bool { count == 0 }

    /// Forgets the words.
    mutating func removeAll() { count = 0 }

    /// Replaces the words with what `line` holds.
    mutating func set(_ line: inout TextBuffer) {
        count = 0
        line.withBytes { bytes in
            var end = min(bytes.count, Self.capacity)
            // Cut before a UTF-8 continuation byte's lead, not through the character.
            if end < bytes.count { while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 } }
            for index in 0..<end { storage[index] = bytes[index] }
            count = end
        }
    }

    /// Appends the words to `line`.
    func write(to line: inout TextBuffer) {
        for index in 0..<count { line.append(storage[index]) }
    }

    /// Appends the words as a JSON string literal (`"` `\` and control bytes escaped).
    func writeJSON(to line: inout TextBuffer) {
        line.append("\"")
        line.appendJSONEscaped(storage.span.extracting(0..<count))
        line.append("\"")
    }

    /// The words as a String (allocates: tests).
    var string: String {
        var line = TextBuffer()
        write(to: &line)
        return line.string
    }
}
