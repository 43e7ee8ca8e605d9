import Testing
import TrackCore

/// One framer input and everything the framer should report for it, in order.
struct FramerCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let expected: [FramerOutcome]
    var testDescription: String { name }

    init(_ name: String, _ input: [UInt8], _ expected: [FramerOutcome]) {
        self.name = name
        self.input = input
        self.expected = expected
    }

    init(_ name: String, _ input: String, _ expected: [FramerOutcome]) {
        self.init(name, Array(input.utf8), expected)
    }
}

// Reference sentences; the GGA, ZDA and TXT are the well-known examples with their published
// checksums, so these cases do not depend on the checksum helper.
private let gga = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
private let ggaLine = "$" + gga + "*47\r\n"
private let zda = "GPZDA,201530.00,04,07,2002,00,00"
private let zdaLine = "$" + zda + "*60\r\n"
private let txt = "GPTXT,01,01,02,ANTSTATUS=OK"

/// A TXT body padded with `x` to exactly `length` bytes, e.g. for length limits.
private func paddedBody(_ length: Int) -> String {
    let head = "GPTXT,01,01,02,"
    return head + String(repeating: "x", count: length - head.utf8.count)
}

/// A TXT body of exactly `fields` fields (the address included).
private func bodyWithFields(_ fields: Int) -> String {
    "GPTXT" + String(repeating: ",1", count: fields - 1)
}

/// `$` + body + `*hh` is the body plus four characters.
private let longestBody = NMEASentence.maximumLength - 4

/// A ZDA line with `byte` spliced in after `GPZDA,2015` (offset 11 counting the `$`).
private func zdaLine(inserting bytes: [UInt8]) -> [UInt8] {
    Array("$GPZDA,2015".utf8) + bytes + Array("30.00,04,07,2002,00,00*60\r\n".utf8)
}

