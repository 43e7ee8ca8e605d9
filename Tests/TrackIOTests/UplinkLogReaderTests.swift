import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackIO

/// A mixed log as trackd writes it: 1 Hz fixes with a waypoint, fence events and a boot marker
/// among them.
private func mixedRecords(_ count: Int) -> [LogRecord] {
    var records: [LogRecord] = []
    for (index, record) in SyntheticLog.walk(count).enumerated() {
        records.append(record)
        let time = UTCTime(millisecondsSinceEpoch: LogTestRecords.t0 + Int64(index) * 1000)
        let position = LogPosition(latitudeE7: 481_173_000 + Int32(index) * 90, longitudeE7: 115_167_000)
        if index % 97 == 5 { records.append(.waypoint(time: time, position: position, label: LogLabel("mark \(index)")!)) }
        if index % 131 == 7 { records.append(.fenceEvent(time: time, fenceID: UInt32(index), kind: .enter, position: position)) }
        if index == 400 { records.append(.bootMarker(time: time, bootID: 0x1234)) }
    }
    return records
}

/// A log directory written by the real writer: `records` at 1 Hz, synced every 5, small
/// segments so there are several; closed unless `close` is false.
private func writeLog(_ directory: String, _ records: [LogRecord], segmentBytes: Int = 600, close: Bool = true) throws {
    let settings = LogWriterSettings(directory: directory, segmentByteLimit: segmentBytes, keyframeIntervalMilliseconds: 60_000)
    var writer = try LogWriter(settings: settings, files: PosixLogFiles(), now: .at(0))
    for (index, record) in records.enumerated() {
        writer.append(record, now: .at(Int64(index) * 1000))
        if index % 5 == 4 { writer.sync(now: .at(Int64(index) * 1000)) }
    }
    if close { writer.close(now: .at(Int64(records.count) * 1000)) } else { writer.sync(now: .at(Int64(records.count) * 1000)) }
}

/// Every entry the uplink reader gives from `cursor` (up to `until`).
private func uplinkEntries(_ directory: String, from cursor: UplinkCursor = .start, until: LogCursor? = nil,
                           durableEnd: LogDurableEnd? = nil) throws -> [UplinkLogEntry] {
    var reader = try UplinkLogReader(directory: directory, from: cursor, until: until)
    var entries: [UplinkLogEntry] = []
    while let entry = try reader.next(durableEnd: durableEnd) { entries.append(entry) }
    return entries
}

private func segmentNumbers(_ directory: String) throws -> [UInt64] {
    var files = PosixLogFiles()
    return try LogReader<PosixLogFiles>.segmentNumbers(in: directory, files: &files)
}

private func logReaderRecords(_ directory: String) throws -> [LogRecord] {
    var reader = try LogReader(directory: directory)
    return reader.readAll()
}

@Suite struct UplinkLogReaderTests {
    static let records = mixedRecords(1_200)

