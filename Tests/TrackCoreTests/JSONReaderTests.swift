import Foundation
import Testing
@testable import TrackCore

// The strict RFC 8259 reader: what it accepts and how it decodes, every rejection with its
// place, and seeded random mutations of valid texts (never a trap; whatever it accepts,
// Foundation's JSONSerialization accepts too, since ours is the stricter of the two).

@Suite struct JSONReaderTests {
    @Test(arguments: [
        ("{\"a\":[1,true,null,\"x\"]}", JSONKind.object, 1),
        ("[]", .array, 0),
        (" \t\r\n[ 1 , 2 ]\n", .array, 2),
        ("\"\"", .string, 0),
        ("-0", .number, 0),
        ("false", .bool, 0),
        ("{\"a\":{\"b\":{}}}", .object, 1),
    ])
    func acceptsValidTexts(text: String, kind: JSONKind, children: Int) throws {
        let document = try JSONDocument.parse(text)
        #expect(document.nodes[document.root].kind == kind)
        #expect(document.nodes[document.root].childCount == children)
    }

    @Test(arguments: [
        ("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "a\"b\\c/d\u{8}\u{C}\n\r\t"),
        ("\"\\u00e9\\u20AC\"", "é€"),
        ("\"\\ud83d\\ude00\"", "😀"),
        ("\"Tübingen 😀\"", "Tübingen 😀"),
    ])
    func decodesStrings(text: String, expected: String) throws {
        let document = try JSONDocument.parse(text)
        #expect(document.string(document.root) == expected)
    }

    @Test(arguments: [
        ("48.1173", 9, Int64(48_117_300_000)),
        ("-0.000000001", 9, -1),
        ("1e-10", 9, 0),
        ("5e-10", 9, 1),
        ("-5e-10", 9, -1),
        ("12.5E1", 0, 125),
        ("1234567890123456789012", -10, 123_456_789_012),
        ("0.1000000000000000000000001", 1, 1),
    ])
    func scalesNumbersExactly(text: String, decimals: Int, expected: Int64) throws {
        let document = try JSONDocument.parse(text)
        #expect(document.nodes[document.root].number.scaled(decimals: decimals) == expected)
    }

    @Test func numbersAsDoubles() throws {
        for (text, value) in [("2.5e-3", 0.0025), ("100", 100.0), ("-1.5", -1.5), ("1e400", Double.infinity)] {
            let document = try JSONDocument.parse(text)
            #expect(document.nodes[document.root].number.double == value, "\(text)")
        }
    }

    @Test(arguments: [
        ("", 0, JSONError.Problem.unexpectedEnd),
        ("[1,]", 3, .unexpectedByte(UInt8(ascii: "]"))),
        ("{\"a\":1,}", 7, .unexpectedByte(UInt8(ascii: "}"))),
        ("01", 0, .malformedNumber),
        ("-", 0, .malformedNumber),
        ("1.", 0, .malformedNumber),
        ("1e", 0, .malformedNumber),
        (".5", 0, .unexpectedByte(UInt8(ascii: "."))),
        ("+1", 0, .unexpectedByte(UInt8(ascii: "+"))),
        ("NaN", 0, .unexpectedByte(UInt8(ascii: "N"))),
        ("'a'", 0, .unexpectedByte(UInt8(ascii: "'"))),
        ("[1] x", 4, .trailingContent),
        ("\"a\\x\"", 2, .invalidEscape),
        ("\"\\ud800\"", 1, .loneSurrogate),
        ("\"\\udc00\"", 1, .loneSurrogate),
        ("\"\\ud800\\u0041\"", 1, .loneSurrogate),
        ("\"a\nb\"", 2, .controlCharacterInString(0x0A)),
        ("{\"id\":1,\"id\":2}", 8, .duplicateKey("id")),
        ("{1:2}", 1, .unexpectedByte(UInt8(ascii: "1"))),
        ("[1 2]", 3, .unexpectedByte(UInt8(ascii: "2"))),
        ("tru", 3, .unexpectedEnd),
        ("[1,2", 4, .unexpectedEnd),
        ("// c\n[]", 0, .unexpectedByte(UInt8(ascii: "/"))),
    ])
    func rejectsWithPlace(text: String, offset: Int, problem: JSONError.Problem) {
        #expect(throws: JSONError.self) { try JSONDocument.parse(text) }
        do {
            _ = try JSONDocument.parse(text)
        } catch {
            #expect(error.problem == problem)
            #expect(error.offset == offset)
        }
    }

