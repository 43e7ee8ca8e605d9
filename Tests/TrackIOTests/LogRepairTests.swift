import LogPowerCut
import TestData
import Testing
import TrackCore
import TrackIO

/// Bit rot in the track log (format version 4): a damaged stretch of up to 16 bytes in a group
/// that has its parity chunk costs nothing; worse damage costs its keyframe interval, and the
/// writer never mistakes it for a torn tail.
@Suite struct LogRepairTests {
    static let start = MonotonicTime(nanoseconds: 1_000_000_000)
    static let path = "/log/0000000001.tlog"

    /// The fixes of `LogTestRecords.walk` with a whole-degree course, as the daemon logs them.
    static func fixes(_ count: Int, from first: Int = 0) -> [LogRecord] {
        SyntheticLog.walk(count, from: first).map { record in
            guard case .fix(var fix) = record else { return record }
            let second = Int32((fix.time.millisecondsSinceEpoch - LogTestRecords.t0) / 1000)
            fix.courseCentidegrees = (4_500 + second * 300) % 36_000
            return .fix(fix)
        }
    }

    /// `records` through the real writer at 1 Hz, a keyframe every 60 s, closed unless `close` is
    /// false (then the disk is as a power cut leaves it).
    static func written(_ records: [LogRecord], on disk: FaultyLogDisk = FaultyLogDisk(), close: Bool = true,
                        from second: Int = 0) throws -> FaultyLogDisk {
        let settings = LogWriterSettings(directory: "/log", keyframeIntervalMilliseconds: 60_000)
        var writer = try LogWriter(settings: settings, files: disk, now: start)
        for (index, record) in records.enumerated() {
            writer.append(record, now: start.adding(milliseconds: Int64(second + index) * 1000))
        }
        if close { writer.close(now: start.adding(milliseconds: Int64(second + records.count) * 1000)) }
        else { writer.sync(now: start.adding(milliseconds: Int64(second + records.count) * 1000)) }
        return close ? writer.files : writer.files.afterPowerCut()
    }

    /// A disk holding `bytes` as the log's first segment.
    static func disk(holding bytes: [UInt8]) throws -> FaultyLogDisk {
        var disk = FaultyLogDisk()
        try disk.makeDirectory("/log")
        let handle = try disk.openForAppend(path)
        try disk.write(bytes.span, to: handle)
        try disk.sync(handle)
        try disk.syncDirectory("/log")
        return disk
    }

    static func read(_ disk: FaultyLogDisk) throws -> (records: [LogRecord], problems: [LogProblem]) {
        var reader = try LogReader(directory: "/log", files: disk)
        return (reader.readAll(), reader.problems)
    }

    static let records = fixes(150)
    static let log: [UInt8] = {
        var disk = (try? written(records)) ?? FaultyLogDisk()
        return (try? disk.readAll(path)) ?? []
    }()

    @Test func theWriterPutsParityBeforeKeyframesAndAtTheEnd() throws {
        // 150 s with a keyframe every 60 s: three groups, three parity chunks, the last at the end.
        var parities: [LogParityChunk] = []
        var from = -1
        while let next = LogParityChunk.next(in: Self.log.span, after: from) {
            parities.append(next)
            from = next.offset
        }
        #expect(parities.count == 3)
        #expect(parities.first?.groupStart == 0)
        #expect(parities.last?.end == Self.log.count)
        for (earlier, later) in zip(parities, parities.dropFirst()) {
            #expect(later.groupStart == earlier.end, "groups follow each other")
            #expect(Self.log[earlier.end] == 0x89 && Self.log[earlier.end + 3] == 0x4B, "a keyframe follows")
        }
        let (read, problems) = try Self.read(Self.disk(holding: Self.log))
        #expect(read == Self.records && problems.isEmpty)
    }

    @Test func everySingleByteFlipIsRepaired() throws {
        for offset in Self.log.indices {
            var damaged = Self.log
            damaged[offset] ^= UInt8(1 + offset * 37 % 255)
            let (read, problems) = try Self.read(Self.disk(holding: damaged))
            let whole = read == Self.records
            let mended = problems.allSatisfy { !$0.losesRecords }
            #expect(whole && mended, "flip at \(offset): \(read.count) records, \(problems.map(\.description))")
        }
    }

