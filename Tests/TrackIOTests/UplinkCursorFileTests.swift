import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackIO

private let cursorA = UplinkCursor(chunk: LogCursor(segment: 4, offset: 100, sequence: 80, crc: 0x0102_0304), records: 2)
private let untilA = LogCursor(segment: 3, offset: 9_000, sequence: 79, crc: 0xAABB_CCDD)

private func progress() -> UplinkProgress {
    var progress = UplinkProgress(live: UplinkCursor(chunk: LogCursor(segment: 3, offset: 1_234, sequence: 77, crc: 0x9F3A_11C2), records: 2))
    progress.moveToBacklog(until: untilA)
    progress.acknowledgeLive(cursorA, recordTime: UTCTime(millisecondsSinceEpoch: 1_750_507_289_000))
    return progress
}

@Suite struct UplinkCursorFileTests {
    @Test func savesAndLoads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var file = UplinkCursorFile(path: folder.file("uplink.cursors"))
        #expect(try file.load() == [], "no file yet: a first start")
        let targets = [
            UplinkSavedTarget(name: "home-mqtt", progress: progress()),
            UplinkSavedTarget(name: "traccar", progress: UplinkProgress()),
        ]
        try file.save(targets.span)
        #expect(try file.load() == targets)
        let text = try String(contentsOfFile: folder.file("uplink.cursors"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[1] == "home-mqtt live=4:100:80:01020304+2 backlog=3:1234:77:9f3a11c2+2/3:9000:79:aabbccdd acked=1750507289000")
        #expect(lines[2] == "traccar live=start")
        #expect(lines[3].hasPrefix("crc32c="))
        #expect(!FileManager.default.fileExists(atPath: folder.file("uplink.cursors.tmp")))
    }

    /// A bad file is an error naming it, never a silent restart from the beginning.
    @Test(arguments: [
        ("flipped", "home live=start\ncrc32c=00000000\n", "bad CRC"),
        ("cut", "home live=start\ncrc32", "not a whole cursor file"),
        ("empty", "", "not a whole cursor file"),
    ])
    func refusesABadFile(_ name: String, _ content: String, _ words: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try content.write(toFile: folder.file("c"), atomically: false, encoding: .utf8)
        var file = UplinkCursorFile(path: folder.file("c"))
        do {
            _ = try file.load()
            Issue.record("\(name) loaded")
        } catch {
            #expect(error.message.contains(words), "\(name): \(error.message)")
        }
    }

    /// A line that is not a target's, with a good CRC (hand-edited), names its line.
    @Test(arguments: ["home", "home live=nonsense", "home live=start backlog=start", "bad/name live=start",
                      "home live=start\nhome live=start", "home live=start colour=red"])
    func refusesAMalformedLine(_ lines: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let body = Array(("# made by hand\n" + lines + "\n").utf8)
        let crc = CRC32C.checksum(of: body.span, 0..<body.count)
        let hex = String(crc, radix: 16)
        let content = body + Array(("crc32c=" + String(repeating: "0", count: 8 - hex.count) + hex + "\n").utf8)
        try Data(content).write(to: URL(fileURLWithPath: folder.file("c")))
        var file = UplinkCursorFile(path: folder.file("c"))
        #expect(throws: UplinkCursorFileError.self) { try file.load() }
        do { _ = try file.load() } catch { #expect(error.message.contains(": line ")) }
    }

    /// A save that fails leaves the old file whole.
    @Test func aFailedSaveKeepsTheOldFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var file = UplinkCursorFile(path: folder.file("uplink.cursors"))
        let first = [UplinkSavedTarget(name: "a", progress: progress())]
        try file.save(first.span)
        // The temporary file's name is taken by a directory: creating it fails.
        try FileManager.default.createDirectory(atPath: folder.file("uplink.cursors.tmp"), withIntermediateDirectories: false)
        let second = [UplinkSavedTarget(name: "a", progress: UplinkProgress())]
        #expect(throws: UplinkCursorFileError.self) { try file.save(second.span) }
        #expect(try file.load() == first)
    }

    @Test func names() {
        #expect(UplinkSavedTarget.isValidName("home-mqtt_2.a"))
        #expect(!UplinkSavedTarget.isValidName("") && !UplinkSavedTarget.isValidName("a b") && !UplinkSavedTarget.isValidName("a/b"))
        #expect(!UplinkSavedTarget.isValidName(String(repeating: "a", count: 65)))
    }
}

@Suite struct UplinkProgressTests {
    @Test func backlogRangesDrainOldestFirst() {
        var progress = UplinkProgress()
        let ends = (1...5).map { LogCursor(segment: UInt64($0), offset: 100, sequence: UInt32($0), crc: UInt32($0)) }
        let kept = progress.moveToBacklog(until: ends[0])
        #expect(kept)
        progress.acknowledgeLive(UplinkCursor(chunk: ends[0], records: 3), recordTime: UTCTime(millisecondsSinceEpoch: 10))
        let keptAgain = progress.moveToBacklog(until: ends[1])
        #expect(keptAgain)
        #expect(progress.backlogCount == 2)
        #expect(progress.backlog == UplinkBacklogRange(from: .start, until: ends[0]))
        #expect(progress.backlogRange(1) == UplinkBacklogRange(from: UplinkCursor(chunk: ends[0], records: 3), until: ends[1]))
        #expect(progress.live == UplinkCursor(chunk: ends[1]))
        progress.acknowledgeBacklog(UplinkCursor(chunk: .start, records: 9), recordTime: UTCTime(millisecondsSinceEpoch: 5))
        #expect(progress.lastAcknowledgedTime == UTCTime(millisecondsSinceEpoch: 10), "the newest acknowledged stays")
        progress.finishBacklog()
        #expect(progress.backlogCount == 1 && progress.backlog?.until == ends[1])
        // Nothing waiting: nothing moves.
        let nothing = progress.moveToBacklog(until: ends[1])
        #expect(nothing && progress.backlogCount == 1)
    }

    /// A fifth outage while four ranges drain joins the newest range (its live records go again).
    @Test func aFifthRangeJoinsTheNewest() {
        var progress = UplinkProgress()
        for number in 1...4 {
            progress.acknowledgeLive(UplinkCursor(chunk: LogCursor(segment: UInt64(number), offset: 50, sequence: nil, crc: 0), records: 1),
                                     recordTime: UTCTime(millisecondsSinceEpoch: Int64(number)))
            let kept = progress.moveToBacklog(until: LogCursor(segment: UInt64(number), offset: 90, sequence: nil, crc: 0))
            #expect(kept)
        }
        let fifth = LogCursor(segment: 9, offset: 90, sequence: nil, crc: 0)
        let kept = progress.moveToBacklog(until: fifth)
        #expect(!kept)
        #expect(progress.backlogCount == 4)
        #expect(progress.backlogRange(3).until == fifth)
        #expect(progress.backlogRange(3).from.chunk.segment == 4)
    }
}
