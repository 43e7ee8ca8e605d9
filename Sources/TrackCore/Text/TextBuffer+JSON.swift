// JSON strings, written in one place: the decode and export writers and the daemon's status.

extension TextBuffer {
    /// Appends `text` as a JSON string with its quotes (RFC 8259 §7), e.g. `say "hi"` →
    /// `"say \"hi\""`, a line feed as `\n`; other control characters as `\u00XX`, e.g. U+0001 →
    /// `\u0001`. Everything else is copied as its UTF-8.
    public mutating func appendJSONString(_ text: String) {
        append(UInt8(ascii: "\""))
        for byte in text.utf8 { appendJSONEscaped(byte) }
        append(UInt8(ascii: "\""))
    }

    /// Appends one byte of a JSON string's contents, escaped as `appendJSONString` escapes it,
    /// e.g. `"` → `\"`, U+0001 → `\u0001`; for text held as bytes (no quotes added).
    public mutating func appendJSONEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0..<0x20:
            append("\\u00")
            append(HexDigit.character(byte >> 4))
            append(HexDigit.character(byte))
        default: append(byte)
        }
    }

    /// Appends `,"key":"text"` (without the comma when `first`), e.g. `("name", "camp")` →
    /// `,"name":"camp"`.
    public mutating func appendJSONMember(_ key: StaticString, _ text: String, first: Bool = false) {
        if !first { append(UInt8(ascii: ",")) }
        append(UInt8(ascii: "\""))
        append(key)
        append("\":")
        appendJSONString(text)
    }
}
