import Foundation
import Testing
import TrackCore

/// The NMEA golden fixtures: `Fixtures/nmea/NAME.nmea` (receiver bytes after a `#` header saying
/// where they came from) beside `NAME.expected` (what `trackctl decode` prints: each epoch's
/// TPV and SKYs as trackd's gpsd clients get them, one object a line, then the counters line).
/// `scripts/regen-goldens` writes the expected files with `trackctl decode`.
enum GoldenFixtures {
    /// The fixture folder inside the test bundle.
    static var directory: URL? {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)?.appendingPathComponent("nmea")
    }

    /// Fixture names without extension, sorted; empty if the folder is missing (a test says so).
    static func names() -> [String] {
        guard let directory,
              let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return files.filter { $0.hasSuffix(".nmea") }.map { String($0.dropLast(".nmea".count)) }.sorted()
    }

    /// The bytes of `file` in the fixture folder.
    static func load(_ file: String) throws -> [UInt8] {
        let directory = try #require(directory, "no Fixtures/nmea in the test bundle")
        return Array(try Data(contentsOf: directory.appendingPathComponent(file)))
    }

    /// Drops every line that starts with `#`, its line end included (what `sed '/^#/d'` does
    /// in scripts/regen-goldens); all other bytes pass unchanged.
    static func stripComments(_ bytes: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var atLineStart = true
        var skipping = false
        for byte in bytes {
            if atLineStart { skipping = byte == UInt8(ascii: "#") }
            if !skipping { kept.append(byte) }
            atLineStart = byte == UInt8(ascii: "\n")
        }
        return kept
    }

    /// What `trackctl decode` prints for `bytes` read `chunk` bytes at a time: each epoch's TPV
    /// and SKYs (device `-`, standard input), then the counters; line ends without their CR.
    static func replay(_ bytes: [UInt8], chunk: Int = 4096) -> [String] {
        var receiver = NMEAReceiver()
        var lines: [String] = []
        let device = GpsdDevicePath("-")
        func emit(_ fix: borrowing Fix, _ sky: borrowing SkyView) {
            var buffer = TextBuffer()
            GpsdJSON.writeTPV(fix, device: device, to: &buffer)
            lines += objects(buffer.string)
            lines += objects(writtenSKYs(fix, sky: sky, device: device))
        }
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = min(start + chunk, raw.count)
                let piece = UnsafeRawBufferPointer(rebasing: raw[start..<end])
                var offset = 0
                while let fix = receiver.next(piece, from: &offset) { emit(fix, receiver.assembler.sky) }
                start = end
            }
        }
        if let fix = receiver.finish() { emit(fix, receiver.assembler.sky) }
        return lines + [line(receiver.counters)]
    }

    /// The objects of gpsd's output, each without its CR LF.
    static func objects(_ text: String) -> [String] {
        text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    /// The lines of an expected file (its last line ends with a newline, like every other).
    static func lines(_ bytes: [UInt8]) -> [String] {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A readable account of the first difference, or nil when the two agree.
    static func difference(expected: [String], actual: [String]) -> String? {
        guard expected != actual else { return nil }
        for index in 0..<max(expected.count, actual.count) {
            let want = index < expected.count ? expected[index] : "(no line)"
            let got = index < actual.count ? actual[index] : "(no line)"
            if want != got {
                return "line \(index + 1) of \(expected.count) expected, \(actual.count) produced:\n"
                    + "  expected: \(want)\n  actual:   \(got)"
            }
        }
        return nil
    }
}

/// Fixtures whose expected file holds the right answer while the code does not yet give it.
/// Each entry names the bug; remove it when the fix lands (the test then says the issue is gone).
/// Until then scripts/regen-goldens writes today's wrong line back: keep the corrected one.
private let knownGoldenIssues: [String: String] = [:]

@Suite("Golden replays")
struct GoldenReplayTests {
    @Test("every fixture replays to its expected file", arguments: GoldenFixtures.names())
    func replay(_ name: String) throws {
        let input = GoldenFixtures.stripComments(try GoldenFixtures.load(name + ".nmea"))
        let expected = GoldenFixtures.lines(try GoldenFixtures.load(name + ".expected"))
        let actual = GoldenFixtures.replay(input)
        let check = {
            let difference = GoldenFixtures.difference(expected: expected, actual: actual)
            #expect(difference == nil, "\(name): \(difference ?? "")")
        }
        if let issue = knownGoldenIssues[name] {
            withKnownIssue(Comment(rawValue: issue)) { check() }
        } else {
            check()
        }
        // The framer is a byte-at-a-time state machine: how reads split the stream must not matter.
        #expect(GoldenFixtures.replay(input, chunk: 1) == actual)
        #expect(GoldenFixtures.replay(input, chunk: 13) == actual)
    }

    @Test("the fixtures are there, each with provenance and an expected file")
    func fixturesArePresent() throws {
        let names = GoldenFixtures.names()
        #expect(names.count >= 4)
        for name in names {
            let fixture = try GoldenFixtures.load(name + ".nmea")
            #expect(fixture.first == UInt8(ascii: "#"), "\(name).nmea starts with its # header")
            let expected = GoldenFixtures.lines(try GoldenFixtures.load(name + ".expected"))
            #expect(expected.last?.hasPrefix("accepted=") == true, "\(name).expected ends with the counters")
        }
        for name in knownGoldenIssues.keys {
            #expect(names.contains(name), "known issue for a fixture that does not exist: \(name)")
        }
    }

    @Test("comment lines are removed with their line ends, other bytes kept", arguments: [
        ("# header\n$A*41\r\n", "$A*41\r\n"),
        ("# one\r\n# two\n\n$A*41\r\n#tail", "\n$A*41\r\n"),
        ("$A*41 # not a comment\n", "$A*41 # not a comment\n"),
        ("no line end", "no line end"),
    ])
    func stripComments(_ input: String, _ output: String) {
        #expect(GoldenFixtures.stripComments(Array(input.utf8)) == Array(output.utf8))
    }
}