    @Test(arguments: [
        [UInt8]([0x22, 0xC0, 0xAF, 0x22]),  // overlong '/'
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8 of a surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xE2, 0x82, 0x22],  // cut off
        [0x22, 0xFF, 0x22],
        [0x22, 0x80, 0x22],  // lone continuation byte
    ])
    func rejectsMalformedUTF8(bytes: [UInt8]) {
        #expect(throws: JSONError(offset: 1, line: 1, column: 2, problem: .invalidUTF8)) { try JSONDocument.parse(bytes) }
    }

    @Test func linesAndColumnsInErrors() {
        #expect(throws: JSONError(offset: 13, line: 3, column: 3, problem: .unexpectedByte(UInt8(ascii: "]")))) {
            try JSONDocument.parse("{\n\"a\": [1,\n  ]}")
        }
        let error = JSONError(offset: 13, line: 3, column: 3, problem: .unexpectedByte(UInt8(ascii: "]")))
        #expect(error.description == "line 3, column 3: unexpected ']' (0x5D)")
    }

    @Test func depthIsLimited() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSONDocument.parse(deep)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONError(offset: 64, line: 1, column: 65, problem: .tooDeep)) { try JSONDocument.parse(tooDeep) }
    }

    @Test func membersAndChildren() throws {
        let document = try JSONDocument.parse("{\"type\":\"Point\",\"coordinates\":[9.5,48.25]}")
        let coordinates = try #require(document.member("coordinates", of: document.root))
        #expect(document.children(of: coordinates).map { document.nodes[$0].number.double } == [9.5, 48.25])
        #expect(document.isString(try #require(document.member("type", of: document.root)), "Point"))
        #expect(document.member("missing", of: document.root) == nil)
        #expect(document.key(coordinates) == "coordinates")
    }

    /// Seeded mutations of valid texts: flip, insert, delete and duplicate bytes; the reader
    /// never traps, and what it accepts Foundation accepts.
    @Test(arguments: 0..<8)
    func mutationFuzz(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1)
        let seeds = [
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"id\":\"a\",\"radius\":5e1},\"geometry\":{\"type\":\"Point\",\"coordinates\":[9.06,48.52]}}]}",
            "[1,-2.5e+3,true,false,null,\"\\u00e9\\n\",{\"k\":[[]]},\"😀\"]",
        ]
        let alphabet = Array("{}[]\",:0123456789-+.eEtrufalsn \\u\n".utf8) + [0x00, 0x7F, 0xC3, 0xA9, 0xFF]
        var accepted = 0
        for round in 0..<1500 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                let at = Int(generator.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 4 {
                case 0: if at < bytes.count { bytes[at] = byte }
                case 1: bytes.insert(byte, at: at)
                case 2: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes.insert(bytes[at], at: at) }
                }
            }
            guard (try? JSONDocument.parse(bytes)) != nil else { continue }
            accepted += 1
            let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            #expect(foundation != nil, "accepted what Foundation refuses: \(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(accepted > 10)
    }

    /// The streaming reader's events in document order, keys and strings decoded in `text`,
    /// a container skipped whole, the end reported once the text is whole.
    @Test func streamsEvents() throws {
        var reader = JSONReader(JSONBytes(Array("{\"a\":[1,true],\"skip\":{\"x\":[{}]},\"s\":\"\\u00e9\"} ".utf8)), windowBytes: 8)
        var seen: [String] = []
        while true {
            let event = try reader.next()
            if event == .end { break }
            if event == .key && reader.textIs("skip") {
                try reader.skipValue(after: try reader.next())
                seen.append("skipped")
                continue
            }
            switch event {
            case .key, .string: seen.append(String(decoding: reader.text, as: UTF8.self))
            case .number(let number): seen.append("\(number.double)")
            default: seen.append("\(event)")
            }
        }
        #expect(seen == ["objectStart", "a", "arrayStart", "1.0", "bool(true)", "arrayEnd", "skipped", "s", "é", "objectEnd"])
        #expect(try reader.next() == .end)
        #expect(reader.offset == 46)  // the whole text, the trailing space included
    }

    /// Random byte soup: no trap, and every error points inside the text.
    @Test func byteSoup() {
        var generator = SplitMix64(seed: 77)
        for _ in 0..<3000 {
            let bytes = (0..<Int(generator.next() % 40)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            do {
                _ = try JSONDocument.parse(bytes)
            } catch {
                #expect(error.offset <= bytes.count)
            }
        }
    }
}
