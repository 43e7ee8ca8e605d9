import Foundation
import LogPowerCut
import TestData
import Testing
import TrackCore
import TrackIO
@testable import TrackctlCommands

/// `trackctl log prune --through CURSOR` (what `trackctl pull --prune` runs on the tracker):
/// only closed segments a pull verified go, never the open one, nothing on a cursor that does
/// not fit; the writer carries on, and the next pull resumes.
@Suite struct LogPruneTests {
    static let start = MonotonicTime(nanoseconds: 1_000_000_000)

    /// Pulls what is new in `disk` into `copy` (the real send, verify and append).
    @discardableResult
    func pull(_ disk: FaultyLogDisk, into copy: PullDirectory) throws -> LogTransfer {
        let cursor = try copy.cursor()
        var reader = try LogReader(directory: "/log", files: disk)
        var bytes: [UInt8] = []
        _ = try LogSend.transfer(&reader, after: cursor, warn: { _ in }) { (piece) throws(Errno) in
            bytes.append(contentsOf: piece)
        }
        let transfer = try LogTransfer(verifying: bytes)
        try copy.append(transfer, after: cursor)
        return transfer
    }

    func segments(_ disk: FaultyLogDisk) throws -> [UInt64] {
        var files = disk
        return try LogReader.segmentNumbers(in: "/log", files: &files)
    }