private let framerCases: [FramerCase] = [
    FramerCase("upper-case checksum", ggaLine, [.sentence(gga)]),
    FramerCase("lower-case checksum", "$" + txt + "*3b\r\n", [.sentence(txt)]),
    FramerCase("mixed-case checksum", nmea("GPGLL,4916.45,N,12311.12,W,225444,A,A", lowercase: true) + "\r\n",
               [.sentence("GPGLL,4916.45,N,12311.12,W,225444,A,A")]),
    FramerCase("bad checksum", "$" + gga + "*48\r\n", [.rejected(.badChecksum(expected: 0x47, found: 0x48))]),
    FramerCase("one bit flipped in the body", "$GPGGA,123519,4807.039,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n",
               [.rejected(.badChecksum(expected: 0x46, found: 0x47))]),
    FramerCase("missing checksum", "$" + gga + "\r\n", [.rejected(.missingChecksum)]),
    FramerCase("star without digits", "$" + zda + "*\r\n", [.rejected(.malformedChecksum)]),
    FramerCase("one checksum digit", "$" + zda + "*6\r\n", [.rejected(.malformedChecksum)]),
    FramerCase("non-hex checksum digit", "$" + zda + "*6G\r\n", [.rejected(.malformedChecksum)]),
    FramerCase("three checksum digits", "$" + zda + "*600\r\n", [.rejected(.malformedChecksum)]),
    FramerCase("space before the line end", "$" + zda + "*60 \r\n", [.rejected(.malformedChecksum)]),
    FramerCase("NUL inside", zdaLine(inserting: [0x00]), [.rejected(.invalidByte(0x00, offset: 11))]),
    FramerCase("BEL inside", zdaLine(inserting: [0x07]), [.rejected(.invalidByte(0x07, offset: 11))]),
    FramerCase("tab inside", zdaLine(inserting: [0x09]), [.rejected(.invalidByte(0x09, offset: 11))]),
    FramerCase("ESC inside", zdaLine(inserting: [0x1B]), [.rejected(.invalidByte(0x1B, offset: 11))]),
    FramerCase("DEL inside", zdaLine(inserting: [0x7F]), [.rejected(.invalidByte(0x7F, offset: 11))]),
    FramerCase("UTF-8 é inside", zdaLine(inserting: [0xC3, 0xA9]), [.rejected(.invalidByte(0xC3, offset: 11))]),
    FramerCase("0xFF inside", zdaLine(inserting: [0xFF]), [.rejected(.invalidByte(0xFF, offset: 11))]),
    FramerCase("overlong line dropped, next line accepted",
               nmea(paddedBody(longestBody + 1)) + "\r\n" + zdaLine,
               [.rejected(.overlong), .sentence(zda)]),
    FramerCase("overlong line without a line end, cut by the next $",
               "$" + paddedBody(400) + zdaLine,
               [.rejected(.overlong), .sentence(zda)]),
    FramerCase("line of exactly maximumLength accepted", nmea(paddedBody(longestBody)) + "\r\n",
               [.sentence(paddedBody(longestBody))]),
    FramerCase("200-character line accepted", nmea(paddedBody(196)) + "\r\n", [.sentence(paddedBody(196))]),
    // ST Teseo sends `$$GNGSA`: nothing was cut short, the sentence is the second `$`.
    FramerCase("$$ is one sentence, nothing rejected", "$" + zdaLine, [.sentence(zda)]),
    FramerCase("sentence cut by a new $", "$GPGGA,123519,4807.0" + zdaLine, [.rejected(.truncated), .sentence(zda)]),
    FramerCase("checksum with no line end before the next $", "$" + zda + "*60" + zdaLine,
               [.rejected(.truncated), .sentence(zda)]),
    FramerCase("CR-only line ends", "$" + zda + "*60\r" + "$" + gga + "*47\r", [.sentence(zda), .sentence(gga)]),
    FramerCase("LF-only line ends", "$" + zda + "*60\n" + "$" + gga + "*47\n", [.sentence(zda), .sentence(gga)]),
    FramerCase("CR LF and blank lines", "\r\n" + zdaLine + "\r\n\r\n" + ggaLine + "\n\r", [.sentence(zda), .sentence(gga)]),
    FramerCase("48 fields accepted", nmea(bodyWithFields(48)) + "\r\n", [.sentence(bodyWithFields(48))]),
    FramerCase("49 fields rejected", nmea(bodyWithFields(49)) + "\r\n" + zdaLine, [.rejected(.tooManyFields), .sentence(zda)]),
    FramerCase("garbage between sentences ignored",
               Array("noise, *12 and commas\r\n".utf8) + [0xB5, 0x62, 0x01, 0x07, 0x00, 0xFF, 0x0D]
                   + Array(zdaLine.utf8) + Array("# a comment line\n*47,,,\r\n".utf8) + [0x00, 0x00]
                   + Array(ggaLine.utf8) + Array("trailing".utf8),
               [.sentence(zda), .sentence(gga)]),
    FramerCase("empty input", "", []),
]

/// The bad lines of the table: each must be dropped with one rejection and not disturb the next.
private let badLines: [FramerCase] = framerCases.filter { testCase in
    testCase.expected.count == 1 && testCase.expected.allSatisfy {
        if case .rejected = $0 { true } else { false }
    }
}

@Suite("NMEA framer")
struct NMEAFramerTests {
    @Test(arguments: framerCases)
    func framing(_ testCase: FramerCase) {
        #expect(frame(testCase.input) == testCase.expected)
    }

    @Test("a good line after each bad one is accepted", arguments: badLines)
    func recovery(_ testCase: FramerCase) {
        let outcomes = frame(testCase.input + Array(ggaLine.utf8))
        #expect(outcomes.count == 2)
        #expect(outcomes.last == .sentence(gga))
    }