    @Test(arguments: [2, 8, 16])
    func burstsUpToTheStripeWidthAreRepaired(length: Int) throws {
        var parities: [LogParityChunk] = []
        var from = -1
        while let next = LogParityChunk.next(in: Self.log.span, after: from) {
            parities.append(next)
            from = next.offset
        }
        for offset in stride(from: 0, to: Self.log.count - length, by: 7) {
            // The one thing it cannot mend: damage to a group's last bytes and to its own parity
            // chunk at once.
            if parities.contains(where: { offset < $0.offset && offset + length > $0.offset }) { continue }
            var damaged = Self.log
            for index in offset..<(offset + length) { damaged[index] ^= UInt8(1 + (index * 73) % 255) }
            let (read, problems) = try Self.read(Self.disk(holding: damaged))
            let whole = read == Self.records
            let mended = problems.allSatisfy { !$0.losesRecords }
            #expect(whole && mended, "\(length) bytes at \(offset): \(read.count) records, \(problems.map(\.description))")
            // Damage that hits records is reported as repaired, naming where.
            if case .repaired = problems.first?.kind { #expect(problems.first?.offset ?? -1 <= offset) }
        }
    }

    @Test func damageTheParityCannotMendCostsItsIntervalAndIsNotCut() throws {
        // Two damaged chunks in the last group: beyond one parity. Its records from the first
        // damaged chunk on are lost; the parity chunk after the damage shows it is no torn tail,
        // so a writer opening the log leaves the file as it is and starts a new segment.
        let found = LogParityChunk.next(in: Self.log.span, after: Self.log.count - 80)
        let last = try #require(found)
        var damaged = Self.log
        damaged[last.groupStart + 3] ^= 0x10
        damaged[last.offset - 3] ^= 0x10
        let (read, problems) = try Self.read(Self.disk(holding: damaged))
        #expect(read == Array(Self.records[..<120]))
        #expect(problems.count == 1 && problems.first?.losesRecords == true)
        if case .damaged = problems.first?.kind {} else { Issue.record("\(problems.map(\.description))") }
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: Self.disk(holding: damaged),
                                   now: Self.start)
        #expect(try writer.files.readAll(Self.path).count == damaged.count, "nothing cut")
        writer.append(Self.fixes(1, from: 150)[0], now: Self.start)
        writer.close(now: Self.start)
        #expect(writer.status.currentSegment == nil && writer.status.segmentCount == 2)
    }

    @Test func aFlippedLengthInTheMiddleIsDamageNotATornTail() throws {
        // The second keyframe's payload length made huge: its chunk "runs past the end". Repaired
        // with the parity; without any parity (chunks alone) the keyframes after it still read.
        let first = LogParityChunk.next(in: Self.log.span, after: 0)
        let second = try #require(first).end
        var damaged = Self.log
        damaged[second + 10] = 0x3F
        #expect(try Self.read(Self.disk(holding: damaged)).records == Self.records)
        let plain = LogTestRecords.segment(Self.records, keyframeSeconds: 30)
        var bare = plain.bytes
        bare[plain.chunkOffsets[6] + 10] = 0x3F
        let (read, problems) = try Self.read(Self.disk(holding: bare))
        #expect(read == Array(Self.records[..<30]) + Array(Self.records[60...]))
        if case .damaged = problems.first?.kind {} else { Issue.record("\(problems.map(\.description))") }
    }

    @Test func aRestartCoversTheTailWrittenBeforeAPowerCut() throws {
        // Power cut: the last group never got its parity. The writer, opening the log again,
        // starts its first group with those bytes, so the parity before its first keyframe
        // covers them too.
        let before = Self.fixes(100)
        let cut = try Self.written(before, close: false)
        var cutDisk = cut
        let tail = try cutDisk.readAll(Self.path)
        let after = Self.fixes(20, from: 100)
        var disk = try Self.written(after, on: cut, from: 100)
        var bytes = try disk.readAll(Self.path)
        bytes[tail.count - 10] ^= 0x40
        let (read, problems) = try Self.read(Self.disk(holding: bytes))
        #expect(read == before + after)
        #expect(problems.count == 1 && problems.first?.losesRecords == false)
    }

    @Test func aVersionThreeSegmentReadsAndGainsParityWhenAppendedTo() throws {
        let v3 = try Self.disk(holding: LogTestRecords.version3Chunks)
        let (read, problems) = try Self.read(v3)
        #expect(read == LogTestRecords.version3Fixes)
        #expect(problems.isEmpty)
        // The version-4 writer appends to it, and its first parity chunk covers the old bytes.
        var disk = try Self.written(Self.fixes(10, from: 5_000_000), on: v3)
        var bytes = try disk.readAll(Self.path)
        bytes[20] ^= 0x01
        let (again, repaired) = try Self.read(Self.disk(holding: bytes))
        #expect(again == LogTestRecords.version3Fixes + Self.fixes(10, from: 5_000_000))
        #expect(repaired.count == 1 && repaired.first?.losesRecords == false)
    }

    @Test func aVersionFourSegmentStillRepairsWhenAVersionFiveWriterAppends() throws {
        // A tracker updated from format version 4 to 5 appends to its last segment: the old
        // chunks keep their whole CRCs and their version-4 parity chunk, the new ones start with
        // a version-5 keyframe, and a damaged byte on either side is repaired.
        let v4 = try Self.disk(holding: LogTestRecords.version4Chunks)
        let (read, problems) = try Self.read(v4)
        #expect(read == LogTestRecords.version4Fixes)
        #expect(problems.isEmpty)
        let added = Self.fixes(10, from: 5_000_000)
        var disk = try Self.written(added, on: v4)
        let bytes = try disk.readAll(Self.path)
        #expect(bytes[LogTestRecords.version4Chunks.count + 4] == LogChunkFormat.version)
        for damaged in [20, 40, LogTestRecords.version4Chunks.count + 20, bytes.count - 40] {
            var copy = bytes
            copy[damaged] ^= 0x01
            let (again, repaired) = try Self.read(Self.disk(holding: copy))
            #expect(again == LogTestRecords.version4Fixes + added, "byte \(damaged)")
            #expect(repaired.count == 1 && repaired.first?.losesRecords == false, "byte \(damaged)")
        }
    }
}