    @Test func pullPruneRepeatedWhileTheWriterAppendsLosesNothingAndResumes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let copy = PullDirectory(path: folder.file("tracker"))
        // Small segments and a quota, so prunes and the writer's own deletions meet.
        let settings = LogWriterSettings(directory: "/log", segmentByteLimit: 600, quotaBytes: 3_000)
        var writer = try LogWriter(settings: settings, files: FaultyLogDisk(), now: Self.start)
        let records = SyntheticLog.walk(1_500)
        var pruned = 0
        for (index, record) in records.enumerated() {
            let now = Self.start.adding(milliseconds: Int64(index) * 1000)
            writer.append(record, now: now)
            if (index + 1) % 5 == 0 { writer.sync(now: now) }
            if (index + 1) % 97 == 0 {
                let transfer = try pull(writer.files, into: copy)
                let before = try segments(writer.files)
                let result = try LogPrune.prune(&writer.files, directory: "/log", through: transfer.cursor)
                pruned += result.segments.count
                let after = try segments(writer.files)
                // The newest segment (the writer's) stays, and so does everything past the cursor.
                #expect(after.last == before.last)
                #expect(result.segments.allSatisfy { $0 <= transfer.cursor.segment && $0 != before.last })
                #expect(after == before.filter { !result.segments.contains($0) })
            }
        }
        writer.close(now: Self.start.adding(milliseconds: 1_600_000))
        try pull(writer.files, into: copy)
        var reader = try LogReader(directory: copy.path)
        #expect(reader.readAll() == records, "every record reaches the copy once, in order")
        #expect(pruned >= 3)
        // The writer found the pruned segments gone when its quota reached them: no storage error.
        #expect(writer.status.lastError == nil, "\(String(describing: writer.status.lastError))")
    }

    @Test func aCursorThatDoesNotFitDeletesNothing() throws {
        let settings = LogWriterSettings(directory: "/log", segmentByteLimit: 600)
        var writer = try LogWriter(settings: settings, files: FaultyLogDisk(), now: Self.start)
        for (index, record) in SyntheticLog.walk(1_500).enumerated() {
            let now = Self.start.adding(milliseconds: Int64(index) * 1000)
            writer.append(record, now: now)
            if (index + 1) % 5 == 0 { writer.sync(now: now) }
        }
        writer.close(now: Self.start.adding(milliseconds: 1_600_000))
        let numbers = try segments(writer.files)
        try #require(numbers.count > 3)
        let cases: [(LogCursor, String)] = [
            (LogCursor(segment: numbers[2], offset: 40, sequence: 3, crc: 0x1234_5678), "rewritten"),
            (LogCursor(segment: numbers.last! + 5, offset: 40, sequence: 3, crc: 0x1234_5678), "reset"),
        ]
        for (cursor, word) in cases {
            var files = writer.files
            #expect(throws: LogPruneError.self) { try LogPrune.prune(&files, directory: "/log", through: cursor) }
            do {
                _ = try LogPrune.prune(&files, directory: "/log", through: cursor)
            } catch {
                #expect(error.isMismatch)
                #expect(error.description.contains(word), "\(error.description)")
            }
            #expect(try segments(files) == numbers, "nothing deleted for a \(word) cursor")
        }
        // A cursor whose segment is gone while older ones remain is not this log's either.
        var files = writer.files
        try files.remove("/log/" + LogSegmentName.name(numbers[2]))
        let missing = LogCursor(segment: numbers[2], offset: 40, sequence: 3, crc: 0)
        #expect(throws: LogPruneError.self) { try LogPrune.prune(&files, directory: "/log", through: missing) }
        // The start deletes nothing and is no error.
        var untouched = writer.files
        #expect(try LogPrune.prune(&untouched, directory: "/log", through: .start).segments.isEmpty)
    }

    @Test func theLastSegmentStaysEvenWhenWhollyPulled() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let copy = PullDirectory(path: folder.file("tracker"))
        let settings = LogWriterSettings(directory: "/log", segmentByteLimit: 600)
        var writer = try LogWriter(settings: settings, files: FaultyLogDisk(), now: Self.start)
        for (index, record) in SyntheticLog.walk(1_500).enumerated() {
            let now = Self.start.adding(milliseconds: Int64(index) * 1000)
            writer.append(record, now: now)
            if (index + 1) % 5 == 0 { writer.sync(now: now) }
        }
        writer.close(now: Self.start.adding(milliseconds: 1_600_000))
        let transfer = try pull(writer.files, into: copy)
        let numbers = try segments(writer.files)
        let result = try LogPrune.prune(&writer.files, directory: "/log", through: transfer.cursor)
        #expect(result.segments == Array(numbers.dropLast()))
        #expect(try segments(writer.files) == [numbers.last!])
        // Pruning again through the same cursor: nothing more, no error.
        #expect(try LogPrune.prune(&writer.files, directory: "/log", through: transfer.cursor).segments.isEmpty)
        #expect(try pull(writer.files, into: copy).summary.recordCount == 0)
    }

    @Test(arguments: [
        ("trackctl log send", true, true),
        ("trackctl log prune --through 3:1234:77:9f3a11c2", true, true),
        ("/usr/bin/trackctl log prune --through 3:1234:-:9f3a11c2", true, true),
        ("trackctl log prune --through 3:1234:77:9f3a11c2", false, false),
        ("trackctl log prune --through start", true, false),
        ("trackctl log prune --through 3:1234", true, false),
        ("trackctl log prune", true, false),
        ("trackctl log prune --through 3:1234:77:9f3a11c2 --log /etc", true, false),
        ("trackctl log prune --log /etc --through 3:1234:77:9f3a11c2", true, false),
        ("trackctl log prune --through 3:1234:77:9f3a11c2;rm", true, false),
        ("trackctl log prune --through 3:1234:77:9f3a11c2 ; rm -rf /", true, false),
        ("trackctl log prune --all", true, false),
        ("rm -rf /var/lib/trackd/log", true, false),
    ] as [(String, Bool, Bool)])
    func aRestrictedKeyPrunesOnlyWhenAllowedAndOnlyThroughACursor(command: String, allowPrune: Bool, allowed: Bool) {
        switch SSHOriginalCommand.request(command, allowPrune: allowPrune) {
        case .success(let request):
            #expect(allowed, "\(command) was accepted as \(request)")
        case .failure(let refusal):
            #expect(!allowed, "\(command) was refused: \(refusal.description)")
            #expect(refusal.description.contains("may only run"))
            #expect(refusal.description.contains("`trackctl log prune") == allowPrune)
        }
    }
}
