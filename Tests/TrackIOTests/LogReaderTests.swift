import Foundation
import TestData
import Testing
import TrackCore
@testable import TrackIO

@Suite struct LogReaderTests {
    /// Writes each segment as a file named for its number, plus a stray file the reader ignores.
    func directory(_ segments: [(UInt64, [UInt8])]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (number, bytes) in segments {
            _ = FileManager.default.createFile(atPath: folder.file(LogSegmentName.name(number)), contents: Data(bytes))
        }
        _ = FileManager.default.createFile(atPath: folder.file("notes.txt"), contents: Data("x".utf8))
        return folder
    }

    @Test func readsSegmentsInNumberOrderWithSummaries() throws {
        let first = SyntheticLog.walk(40)
        let second = SyntheticLog.walk(25, from: 40)
        let a = LogTestRecords.segment(first, sequence: 0)
        let b = LogTestRecords.segment(second, sequence: UInt32(a.chunkOffsets.count))
        // Written out of order on purpose: the reader sorts by number, not by listing order.
        let folder = try directory([(12, b.bytes), (3, a.bytes)])
        defer { folder.remove() }
        var reader = try LogReader(directory: folder.path)
        #expect(reader.segmentNumbers == [3, 12])
        #expect(reader.readAll() == first + second)
        #expect(reader.problems.isEmpty)
        #expect(reader.segments.map(\.name) == ["0000000003.tlog", "0000000012.tlog"])
        #expect(reader.segments.map(\.recordCount) == [40, 25])
        #expect(reader.segments[0].firstTime == first.first?.time)
        #expect(reader.segments[1].lastTime == second.last?.time)
        #expect(reader.segments[0].byteCount == a.bytes.count)
        #expect(reader.segments.map(\.status) == ["ok", "ok"])
    }

    @Test(arguments: [(nil, nil, 0..<30), (5, nil, 5..<30), (nil, 12, 0..<12), (10, 20, 10..<20), (40, nil, 0..<0)])
    func sinceAndUntilSelectRecords(since: Int64?, until: Int64?, expected: Range<Int>) throws {
        let records = SyntheticLog.walk(30)
        let folder = try directory([(1, LogTestRecords.segment(records).bytes)])
        defer { folder.remove() }
        func time(_ second: Int64?) -> UTCTime? {
            second.map { UTCTime(millisecondsSinceEpoch: LogTestRecords.t0 + $0 * 1000) }
        }
        var reader = try LogReader(directory: folder.path, since: time(since), until: time(until))
        #expect(reader.readAll() == Array(records[expected]))
    }

    /// A boot marker and what follows it before the next fix are on the system clock (a board
    /// without a real-time clock may be days off): counted, and kept out of first and last.
    @Test func recordsOnTheSystemClockStayOutOfTheSegmentsTimes() throws {
        let walk = SyntheticLog.walk(10)
        let day: Int64 = 86_400_000
        let fixTime = try #require(walk.first?.time).millisecondsSinceEpoch
        // The system clock a day behind at boot (the time saved at the last shutdown), then the
        // receiver's; a second boot in the same segment, its clock right this time.
        let records: [LogRecord] = [
            .bootMarker(time: UTCTime(millisecondsSinceEpoch: fixTime - day), bootID: 1),
            .permissionChange(time: UTCTime(millisecondsSinceEpoch: fixTime - day + 5), old: .notDetermined, new: .always),
        ] + walk[0..<5] + [
            .bootMarker(time: UTCTime(millisecondsSinceEpoch: fixTime + 3 * day), bootID: 2),
        ] + walk[5...]
        let folder = try directory([(1, LogTestRecords.segment(records).bytes)])
        defer { folder.remove() }
        var reader = try LogReader(directory: folder.path)
        _ = reader.readAll()
        let segment = try #require(reader.segments.first)
        #expect(segment.recordCount == 13)
        #expect(segment.systemClockRecords == 3)
        #expect(segment.firstTime == walk.first?.time)
        #expect(segment.lastTime == walk.last?.time)
    }

