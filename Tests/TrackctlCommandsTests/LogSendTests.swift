import Foundation
import LogPowerCut
import TestData
import Testing
import TrackCore
import TrackIO
@testable import TrackctlCommands

/// `trackctl log send` and the copy `trackctl pull` keeps: what crosses the wire, the cursor,
/// and the copy reading exactly as the tracker's log.
@Suite struct LogSendTests {
    static let start = MonotonicTime(nanoseconds: 1_000_000_000)

    /// The transfer of `disk`'s log "/log" after `cursor`, and what it sent.
    func send(_ disk: FaultyLogDisk, after cursor: LogCursor) throws -> (bytes: [UInt8], sent: LogSend.Sent, notes: [String]) {
        var reader = try LogReader(directory: "/log", files: disk)
        var bytes: [UInt8] = []
        var notes: [String] = []
        let sent = try LogSend.transfer(&reader, after: cursor, warn: { notes.append($0) }) { (piece) throws(Errno) in
            bytes.append(contentsOf: piece)
        }
        return (bytes, sent, notes)
    }

    /// Sends what is new in `disk` to `copy` and returns the transfer.
    @discardableResult
    func pull(_ disk: FaultyLogDisk, into copy: PullDirectory) throws -> LogTransfer {
        let cursor = try copy.cursor()
        let transfer = try LogTransfer(verifying: try send(disk, after: cursor).bytes)
        try copy.append(transfer, after: cursor)
        return transfer
    }

    func readCopy(_ directory: String) throws -> (records: [LogRecord], problems: [LogProblem]) {
        var reader = try LogReader(directory: directory)
        return (reader.readAll(), reader.problems)
    }

