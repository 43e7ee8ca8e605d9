import LogPowerCut
import TestData
import Testing
import TrackCore
import TrackIO

@Suite struct LogWriterTests {
    static let start = MonotonicTime(nanoseconds: 1_000_000_000)

    /// Appends `records` at 1 Hz of loop time, syncing every 5.
    func replay(_ records: [LogRecord], into writer: inout LogWriter<FaultyLogDisk>, from second: Int = 0) {
        for (index, record) in records.enumerated() {
            let now = Self.start.adding(milliseconds: Int64(second + index) * 1000)
            writer.append(record, now: now)
            if (index + 1) % 5 == 0 { writer.sync(now: now) }
        }
    }

    func read(_ disk: FaultyLogDisk) throws -> (records: [LogRecord], reader: LogReader<FaultyLogDisk>) {
        var reader = try LogReader(directory: "/log", files: disk)
        return (reader.readAll(), reader)
    }

    @Test(arguments: [(512, Int64(86_400_000)), (1 << 20, Int64(60_000))])
    func rotatesBySizeAndAgeAndEverySegmentStartsWithAKeyframe(limit: Int, age: Int64) throws {
        let settings = LogWriterSettings(directory: "/log", segmentByteLimit: limit, segmentAgeLimitMilliseconds: age)
        var writer = try LogWriter(settings: settings, files: FaultyLogDisk(), now: Self.start)
        // Enough records for three 1 KiB segments even at the codec's best density.
        let records = SyntheticLog.walk(1_500)
        replay(records, into: &writer)
        writer.close(now: Self.start.adding(milliseconds: 1_500_000))
        let (read, reader) = try read(writer.files)
        #expect(read == records)
        #expect(reader.problems.isEmpty)
        #expect(reader.segments.count >= 3)
        for segment in reader.segments {
            let bytes = try writer.files.readAll("/log/" + segment.name)
            #expect(bytes.first == 0x89, "\(segment.name) starts with a keyframe")
        }
        // Sequence numbers run on across segments.
        for (earlier, later) in zip(reader.segments, reader.segments.dropFirst()) {
            #expect(later.firstSequence == earlier.lastSequence.map { $0 &+ 1 })
        }
        #expect(writer.status.durableRecordCount == records.count)
        #expect(writer.status.segmentCount == reader.segments.count)
    }

    @Test func quotaDeletesOldestSegmentsFirst() throws {
        let settings = LogWriterSettings(directory: "/log", segmentByteLimit: 1_024, quotaBytes: 4_096)
        var writer = try LogWriter(settings: settings, files: FaultyLogDisk(), now: Self.start)
        let records = SyntheticLog.walk(2_000)
        replay(records, into: &writer)
        writer.close(now: Self.start.adding(milliseconds: 2_000_000))
        let (read, reader) = try read(writer.files)
        #expect(writer.status.deletedSegmentCount > 0)
        #expect(writer.status.byteCount <= 4_096 + 1_024)
        #expect(reader.segmentNumbers.first ?? 0 > 1)
        // What is left is the newest records, complete.
        #expect(read == Array(records.suffix(read.count)))
        #expect(reader.problems.isEmpty)
    }

