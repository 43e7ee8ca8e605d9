// JSON strings, written in one place: the decode and export writers, trackctl's JSON, the
// daemon's status and the gpsd service.

extension TextBuffer {
    /// Appends `text` as a JSON string with its quotes (RFC 8259 §7), e.g. `say "hi"` →
    /// `"say \"hi\""`, a line feed as `\n`; escaped as `appendJSONEscaped(_:)` escapes bytes.
    @inline(never)
    public mutating func appendJSONString(_ text: String) {
        append(UInt8(ascii: "\""))
        appendJSONEscaped(text.utf8.span)
        append(UInt8(ascii: "\""))
    }

    /// Appends `bytes` as the contents of a JSON string (no quotes added), so that any bytes
    /// make valid JSON that says what they said: `"` and `\` backslashed; line feed, carriage
    /// return and tab as `\n`, `\r`, `\t`; every other control byte (U+0000…U+001F and DEL) as
    /// `\u00XX`, e.g. 0x01 → `\u0001`, 0x7F → `\u007f`; well-formed UTF-8 copied as it is,
    /// e.g. `C3 A9` ("é"); any other byte (a stray continuation byte, an overlong form, a
    /// surrogate, a sequence cut short) as `\ufffd`, once per byte, e.g. `FF` → `\ufffd`.
    /// Python's json module and most readers refuse raw invalid UTF-8 (gpsd copies it raw).
    @inline(never)
    public mutating func appendJSONEscaped(_ bytes: Span<UInt8>) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                appendJSONEscaped(byte)
                index += 1
            } else if let length = UTF8Sequence.length(bytes, at: index) {
                for offset in 0..<length { append(bytes[index + offset]) }
                index += length
            } else {
                append("\\ufffd")
                index += 1
            }
        }
    }

    /// Appends one byte of a JSON string's contents, escaped as `appendJSONEscaped(_:)` escapes
    /// it, e.g. `"` → `\"`, 0x01 → `\u0001`. A byte of 0x80 or more is copied as it is: only
    /// for text already known to be well-formed UTF-8; anything else goes through the span form,
    /// which checks.
    public mutating func appendJSONEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0..<0x20, 0x7F:
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