    @Test func tornTailLosesOnlyTheLastChunk() throws {
        let records = SyntheticLog.walk(20)
        let segment = LogTestRecords.segment(records)
        let cut = segment.chunkOffsets[3] + 2
        let folder = try directory([(1, Array(segment.bytes[..<cut]))])
        defer { folder.remove() }
        var reader = try LogReader(directory: folder.path)
        #expect(reader.readAll() == Array(records[..<15]))
        #expect(reader.problems == [LogProblem(segment: "0000000001.tlog", offset: segment.chunkOffsets[3],
                                               skippedByteCount: 2, kind: .tornTail)])
        #expect(reader.segments[0].status == "torn tail")
    }

    @Test func damagedChunkCostsItsKeyframeIntervalAndIsReported() throws {
        // Keyframes every 10 s: chunks of 5 records, so a keyframe every other chunk.
        let records = SyntheticLog.walk(40)
        var segment = LogTestRecords.segment(records, keyframeSeconds: 10)
        let hit = segment.chunkOffsets[2] + 3
        segment.bytes[hit] ^= 0x40
        let folder = try directory([(1, segment.bytes)])
        defer { folder.remove() }
        var reader = try LogReader(directory: folder.path)
        let read = reader.readAll()
        #expect(read == Array(records[..<10] + records[20...]))
        #expect(reader.problems.count == 2)
        #expect(reader.problems.first?.offset == segment.chunkOffsets[2])
        #expect(reader.problems.first?.skippedByteCount == segment.chunkOffsets[4] - segment.chunkOffsets[2])
        #expect(reader.problems.last?.kind == .missingChunks(count: 2))
        #expect(reader.segments[0].status == "damaged")
    }

    @Test func chunkWrittenAgainAfterFailedSyncIsReadOnce() throws {
        let records = SyntheticLog.walk(15)
        // Segment 1 holds chunks 0…2; the writer's sync of chunk 2 failed, so it wrote chunk 2
        // again as the keyframe of segment 2, followed by chunk 3.
        let a = LogTestRecords.segment(Array(records[..<15]), sequence: 0)
        let b = LogTestRecords.segment(Array(records[10...]) + SyntheticLog.walk(5, from: 15), sequence: 2)
        let folder = try directory([(1, a.bytes), (2, b.bytes)])
        defer { folder.remove() }
        var reader = try LogReader(directory: folder.path)
        #expect(reader.readAll() == SyntheticLog.walk(20))
        #expect(reader.problems.map(\.kind) == [.duplicateChunks(sequence: 2)])
        #expect(reader.problems.allSatisfy { !$0.losesRecords })
    }

    @Test func missingDirectoryIsATypedError() {
        #expect(throws: LogStoreError.directoryUnreadable(path: "/nonexistent/log", .noSuchFile)) {
            _ = try LogReader(directory: "/nonexistent/log")
        }
    }

    @Test(arguments: [("0000000042.tlog", UInt64(42)), ("42.tlog", nil), ("00000000x2.tlog", nil),
                      ("0000000042.tlo", nil), ("0000000042.tlog.tmp", nil), ("+000000042.tlog", nil),
                      ("-000000042.tlog", nil), ("00000004.2.tlog", nil), (" 000000042.tlog", nil),
                      ("9999999999.tlog", LogSegmentName.maximumNumber), ("0000000000.tlog", 0)])
    func segmentNames(name: String, number: UInt64?) {
        #expect(LogSegmentName.number(name) == number)
        if let number { #expect(LogSegmentName.name(number) == name) }
    }
}

@Suite struct LogSegmentPathTests {
    /// The writer's in-place segment path is the reader's `directory/name`, for a directory
    /// given with and without its trailing slash (no doubled slash), for the first, a middle
    /// and the last segment number, and again after a first use (the storage is reused).
    @Test(arguments: [false, true])
    func writerBuildsTheSamePathInPlace(trailingSlash: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        let settings = LogWriterSettings(directory: directory + (trailingSlash ? "/" : ""))
        var writer = try LogWriter(settings: settings, files: PosixLogFiles(), now: MonotonicTime(nanoseconds: 0))
        for number: UInt64 in [1, 42, 9_999_999_999, 7] {
            #expect(writer.segmentPath(number) == writer.path(number))
        }
        #expect(writer.segmentPath(7) == directory + "/0000000007.tlog")
    }
}