    @Test(arguments: [Errno.ioError, Errno.noSpace])
    func failedSyncStartsANewSegmentRaisesTheFlagAndLosesNothing(errno: Errno) throws {
        var disk = FaultyLogDisk()
        // Steps: 1 open, 2 directory fsync, 3 write, 4 fdatasync, 5 write, 6 fdatasync ...
        disk.failures = [6: errno]
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: disk, now: Self.start)
        replay(Array(SyntheticLog.walk(10)), into: &writer)
        // A card that failed once stays suspect; a full disk that had room again a moment later
        // (the records went to a new segment) is not a storage error any more.
        #expect(writer.status.storageError == (errno != .noSpace))
        #expect(writer.status.lastError?.description.contains("/log/0000000001.tlog: fdatasync failed") == true)
        #expect(writer.status.currentSegment == 2)
        replay(SyntheticLog.walk(5, from: 10), into: &writer, from: 10)
        #expect(writer.status.storageError == (errno != .noSpace), "an I/O error's flag stays raised after the records were saved elsewhere")
        #expect(writer.status.blocked == nil)
        #expect(writer.status.droppedRecordCount == 0)
        #expect(writer.status.storageErrorCount == 1)
        let (read, reader) = try read(writer.files.afterPowerCut())
        #expect(read == SyntheticLog.walk(15))
        #expect(reader.problems.allSatisfy { !$0.losesRecords })
    }

    /// Another program fills the partition (or ext4 goes read-only) far below the quota: nothing
    /// synced is deleted, what cannot be written is counted, and once there is room (or the file
    /// system is writable again) logging resumes by itself behind a gap record.
    @Test(arguments: [Errno.noSpace, Errno.readOnlyFileSystem])
    func fullOrReadOnlyFileSystemKeepsEverySyncedRecordAndResumes(errno: Errno) throws {
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        let records = SyntheticLog.walk(60)
        replay(Array(records[0..<20]), into: &writer)
        #expect(writer.status.durableRecordCount == 20)
        writer.files.persistentFailure = errno
        if errno == .noSpace { writer.files.availableByteCount = 4_096 }
        replay(Array(records[20..<40]), into: &writer, from: 20)
        let expected: LogBlockedReason = errno == .noSpace ? .noSpace : .readOnly
        #expect(writer.status.blocked == expected)
        #expect(writer.status.storageError)
        #expect(!writer.status.flashSuspect)
        #expect(writer.status.droppedFixCount == 20)
        #expect(writer.status.deletedSegmentCount == 0)
        #expect(writer.status.storageErrorCount == 1, "one outage is one error, not one per retry")
        #expect(writer.files.removedCount == 0 || errno == .noSpace, "nothing synced removed")
        let (during, _) = try read(writer.files)
        #expect(during == Array(records[0..<20]), "every synced record is still there")

        writer.files.persistentFailure = nil
        writer.files.availableByteCount = 1 << 30
        replay(Array(records[40..<60]), into: &writer, from: 40)
        #expect(writer.status.blocked == nil)
        #expect(!writer.status.storageError)
        writer.close(now: Self.start.adding(milliseconds: 61_000))
        let (after, reader) = try read(writer.files)
        #expect(reader.problems.allSatisfy { !$0.losesRecords }, "\(reader.problems.map(\.description))")
        #expect(Array(after.prefix(20)) == Array(records[0..<20]))
        #expect(Array(after.suffix(20)) == Array(records[40..<60]))
        // The hole is in the log itself: a gap from the last fix written to the first after.
        guard after.count == 41, case .gap(let from, let to) = after[20],
              case .fix(let last) = records[19], case .fix(let next) = records[40] else {
            Issue.record("no gap record between the outage's sides: \(after.count) records")
            return
        }
        #expect(from == last.time && to == next.time)
    }

    @Test func tornTailIsCutOnOpenAndTheSequenceContinues() throws {
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        replay(SyntheticLog.walk(20), into: &writer)
        var disk = writer.files
        let segment = "/log/0000000001.tlog"
        let whole = try disk.readAll(segment)
        // A torn chunk at the end: half of a copy of the last 12 bytes.
        _ = try disk.openForAppend(segment)
        let torn: [UInt8] = Array(whole.suffix(12).prefix(6))
        try disk.write(torn.span, to: segment)
        try disk.sync(segment)
        var reopened = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: disk, now: Self.start)
        #expect(reopened.status.cutByteCount == 6)
        #expect(try reopened.files.readAll(segment) == whole)
        replay(SyntheticLog.walk(5, from: 20), into: &reopened, from: 20)
        let (read, reader) = try read(reopened.files)
        #expect(read == SyntheticLog.walk(25))
        #expect(reader.problems.isEmpty, "\(reader.problems.map(\.description))")
        #expect(reader.segments.count == 1)
    }

    @Test func aLastSegmentWithNothingValidIsRemovedAndTheSequenceContinues() throws {
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        replay(SyntheticLog.walk(10), into: &writer)
        var disk = writer.files
        // Segment 2 got only the first bytes of its keyframe before the power went.
        let torn = "/log/0000000002.tlog"
        _ = try disk.openForAppend(torn)
        try disk.write([0x89, 0x54, 0x4C].span, to: torn)
        try disk.sync(torn)
        try disk.syncDirectory("/log")
        var reopened = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: disk, now: Self.start)
        #expect(reopened.status.cutByteCount == 3)
        #expect(reopened.status.segmentCount == 1)
        replay(SyntheticLog.walk(5, from: 10), into: &reopened, from: 10)
        let (read, reader) = try read(reopened.files)
        #expect(read == SyntheticLog.walk(15))
        #expect(reader.segmentNumbers == [1, 3], "segment 2 removed; its number is not reused")
        #expect(reader.problems.isEmpty)
        #expect(reader.segments.last?.firstSequence == reader.segments.first?.lastSequence.map { $0 &+ 1 })
    }

    @Test func missingDirectoryThatCannotBeCreatedIsAnError() {
        #expect(throws: LogStoreError.self) {
            _ = try LogWriter(settings: LogWriterSettings(directory: "/proc/trackd-log"), files: PosixLogFiles(),
                              now: Self.start)
        }
    }

    /// A replay at `--speed 0` appends an hour of fixes within one wake-up: the chunks must
    /// still hold a sync interval of record time each, as on a tracker, not 256 records.
    @Test(arguments: [(12, Int64(5_000), 3), (12, Int64(1_000), 12), (600, Int64(5_000), 120)])
    func chunksSpanOneSyncIntervalOfRecordTime(fixes: Int, interval: Int64, chunks: Int) throws {
        let settings = LogWriterSettings(directory: "/log", syncIntervalMilliseconds: interval)
        var writer = try LogWriter(settings: settings, files: FaultyLogDisk(), now: Self.start)
        let records = SyntheticLog.walk(fixes)
        for record in records { writer.append(record, now: Self.start) }
        writer.close(now: Self.start)
        #expect(writer.status.syncCount == chunks)
        let (read, reader) = try read(writer.files)
        #expect(read == records)
        #expect(reader.segments.first?.chunkCount == chunks)
    }

    /// A record older than the first one held (the boot marker's system time ahead of a
    /// replayed receiver's) starts a chunk of its own too.
    @Test func aRecordBeforeTheHeldOnesStartsANewChunk() throws {
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        let later = UTCTime(millisecondsSinceEpoch: LogTestRecords.t0 + 86_400_000)
        writer.append(.bootMarker(time: later, bootID: 7), now: Self.start)
        for record in SyntheticLog.walk(3) { writer.append(record, now: Self.start) }
        writer.close(now: Self.start)
        #expect(writer.status.syncCount == 2)
        #expect(try read(writer.files).records.count == 4)
    }
}
