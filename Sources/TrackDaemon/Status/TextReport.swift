import TrackCore
import TrackIO

/// The status as `trackctl status` prints it: a line per section (`receiver  …`), headed in a
/// column of ten, continuation lines indented to it; the JSON members are not written.
struct TextReport: ~Copyable, StatusReport {
    private(set) var reply: ReplyBuffer
    private var text = TextBuffer()
    private var started = false

    /// A report appending to `reply` (a copy sharing its storage: take `reply` back at the end).
    init(_ reply: ReplyBuffer) { self.reply = reply }

    mutating func line(_ title: StaticString) {
        endLine()
        text.append(title)
        for _ in title.utf8CodeUnitCount..<10 { text.append(UInt8(ascii: " ")) }
    }

    mutating func indented() {
        endLine()
        text.append("          ")
    }

    mutating func object(_ key: StaticString) {}
    mutating func endObject() {}
    mutating func words(_ write: (inout TextBuffer) -> Void) { write(&text) }
    mutating func member(_ key: StaticString, _ write: (inout TextBuffer) -> Void) {}

    /// Ends the last line; the reply holds every line.
    mutating func finish() -> ReplyBuffer {
        endLine()
        return reply
    }

    private mutating func endLine() {
        // Words before any line (an answer of a few words) are a line too.
        if started || text.count > 0 { emit(&text, &reply) }
        started = true
    }
}

/// The status as `status json` gives it: one JSON object on one line, for scripts (seconds,
/// metres, degrees; absent values left out); the text's words are not written.
struct JSONReport: ~Copyable, StatusReport {
    private(set) var reply: ReplyBuffer
    private var text = TextBuffer()
    /// Bit `depth` set while the object at that depth has no member yet.
    private var empty: UInt64 = 1
    private var depth = 0

    /// A report appending to `reply`, the root object opened.
    init(_ reply: ReplyBuffer) {
        self.reply = reply
        text.append(UInt8(ascii: "{"))
    }

    mutating func line(_ title: StaticString) {}
    mutating func indented() {}
    mutating func words(_ write: (inout TextBuffer) -> Void) {}

    mutating func object(_ key: StaticString) {
        name(key)
        text.append(UInt8(ascii: "{"))
        depth += 1
        empty |= 1 << UInt64(depth)
    }

    mutating func endObject() {
        text.append(UInt8(ascii: "}"))
        depth -= 1
    }

    mutating func member(_ key: StaticString, _ write: (inout TextBuffer) -> Void) {
        name(key)
        write(&text)
        // Long values (a fix, a status of many fences) go out before the line fills.
        if text.count > TextBuffer.capacity / 2 { flush() }
    }

    /// Closes the root object; the reply holds the line.
    mutating func finish() -> ReplyBuffer {
        text.append("}\n")
        flush()
        return reply
    }

    private mutating func name(_ key: StaticString) {
        if empty & (1 << UInt64(depth)) == 0 { text.append(UInt8(ascii: ",")) }
        empty &= ~(1 << UInt64(depth))
        text.append(UInt8(ascii: "\""))
        text.append(key)
        text.append("\":")
    }

    private mutating func flush() {
        reply.append(&text)
        text.removeAll()
    }
}
