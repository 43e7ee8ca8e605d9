import Testing
import TrackCore

/// The JSON string writer (`TextBuffer.appendJSONString`).
@Suite struct JSONStringTests {
    @Test(arguments: [
        ("camp", #""camp""#), (#"say "hi""#, #""say \"hi\"""#), (#"a\b"#, #""a\\b""#),
        ("line\nnext\r\ttab", #""line\nnext\r\ttab""#), ("\u{01}\u{1F}", #""\u0001\u001f""#),
        ("Tübingen €", "\"Tübingen €\""), ("/", "\"/\""), ("", "\"\""), ("\u{7F}", #""\u007f""#),
        ("😀\u{0}", #""😀\u0000""#),
    ])
    func stringsAreEscaped(text: String, json: String) {
        var buffer = TextBuffer()
        buffer.appendJSONString(text)
        #expect(buffer.string == json)
    }

    /// Bytes as they may come from a client or a file: well-formed UTF-8 is kept, every other
    /// byte becomes U+FFFD, so what is written is always JSON.
    @Test(arguments: [
        ([0x61, 0x22, 0x62], #"a\"b"#), ([0xC3, 0xA9], "é"), ([0xE2, 0x82, 0xAC], "€"), ([0xF0, 0x9F, 0x98, 0x80], "😀"),
        ([0xFF], #"\ufffd"#), ([0x80], #"\ufffd"#), ([0xC3], #"\ufffd"#), ([0xC3, 0x41], #"\ufffdA"#),
        // Overlong "/" and a surrogate (U+D800): one U+FFFD per byte.
        ([0xC0, 0xAF], #"\ufffd\ufffd"#), ([0xED, 0xA0, 0x80], #"\ufffd\ufffd\ufffd"#),
        // Past U+10FFFF, and a sequence cut short by the end.
        ([0xF4, 0x90, 0x80, 0x80], #"\ufffd\ufffd\ufffd\ufffd"#), ([0x41, 0xE2, 0x82], #"A\ufffd\ufffd"#),
        ([0x00, 0x1F, 0x7F, 0x09], #"\u0000\u001f\u007f\t"#), ([], ""),
    ] as [([UInt8], String)])
    func bytesAreEscapedAndMadeValidUTF8(bytes: [UInt8], json: String) throws {
        var buffer = TextBuffer()
        buffer.appendJSONEscaped(bytes.span)
        #expect(buffer.string == json)
        // What comes out reads back as a JSON string.
        let document = try JSONDocument.parse(Array(("\"" + buffer.string + "\"").utf8))
        #expect(document.string(document.root) != nil)
    }
}
