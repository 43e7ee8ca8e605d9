import Foundation
import Testing
import TrackCore

/// True when scripts/gen-config-docs runs the tests to rewrite the generated files.
let writingConfigDocs = ProcessInfo.processInfo.environment["TRACKD_WRITE_CONFIG_DOCS"] == "1"

/// docs/config.md and board/trackd.conf.example against the parser's table. With
/// TRACKD_WRITE_CONFIG_DOCS=1 (scripts/gen-config-docs) only `regenerate` runs and rewrites them.
@Suite("Config docs", .enabled(if: !writingConfigDocs))
struct ConfigDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let docPath = root.appendingPathComponent("docs/config.md").path
    static let examplePath = root.appendingPathComponent("board/trackd.conf.example").path

    static var tableKeys: Set<String> {
        Set(TrackdConfig.sections.flatMap { section in section.keys.map { "\(section.name).\($0.name)" } })
    }

    @Test("docs/config.md documents exactly the keys the parser knows")
    func documentedKeysMatchTable() throws {
        let doc = try String(contentsOfFile: Self.docPath, encoding: .utf8)
        let headings = doc.split(separator: "\n").filter { $0.hasPrefix("### ") }.map { String($0.dropFirst(4)) }
        let documented = Set(headings)
        #expect(headings.count == documented.count, "a key is documented twice")
        for key in documented.subtracting(Self.tableKeys).sorted() {
            Issue.record("docs/config.md documents \(key), which the parser does not know")
        }
        for key in Self.tableKeys.subtracting(documented).sorted() {
            Issue.record("docs/config.md does not document \(key)")
        }
    }

    @Test("docs/config.md's key reference is what the table generates (scripts/gen-config-docs)")
    func referenceIsCurrent() throws {
        let doc = try String(contentsOfFile: Self.docPath, encoding: .utf8)
        let begin = try #require(doc.range(of: ConfigReference.beginMarker))
        let end = try #require(doc.range(of: ConfigReference.endMarker + "\n"))
        #expect(String(doc[begin.lowerBound..<end.upperBound]) == ConfigReference.markdown(),
                "docs/config.md is out of date: run scripts/gen-config-docs")
    }

    @Test("board/trackd.conf.example is what the table generates (scripts/gen-config-docs)")
    func exampleIsCurrent() throws {
        let example = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        #expect(example == ConfigReference.exampleFile(),
                "board/trackd.conf.example is out of date: run scripts/gen-config-docs")
    }

    @Test("the syntax example in docs/config.md parses")
    func syntaxExampleParses() throws {
        let doc = try String(contentsOfFile: Self.docPath, encoding: .utf8)
        let start = try #require(doc.range(of: "```ini\n"))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        let config = try TrackdConfig.parse(String(doc[start.upperBound..<end.lowerBound]), file: "config.md")
        #expect(config.receiver.baud == .fixed(bitsPerSecond: 9600))
        #expect(config.filter.maxAccuracyMillimetres == 30_000)
    }

    @Test("the example file, as shipped, gives the defaults")
    func exampleParses() throws {
        let example = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        #expect(try TrackdConfig.parse(example, file: "trackd.conf.example") == TrackdConfig())
    }

    @Test("the example file with every key uncommented parses, keeps the defaults, names every key")
    func exampleUncommented() throws {
        let example = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        var section = ""
        var keys: [String] = []
        var lines: [String] = []
        for line in example.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()) }
            if line.hasPrefix("#"), let first = line.dropFirst().first, first.isLowercase {
                lines.append(String(line.dropFirst()))
                keys.append(section + "." + (line.dropFirst().split(separator: " ").first.map(String.init) ?? ""))
            } else {
                lines.append(String(line))
            }
        }
        #expect(keys.count == Set(keys).count)
        #expect(Set(keys) == Self.tableKeys)
        let config = try TrackdConfig.parse(lines.joined(separator: "\n"), file: "trackd.conf.example")
        let defaults = TrackdConfig()
        // Setting the device to its default still counts as set (it then wins over a board file).
        var receiver = config.receiver
        #expect(receiver.deviceIsSet)
        receiver.deviceIsSet = false
        #expect(receiver == defaults.receiver)
        #expect(config.filter == defaults.filter)
        #expect(config.sampling.profile == defaults.sampling.profile)
        #expect(config.log == defaults.log)
        #expect(config.control == defaults.control)
        #expect(config.state == defaults.state)
        // The board's line overrides have no default; their examples are set.
        var board = config.board
        board.overrides = BoardMap()
        #expect(board == defaults.board)
        #expect(config.privacy == defaults.privacy)
        // Every [leds] slot uncommented is the default table.
        #expect(config.leds == defaults.leds)
    }
}

/// What scripts/gen-config-docs runs: rewrites the generated part of docs/config.md and
/// board/trackd.conf.example from the table.
@Suite("Config docs: regenerate", .enabled(if: writingConfigDocs))
struct ConfigDocRegeneration {
    @Test func regenerate() throws {
        var doc = try String(contentsOfFile: ConfigDocTests.docPath, encoding: .utf8)
        let begin = try #require(doc.range(of: ConfigReference.beginMarker))
        let end = try #require(doc.range(of: ConfigReference.endMarker + "\n"))
        doc.replaceSubrange(begin.lowerBound..<end.upperBound, with: ConfigReference.markdown())
        try doc.write(toFile: ConfigDocTests.docPath, atomically: true, encoding: .utf8)
        try ConfigReference.exampleFile().write(toFile: ConfigDocTests.examplePath, atomically: true, encoding: .utf8)
    }
}
