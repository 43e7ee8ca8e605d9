import TrackCore
import TrackIO

/// Where a section of the status declares its facts, once: each fact with its JSON key and
/// the words around it in the text, and the structure of both (text lines, JSON objects). The
/// one declaration is rendered as text (`trackctl status`: a line per section, headed in a
/// column of ten) or as JSON (`status --json`: one object on one line; seconds, metres,
/// degrees; absent values left out); doctor reads the same section values. One type for both
/// formats, so each section's code is compiled once.
///
/// E.g. the receiver's baud is declared once as
/// `report.integer("baud", 9600, " ", " baud")`: the text gets ` 9600 baud`, the JSON
/// `"baud":9600`. A fact with no key is the text's alone, one marked `.json` the JSON's alone.
struct StatusReport: ~Copyable {
    /// Which of the two renderings this report writes.
    enum Format {
        case text
        case json
    }

    let format: Format
    private(set) var reply: ReplyBuffer
    private var text = TextBuffer()
    /// Text: whether a line was started. JSON: bit `depth` set while the object at that depth
    /// has no member yet.
    private var started = false
    private var empty: UInt64 = 1
    private var depth = 0

    /// A report in `format` appending to `reply` (a copy sharing its storage: `finish` gives
    /// it back); the JSON's root object opened.
    init(_ format: Format, _ reply: ReplyBuffer) {
        self.format = format
        self.reply = reply
        if format == .json { text.append(UInt8(ascii: "{")) }
    }

    /// Text: a new line headed `title`, padded to the column (`receiver  `). JSON: nothing.
    mutating func line(_ title: StaticString) {
        guard format == .text else { return }
        endLine()
        text.append(title)
        for _ in title.utf8CodeUnitCount..<10 { text.append(UInt8(ascii: " ")) }
    }

    /// Text: a new line under the last, indented to the column. JSON: nothing.
    mutating func indented() {
        guard format == .text else { return }
        endLine()
        text.append("          ")
    }

    /// JSON: opens the member `"key":{`. Text: nothing.
    mutating func object(_ key: StaticString) {
        guard format == .json else { return }
        name(key)
        text.append(UInt8(ascii: "{"))
        depth += 1
        empty |= 1 << UInt64(depth)
    }

    /// JSON: closes the innermost object. Text: nothing.
    mutating func endObject() {
        guard format == .json else { return }
        text.append(UInt8(ascii: "}"))
        depth -= 1
    }

    /// Text: `write` adds to the line. JSON: nothing.
    mutating func words(_ write: (inout TextBuffer) -> Void) {
        if format == .text { write(&text) }
    }

    /// JSON: the member `"key":` and the value `write` gives. Text: nothing.
    mutating func member(_ key: StaticString, _ write: (inout TextBuffer) -> Void) {
        guard format == .json else { return }
        // Room for a long value (receiver control's commands: up to 2.5 KB).
        if text.count > TextBuffer.capacity / 4 { flush() }
        name(key)
        write(&text)
        // Long values (a fix, many addresses) go out before the buffer fills.
        if text.count > TextBuffer.capacity / 2 { flush() }
    }

    /// Ends the report: the text's last line, the JSON's root object and its line end.
    mutating func finish() -> ReplyBuffer {
        if format == .json {
            text.append("}\n")
            flush()
        } else {
            endLine()
        }
        return reply
    }

    private mutating func endLine() {
        // Words before any line (an answer of a few words) are a line too.
        if started || text.count > 0 { emit(&text, &reply) }
        started = true
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

/// Which renderings a fact appears in.
enum Shown {
    case both
    case text
    case json

    var text: Bool { self != .json }
    var json: Bool { self != .text }
}

/// The kinds of fact, each from the two primitives.
extension StatusReport {
    /// Text words, e.g. `", "`.
    mutating func words(_ text: StaticString) { words { $0.append(text) } }

    /// Text words from a string (a path, an error).
    mutating func words(string: String) { words { $0.append(string: string) } }

    /// An integer: `before` 42 `after` in the text, `"key":42` in the JSON.
    mutating func integer(_ key: StaticString?, _ value: Int64, _ before: StaticString = "", _ after: StaticString = "",
                          shown: Shown = .both) {
        if shown.text {
            words { line in
                line.append(before)
                line.append(integer: value)
                line.append(after)
            }
        }
        if shown.json, let key { member(key) { $0.append(integer: value) } }
    }

    /// A count (an `Int`), as `integer`.
    mutating func count(_ key: StaticString?, _ value: Int, _ before: StaticString = "", _ after: StaticString = "",
                        shown: Shown = .both) {
        integer(key, Int64(value), before, after, shown: shown)
    }

    /// A fixed-point number of `decimals` places: `value` 1234 with 3 → `1.234`.
    mutating func fixed(_ key: StaticString?, _ value: Int64, decimals: Int, _ before: StaticString = "",
                        _ after: StaticString = "", shown: Shown = .both) {
        if shown.text {
            words { line in
                line.append(before)
                line.appendFixed(value, decimals: decimals)
                line.append(after)
            }
        }
        if shown.json, let key { member(key) { $0.appendFixed(value, decimals: decimals) } }
    }

    /// A string: as it is in the text, escaped and quoted in the JSON.
    mutating func string(_ key: StaticString?, _ value: String, _ before: StaticString = "", _ after: StaticString = "",
                         shown: Shown = .both) {
        if shown.text {
            words { line in
                line.append(before)
                line.append(string: value)
                line.append(after)
            }
        }
        if shown.json, let key { member(key) { $0.appendJSONString(value) } }
    }

    /// A word from a fixed set (a state's name): as it is in the text, quoted in the JSON.
    mutating func name(_ key: StaticString?, _ value: StaticString, _ before: StaticString = "", _ after: StaticString = "",
                       shown: Shown = .both) {
        if shown.text {
            words { line in
                line.append(before)
                line.append(value)
                line.append(after)
            }
        }
        if shown.json, let key {
            member(key) { line in
                line.append(UInt8(ascii: "\""))
                line.append(value)
                line.append(UInt8(ascii: "\""))
            }
        }
    }

    /// A yes or no: the text's words for each, `true` or `false` in the JSON.
    mutating func flag(_ key: StaticString?, _ value: Bool, ifTrue: StaticString = "", ifFalse: StaticString = "",
                       shown: Shown = .both) {
        if shown.text { words(value ? ifTrue : ifFalse) }
        if shown.json, let key { member(key) { $0.append(value ? "true" : "false") } }
    }

    /// A length of time: `0.6s`, `3m05s` in the text; seconds with three decimals in the JSON.
    mutating func duration(_ key: StaticString?, milliseconds: Int64, _ before: StaticString = "", _ after: StaticString = "",
                           shown: Shown = .both) {
        if shown.text {
            words { line in
                line.append(before)
                appendDuration(&line, milliseconds: milliseconds)
                line.append(after)
            }
        }
        if shown.json, let key { member(key) { $0.appendFixed(milliseconds, decimals: 3) } }
    }

    /// A size: `25 KiB` in the text, bytes in the JSON.
    mutating func bytes(_ key: StaticString?, _ value: Int64, _ before: StaticString = "", _ after: StaticString = "",
                        shown: Shown = .both) {
        if shown.text {
            words { line in
                line.append(before)
                appendBytes(&line, value)
                line.append(after)
            }
        }
        if shown.json, let key { member(key) { $0.append(integer: value) } }
    }
}