    /// The uplink reader gives what `LogReader` gives, across segments.
    @Test func readsWhatLogReaderReads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        try writeLog(directory, Self.records)
        let segments = try segmentNumbers(directory)
        #expect(segments.count > 5)
        let entries = try uplinkEntries(directory)
        #expect(entries.map(\.record) == Self.records)
        #expect(try logReaderRecords(directory) == Self.records)
        #expect(Set(entries.map(\.segment)) == Set(segments))
    }

    /// From any record's cursor, a new reader gives exactly the records after it.
    @Test func resumesAfterEveryCursor() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        try writeLog(directory, Self.records)
        let entries = try uplinkEntries(directory)
        for index in stride(from: 0, to: entries.count, by: 37) + [entries.count - 1] {
            let rest = try uplinkEntries(directory, from: entries[index].cursor)
            #expect(rest.map(\.record) == Array(Self.records[(index + 1)...]), "after \(entries[index].cursor.text)")
            if let first = rest.first { #expect(first.cursor == entries[index + 1].cursor) }
        }
        // The text form names the same place.
        let middle = entries[entries.count / 2].cursor
        let parsed = try #require(UplinkCursor(text: middle.text))
        #expect(try uplinkEntries(directory, from: parsed).count == entries.count - entries.count / 2 - 1)
    }

    /// Against the writer while it writes: nothing before its sync, every record after it,
    /// across segment rotations.
    @Test func followsTheWriterOnlyToTheSyncedEnd() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        let settings = LogWriterSettings(directory: directory, segmentByteLimit: 256, keyframeIntervalMilliseconds: 60_000)
        var writer = try LogWriter(settings: settings, files: PosixLogFiles(), now: .at(0))
        var reader = try UplinkLogReader(directory: directory, from: .start)
        #expect(try reader.next(durableEnd: writer.durableEnd) == nil)
        var sent: [LogRecord] = []
        let records = SyntheticLog.walk(700)
        var index = 0
        while index < records.count {
            // Four records span 3 s of record time: the writer holds them until the sync (it
            // syncs by itself once they span its 5 s interval).
            let batch = records[index..<min(index + 4, records.count)]
            for record in batch { writer.append(record, now: .at(Int64(index) * 1000)) }
            // Appended, not synced: nothing to read (the file may even hold a sealed chunk).
            #expect(try reader.next(durableEnd: writer.durableEnd) == nil)
            let synced = writer.sync(now: .at(Int64(index) * 1000))
            #expect(synced)
            var got: [LogRecord] = []
            while let entry = try reader.next(durableEnd: writer.durableEnd) { got.append(entry.record) }
            #expect(got == Array(batch), "after the sync at record \(index)")
            sent += got
            index += batch.count
        }
        #expect(sent == records)
        let counters = reader.counters
        #expect(counters == UplinkLogCounters())
        #expect(try segmentNumbers(directory).count > 4)
    }

    /// A flipped byte in a closed segment is mended from the parity, as `LogReader` mends it;
    /// a damaged stretch beyond it costs what it costs `LogReader`, and no more.
    @Test(arguments: [1, 40])
    func damageCostsWhatItCostsLogReader(_ damagedBytes: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        let records = SyntheticLog.walk(600)
        try writeLog(directory, records, segmentBytes: 4_000)
        let path = directory + "/0000000001.tlog"
        var bytes = try FileDescriptor.readWholeFile(path)
        for offset in 0..<damagedBytes { bytes[bytes.count / 2 + offset] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let expected = try logReaderRecords(directory)
        if damagedBytes == 1 { #expect(expected == records) } else { #expect(expected.count < records.count) }
        var reader = try UplinkLogReader(directory: directory, from: .start)
        var entries: [UplinkLogEntry] = []
        while let entry = try reader.next(durableEnd: nil) { entries.append(entry) }
        #expect(entries.map(\.record) == expected)
        let counters = reader.counters
        #expect(counters.repairedSegmentReads == 1)
        #expect((counters.damagedStretches > 0) == (damagedBytes > 1))
        // Resuming inside the damaged segment, after the damage, gives the same rest.
        let index = entries.count * 3 / 4
        #expect(try uplinkEntries(directory, from: entries[index].cursor).map(\.record) == Array(expected[(index + 1)...]))
    }

    /// A cursor this log does not hold (the log was reset, or rewritten) is an error, not a
    /// silent restart.
    @Test func refusesACursorFromAnotherLog() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        try writeLog(directory, Self.records)
        let entries = try uplinkEntries(directory)
        var wrong = entries[300].cursor
        wrong.chunk.crc ^= 1
        #expect(throws: UplinkLogError.cursorNotInLog(wrong)) { try uplinkEntries(directory, from: wrong) }
        var inside = entries[300].cursor
        inside.chunk.offset -= 1
        #expect(throws: UplinkLogError.self) { try uplinkEntries(directory, from: inside) }
        let ahead = UplinkCursor(chunk: LogCursor(segment: 999, offset: 100, sequence: 5, crc: 0))
        #expect(throws: UplinkLogError.cursorNotInLog(ahead)) { try uplinkEntries(directory, from: ahead) }
        #expect(UplinkLogError.cursorNotInLog(ahead).description
                == "the uplink cursor 999:100:5:00000000 names no chunk of the log (reset or rewritten since)")
    }

    /// Segments the quota deleted before they were sent: the reader goes on with the next one
    /// and counts them.
    @Test func goesOnAfterDeletedSegments() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        try writeLog(directory, Self.records)
        let entries = try uplinkEntries(directory)
        let inFirst = try #require(entries.first { $0.segment == 1 && !$0.cursor.chunk.isStart && $0.cursor.records > 0 })
        let inFirstChunk = try #require(entries.first { $0.cursor.chunk.isStart && $0.cursor.records > 1 })
        try FileManager.default.removeItem(atPath: directory + "/0000000001.tlog")
        let remaining = try logReaderRecords(directory)
        // Records of the log's first chunk passed over: they were in the deleted segment.
        #expect(try uplinkEntries(directory, from: inFirstChunk.cursor).map(\.record) == remaining)
        var reader = try UplinkLogReader(directory: directory, from: inFirst.cursor)
        var got: [LogRecord] = []
        while let entry = try reader.next(durableEnd: nil) { got.append(entry.record) }
        #expect(got == remaining)
        let counters = reader.counters
        #expect(counters.missingSegments == 1)
        #expect(try uplinkEntries(directory).map(\.record) == remaining)
    }

    /// `until` stops a backlog where the live stream took over; the two together are the log.
    @Test func stopsAtUntil() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        try writeLog(directory, Self.records)
        let entries = try uplinkEntries(directory)
        let until = entries[700].cursor.chunk
        var backlog = try UplinkLogReader(directory: directory, from: entries[100].cursor, until: until)
        var first: [LogRecord] = []
        while let entry = try backlog.next(durableEnd: nil) { first.append(entry.record) }
        let reached = backlog.reachedUntil
        #expect(reached)
        let live = try uplinkEntries(directory, from: UplinkCursor(chunk: until)).map(\.record)
        #expect(first + live == Array(Self.records[101...]))
        #expect(first.count < 700 - 100 && first.count > 600 - 100)
    }

    /// The live stream starts at the durable end: nothing before it, everything after.
    @Test func skipsToTheEnd() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let directory = folder.file("log")
        let settings = LogWriterSettings(directory: directory, segmentByteLimit: 1_500, keyframeIntervalMilliseconds: 60_000)
        var writer = try LogWriter(settings: settings, files: PosixLogFiles(), now: .at(0))
        let records = SyntheticLog.walk(400)
        for (index, record) in records[..<300].enumerated() { writer.append(record, now: .at(Int64(index) * 1000)) }
        writer.sync(now: .at(300_000))
        var reader = try UplinkLogReader(directory: directory, from: .start)
        let end = try reader.skipToEnd(durableEnd: writer.durableEnd)
        var fromEnd = try UplinkLogReader(directory: directory, from: end)
        #expect(try fromEnd.next(durableEnd: writer.durableEnd) == nil)
        for (index, record) in records[300...].enumerated() { writer.append(record, now: .at(Int64(300 + index) * 1000)) }
        writer.sync(now: .at(400_000))
        var got: [LogRecord] = []
        while let entry = try fromEnd.next(durableEnd: writer.durableEnd) { got.append(entry.record) }
        #expect(got == Array(records[300...]))
    }
}