    @Test("every checksum value is accepted in either hex case, and only its own value")
    func everyChecksum() {
        // ASCII bodies XOR to 0x00…0x7F; find one body for each value.
        var bodies: [UInt8: String] = [:]
        var counter = 0
        while bodies.count < 128 {
            let body = "GPTXT,01,01,02," + String(counter, radix: 36, uppercase: counter % 2 == 0)
            bodies[nmeaChecksum(body.utf8)] = bodies[nmeaChecksum(body.utf8)] ?? body
            counter += 1
        }
        for (sum, body) in bodies.sorted(by: { $0.key < $1.key }) {
            for lowercase in [false, true] {
                #expect(frame(Array((nmea(body, lowercase: lowercase) + "\r\n").utf8)) == [.sentence(body)])
            }
            let wrong = sum ^ 0x01
            let hex = String(wrong, radix: 16, uppercase: true)
            #expect(frame(Array(("$" + body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n").utf8))
                == [.rejected(.badChecksum(expected: sum, found: wrong))])
        }
    }

    @Test("the receiver counts each bad line once, under its reason", arguments: badLines)
    func counted(_ testCase: FramerCase) throws {
        guard case .rejected(let error) = try #require(testCase.expected.first) else { return }
        var expected = NMEACounters()
        expected.count(error)
        expected.accepted = 1
        #expect(receive(testCase.input + Array(zdaLine.utf8)).counters.withoutFixes == expected)
    }

    @Test("an overlong line counts as overlong, not malformed")
    func overlongCounted() {
        let counters = receive(Array((nmea(paddedBody(longestBody + 1)) + "\r\n" + zdaLine).utf8)).counters
        #expect(counters.overlong == 1)
        #expect(counters.malformed == 0)
        #expect(counters.accepted == 1)
    }

    @Test func theTableHasItsBadLines() {
        #expect(badLines.count >= 12)
    }

    @Test func framedSentenceExposesItsFields() throws {
        var sentence = try NMEASentence(parsing: "$" + gga + "*47")
        #expect(sentence.type == .gga)
        #expect(sentence.talker == 0x4750)
        #expect(sentence.fieldCount == 15)
        #expect(sentence.count == gga.utf8.count)
        #expect(sentence.text == gga)
        #expect(sentence.fieldText(0) == "GPGGA")
        #expect(sentence.fieldText(2) == "4807.038")
        #expect(sentence.fieldText(14) == "")
        // The readers the decoders use, on the sentence where it lies (they are mutating, so
        // each is read before #expect sees it).
        let empty = (sentence.isEmpty(13), sentence.isEmpty(40))
        #expect(empty == (true, true), "fields past the last read as empty")
        let range = sentence.range(of: 2)
        #expect(range == 13..<21)
        let decimal = try sentence.decimal(2, scale: 3)
        #expect(decimal == 4_807_038)
        let angle = try sentence.angle(2, maximumDegrees: 90)
        #expect(angle == 48_117_300_000)
        let time = try sentence.time(1)
        #expect(time == timeOfDay(12, 35, 19))
        let satellites = try sentence.integer(7, in: 0...99)
        #expect(satellites == 8)
        let unit = try sentence.character(10)
        #expect(unit == UInt8(ascii: "M"))
        let absent = try sentence.decimal(40, scale: 3)
        #expect(absent == nil)
        #expect(throws: NMEAError.outOfRange(.gga, field: 7)) {
            var copy = sentence
            _ = try copy.integer(7, in: 0...7)
        }
    }

    /// `whole` is `decimal(scale: 0)` with a shortcut for plain digits: the same value, or
    /// the same error, for every kind of field.
    @Test("whole reads what decimal with scale 0 reads", arguments: [
        "07", "083", "0", "", "-3", "+4", "40.5", "40.49", "-0.5", "359.6", "360", "361", "-91", "1e3", "4x",
        "0000000083", ".5", "-",
    ])
    func wholeIsDecimalScaleZero(_ field: String) throws {
        var sentence = try NMEASentence(parsing: nmea("GPGSV,1,1,01,01," + field + ",000,40"))
        let expected = Result { () throws(NMEAError) in try sentence.decimal(5, scale: 0, in: -90...360) }
        let read = Result { () throws(NMEAError) in try sentence.whole(5, in: -90...360) }
        #expect(String(describing: read) == String(describing: expected))
    }

    @Test(arguments: [
        ("$" + gga + "*48", NMEAError.badChecksum(expected: 0x47, found: 0x48)),
        ("$" + gga, .missingChecksum),
        ("$" + gga + "*4", .malformedChecksum),
        ("$GPGGA,12\u{0}3519*00", .invalidByte(0, offset: 9)),
        ("$GPGGA,1$" + zda, .missingChecksum),
    ])
    func parsingReportsTheLastFailure(_ text: String, _ error: NMEAError) {
        #expect(throws: error) { try NMEASentence(parsing: text) }
    }

    @Test(arguments: [
        ("$" + zda + "*60", SentenceType.zda, UInt16(0x4750)),
        (nmea("GNGGA,,,,,,0,,,,,,,,"), .gga, 0x474E),
        (nmea("PQGSV,1,1,00"), .gsv, 0x5051),
        (nmea("PUBX,00,081350.00"), .proprietary, 0),
        (nmea("PGRME,15.0,M,45.0,M,25.0,M"), .proprietary, 0),
        (nmea("GPGRS,112257.00,1,-0.1,-0.3,-0.1,,,,,,,,,"), .unknown, 0x4750),
        (nmea("GPXY,1"), .unknown, 0x4750),
        (nmea(""), .unknown, 0),
    ])
    func classification(_ text: String, _ type: SentenceType, _ talker: UInt16) throws {
        let sentence = try NMEASentence(parsing: text)
        #expect(sentence.type == type)
        #expect(sentence.talker == talker)
    }

    // The receiver ends most sentences in one step (`scanTail`: `*hh` and the line end when
    // all of it is in the chunk); fed one byte at a time it never can. Both must agree on every
    // case, the malformed checksums and the field limit at the `*` included.
    @Test("each case: one chunk and byte by byte count the same", arguments: framerCases)
    func wholeChunkMatchesByteByByte(_ testCase: FramerCase) {
        let whole = receive(testCase.input, chunk: max(testCase.input.count, 1))
        let bytes = receive(testCase.input, chunk: 1)
        #expect(whole.counters == bytes.counters)
        #expect(whole.fixes == bytes.fixes)
        let sentences = testCase.expected.filter { if case .sentence = $0 { true } else { false } }.count
        #expect(whole.counters.accepted + whole.counters.unknown + whole.counters.proprietary == sentences)
    }

    @Test("feeding byte by byte or in one chunk gives the same result")
    func chunking() {
        let stream = framerCases.flatMap(\.input)
        let whole = receive(stream)
        for size in [1, 2, 7, 81] {
            let chunked = receive(stream, chunk: size)
            #expect(chunked.fixes == whole.fixes)
            #expect(chunked.counters == whole.counters)
        }
    }
}