    @Test func sendWhileAWriterAppendsCopiesEveryRecordOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let copy = PullDirectory(path: folder.file("tracker"))
        // Small segments, so the pulls cross rotations.
        let settings = LogWriterSettings(directory: "/log", segmentByteLimit: 600)
        var writer = try LogWriter(settings: settings, files: FaultyLogDisk(), now: Self.start)
        let records = SyntheticLog.walk(1_200)
        var fixesPulled = 0
        for (index, record) in records.enumerated() {
            let now = Self.start.adding(milliseconds: Int64(index) * 1000)
            writer.append(record, now: now)
            if (index + 1) % 5 == 0 { writer.sync(now: now) }
            // A pull every 37 s, between two of the writer's syncs.
            if (index + 1) % 37 == 0 { fixesPulled += try pull(writer.files, into: copy).summary.fixCount }
        }
        writer.close(now: Self.start.adding(milliseconds: 1_300_000))
        fixesPulled += try pull(writer.files, into: copy).summary.fixCount
        let (read, problems) = try readCopy(copy.path)
        #expect(read == records)
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        #expect(fixesPulled == records.count)
        // The copy is the tracker's log byte for byte.
        var disk = writer.files
        var segments = 0
        for number in try LogReader.segmentNumbers(in: "/log", files: &disk) {
            let name = LogSegmentName.name(number)
            #expect(try disk.readAll("/log/" + name) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy.path + "/" + name))))
            segments += 1
        }
        #expect(segments >= 3)
    }

    @Test func aChunkStillBeingWrittenIsLeftForTheNextPull() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let copy = PullDirectory(path: folder.file("tracker"))
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        let records = SyntheticLog.walk(40)
        for (index, record) in records.enumerated() {
            writer.append(record, now: Self.start.adding(milliseconds: Int64(index) * 1000))
            if (index + 1) % 5 == 0 { writer.sync(now: Self.start.adding(milliseconds: Int64(index) * 1000)) }
        }
        // The disk as a reader sees it while the writer's next chunk is half written.
        var torn = writer.files
        let handle = try torn.openForAppend("/log/0000000001.tlog")
        try torn.write([0x12, 0x34, 0x56].span, to: handle)
        let first = try pull(torn, into: copy)
        #expect(first.summary.fixCount == 40)
        #expect(try readCopy(copy.path).problems.isEmpty)
        // The tracker finishes the chunk (here: the writer's own next chunk): only it comes next.
        for (index, record) in SyntheticLog.walk(5, from: 40).enumerated() {
            writer.append(record, now: Self.start.adding(milliseconds: Int64(40 + index) * 1000))
        }
        writer.sync(now: Self.start.adding(milliseconds: 45_000))
        let second = try pull(writer.files, into: copy)
        #expect(second.summary.fixCount == 5)
        #expect(second.segments.count == 1 && second.segments[0].offset == first.cursor.offset)
        #expect(try readCopy(copy.path).records == SyntheticLog.walk(45))
    }

    @Test func nothingAfterTheCursorSendsAnEmptyTransfer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let copy = PullDirectory(path: folder.file("tracker"))
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        for (index, record) in SyntheticLog.walk(20).enumerated() {
            writer.append(record, now: Self.start.adding(milliseconds: Int64(index) * 1000))
        }
        writer.sync(now: Self.start.adding(milliseconds: 20_000))
        let first = try pull(writer.files, into: copy)
        let (bytes, sent, _) = try send(writer.files, after: try copy.cursor())
        let empty = try LogTransfer(verifying: bytes)
        #expect(empty.segments.isEmpty)
        #expect(empty.summary == LogTransferSummary())
        #expect(empty.cursor == first.cursor && sent.cursor == first.cursor)
        #expect(bytes.count < 40, "an empty transfer is the framing only: \(bytes.count) bytes")
        // An empty log sends an empty transfer from the start too.
        var emptyDisk = FaultyLogDisk()
        try emptyDisk.makeDirectory("/log")
        let none = try LogTransfer(verifying: try send(emptyDisk, after: .start).bytes)
        #expect(none.segments.isEmpty && none.cursor == .start)
    }

    @Test(arguments: [
        LogCursor.start,
        LogCursor(segment: 3, offset: 1234, sequence: 77, crc: 0x9F3A_11C2),
        LogCursor(segment: 9_999_999_999, offset: 4, sequence: nil, crc: 0),
        LogCursor(segment: 1, offset: 1 << 20, sequence: UInt32.max, crc: 0xFFFF_FFFF),
    ])
    func cursorTextRoundTrips(cursor: LogCursor) {
        #expect(LogCursor(text: cursor.text) == cursor)
        #expect(LogCursor(text: cursor.text + "\n") == cursor)
    }

    @Test(arguments: ["", "3:1234", "0:10:1:00000000", "3:2:1:00000000", "3:1234:x:9f3a11c2",
                      "3:1234:77:9f3a11c", "3:1234:77:9f3a11c2:1", "start2", "3:99999999999:1:00000000",
                      "+3:1234:77:9f3a11c2", "-3:1234:77:9f3a11c2", "3:1234:-1:9f3a11c2", "3:1234:4294967296:9f3a11c2",
                      "3: 1234:77:9f3a11c2", "3:1234:77:0x3a11c2", "3:1234:77:9f3a11cg", "3::77:9f3a11c2",
                      "1000000000000000000:1234:77:9f3a11c2"])
    func malformedCursorsAreRefused(text: String) {
        #expect(LogCursor(text: text) == nil)
    }

    /// The CRC is read by the project's one hex reader, in either case; the cursor is written
    /// in lower case. Leading zeros are allowed, as everywhere a number is read.
    @Test(arguments: ["3:1234:77:9F3A11C2", "3:1234:77:9f3A11c2", "003:01234:077:9f3a11c2"])
    func cursorsReadAsTheSharedReadersRead(text: String) throws {
        let cursor = try #require(LogCursor(text: text))
        #expect(cursor == LogCursor(segment: 3, offset: 1234, sequence: 77, crc: 0x9F3A_11C2))
        #expect(cursor.text == "3:1234:77:9f3a11c2")
    }

    @Test func aCursorThatNoLongerFitsIsRefused() throws {
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        for (index, record) in SyntheticLog.walk(20).enumerated() {
            writer.append(record, now: Self.start.adding(milliseconds: Int64(index) * 1000))
        }
        writer.sync(now: Self.start.adding(milliseconds: 20_000))
        let cursor = try send(writer.files, after: .start).sent.cursor
        var wrongCRC = cursor
        wrongCRC.crc ^= 1
        #expect(throws: LogSendError.rewritten(cursor: wrongCRC)) { try send(writer.files, after: wrongCRC) }
        var inside = cursor
        inside.offset -= 1
        #expect(throws: LogSendError.rewritten(cursor: inside)) { try send(writer.files, after: inside) }
        var later = cursor
        later.segment = 17
        #expect(throws: LogSendError.reset(newest: 1, cursor: later)) { try send(writer.files, after: later) }
    }

    @Test func everyFlippedByteAndEveryCutIsRefused() throws {
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log", segmentByteLimit: 256), files: FaultyLogDisk(), now: Self.start)
        for (index, record) in SyntheticLog.walk(300).enumerated() {
            writer.append(record, now: Self.start.adding(milliseconds: Int64(index) * 1000))
            if (index + 1) % 5 == 0 { writer.sync(now: Self.start.adding(milliseconds: Int64(index) * 1000)) }
        }
        let bytes = try send(writer.files, after: .start).bytes
        let transfer = try LogTransfer(verifying: bytes)
        #expect(transfer.segments.count >= 2)
        for cut in 0..<bytes.count {
            #expect(throws: LogTransferError.self) { try LogTransfer(verifying: Array(bytes[0..<cut])) }
        }
        var named = 0
        var namedElsewhere = 0
        for position in 0..<bytes.count {
            var flipped = bytes
            flipped[position] ^= 0x10
            do {
                _ = try LogTransfer(verifying: flipped)
                Issue.record("a flip at byte \(position) was accepted")
            } catch {
                if case .chunkCRC(let segment, let offset) = error {
                    named += 1
                    // The named chunk is the one holding the flipped byte, unless the flip hit a
                    // segment's framing (its offset field), which moves every chunk after it.
                    let piece = transfer.segments.first { $0.number == segment }
                    if let piece, offset >= piece.offset, offset < piece.offset + piece.bytes.count { continue }
                    namedElsewhere += 1
                }
            }
        }
        #expect(named > bytes.count * 3 / 4, "most flips land in a chunk and name it: \(named) of \(bytes.count)")
        #expect(namedElsewhere <= 8 * transfer.segments.count, "\(namedElsewhere) flips named another chunk")
    }

    @Test(arguments: [
        ("trackctl log send", true, nil),
        ("trackctl log send --after 3:1234:77:9f3a11c2", true, "3:1234:77:9f3a11c2"),
        ("/usr/bin/trackctl log send --after start", true, "start"),
        ("trackctl log export", false, nil),
        ("trackctl log send --log /etc", false, nil),
        ("trackctl log send --after 1:4:1:00000000 ; rm -rf /", false, nil),
        ("sh -c trackctl", false, nil),
    ] as [(String, Bool, String?)])
    func aRestrictedKeyRunsOnlyLogSend(command: String, allowed: Bool, cursor: String?) {
        switch SSHOriginalCommand.cursor(command) {
        case .success(let text):
            #expect(allowed)
            #expect(text == cursor)
        case .failure:
            #expect(!allowed)
        }
        #expect(SSHOriginalCommand.cursor(nil) == .failure(.none(allowPrune: false)))
    }
}