/// The sentence table: every decoded type's row agrees with its decoder and its letters.
@Suite("the sentence table") struct SentenceTableTests {
    @Test(arguments: [
        (SentenceType.gga, "GGA", 10), (.rmc, "RMC", 10), (.gsa, "GSA", 3), (.gsv, "GSV", 4), (.vtg, "VTG", 5),
        (.gll, "GLL", 5), (.gns, "GNS", 7), (.zda, "ZDA", 5), (.gst, "GST", 9), (.txt, "TXT", 5), (.gbs, "GBS", 5),
        (.unknown, "unknown", 0), (.proprietary, "proprietary", 0),
    ] as [(SentenceType, String, Int)])
    func rows(type: SentenceType, name: String, minimumFields: Int) throws {
        #expect(type.name == name)
        #expect(type.minimumFields == minimumFields)
        if minimumFields > 0 {
            #expect(try NMEASentence(parsing: nmea("GN" + name + ",1")).type == type)
        }
    }

    /// One field short of the row's minimum is `tooFewFields` for that type, through the
    /// decoder's own initializer and through the receiver alike.
    @Test(arguments: ["GGA", "RMC", "GSA", "GSV", "VTG", "GLL", "GNS", "ZDA", "GST", "TXT", "GBS"])
    func oneFieldShort(name: String) throws {
        let type = try #require(SentenceType.allDecoded.first { $0.name == name })
        let body = "GP" + name + String(repeating: ",1", count: type.minimumFields - 2)
        let sentence = try NMEASentence(parsing: nmea(body))
        #expect(sentence.fieldCount == type.minimumFields - 1)
        #expect(throws: NMEAError.tooFewFields(type, count: type.minimumFields - 1)) { try NMEAMessage(sentence) }
        var receiver = NMEAReceiver()
        nmeaLine(body).withUnsafeBytes { receiver.consume($0) { _ in } }
        #expect(receiver.counters.malformed == 1)
        #expect(receiver.lastError == .tooFewFields(type, count: type.minimumFields - 1))
    }
}

extension SentenceType {
    /// The decoded types, for the table tests.
    static let allDecoded: [SentenceType] = [.gga, .rmc, .gsa, .gsv, .vtg, .gll, .gns, .zda, .gst, .txt, .gbs]
}
