import Foundation
import LogPowerCut
import TestData
import Testing
import TrackCore
@testable import TrackctlCommands
import TrackIO

/// Random bytes and corrupted real segments through the reader: it never traps, returns only
/// records that were written, and says what it skipped.
@Suite struct LogFuzzTests {
    /// Made once for all cases.
    static let shared = try? realSegment()

    /// A segment made by `trackctl log import` from a shared track, or from a synthesized walk.
    static func realSegment() throws -> (bytes: [UInt8], records: [LogRecord]) {
        var records = SyntheticLog.walk(3_000)
        if let url = TestData.shared("tracks/csv/car-sbn-nl.csv"), let data = FileManager.default.contents(atPath: url.path) {
            records = try TrackCSV.parse(Array(data)).map(LogRecord.fix)
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let status = try LogImport.write(records, to: folder.path, files: PosixLogFiles())
        #expect(status.durableRecordCount == records.count)
        let bytes = try FileDescriptor.readWholeFile(folder.file("0000000001.tlog"))
        return (bytes, records)
    }

    func readBack(_ bytes: [UInt8]) throws -> LogReader<FaultyLogDisk> {
        var disk = FaultyLogDisk()
        try disk.makeDirectory("/log")
        let handle = try disk.openForAppend("/log/0000000001.tlog")
        try disk.write(bytes.span, to: handle)
        return try LogReader(directory: "/log", files: disk)
    }

    @Test(arguments: 0..<40)
    func randomBytesNeverTrap(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        var bytes = (0..<Int.random(in: 0..<20_000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Sprinkle keyframe and parity magics so the resync and repair paths are taken often.
        for _ in 0..<(bytes.count / 500) where bytes.count > 4 {
            let at = Int.random(in: 0..<(bytes.count - 4), using: &generator)
            bytes.replaceSubrange(at..<(at + 4), with: [0x89, 0x54, 0x4C, Bool.random(using: &generator) ? 0x4B : 0x50])
        }
        var reader = try readBack(bytes)
        _ = reader.readAll()
        if !bytes.isEmpty { #expect(!reader.problems.isEmpty) }
        let skipped = reader.problems.reduce(0) { $0 + $1.skippedByteCount }
        #expect(skipped <= bytes.count)
    }

    @Test(arguments: 0..<60)
    func corruptedRealSegmentReturnsOnlyWrittenRecords(seed: Int) throws {
        let (original, records) = try #require(Self.shared)
        var generator = SeededGenerator(seed: UInt64(seed) &+ 1000)
        var bytes = original
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: bytes[at] ^= UInt8.random(in: 1...255, using: &generator)
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...300, using: &generator)))
            case 2: bytes.insert(contentsOf: (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: at)
            default: for index in at..<min(bytes.count, at + 512) { bytes[index] = 0 }
            }
            if bytes.isEmpty { bytes = [0] }
        }
        var reader = try readBack(bytes)
        let read = reader.readAll()
        // Every record returned was written, in order, once.
        var next = 0
        for record in read {
            while next < records.count && records[next] != record { next += 1 }
            #expect(next < records.count, "a record that was never written came back")
            next += 1
        }
        if read.count < records.count { #expect(reader.problems.contains { $0.losesRecords }) }
    }

    /// Bytes made to cost the repair the most: a segment of false keyframe and parity
    /// candidates, and a real group with a valid parity chunk but a damaged chunk at its start
    /// (every place of it a candidate). The reader must still finish: searches that started
    /// again at every damaged chunk made this take minutes.
    @Test(arguments: 0..<3)
    func worstCaseRepairAndResyncFinish(_ which: Int) throws {
        var bytes: [UInt8] = []
        for index in 0..<20_000 { bytes += [0x89, 0x54, 0x4C, index % 2 == 0 ? 0x4B : 0x50] }
        let (original, _) = try #require(Self.shared)
        var group = Array(original.prefix(16_000))
        var parity = LogParity()
        parity.add(group.span)
        var chunk = [UInt8](repeating: 0, count: parity.chunkByteCount)
        var span = chunk.mutableSpan
        _ = parity.writeChunk(&span, at: 0)
        for index in 0..<group.count where index % 3 == 0 { group[index] ^= 0xA5 }
        let candidate = [bytes, group + chunk, group + chunk + bytes][which]
        var reader = try readBack(candidate)
        _ = reader.readAll()
        #expect(!reader.problems.isEmpty)
    }
}
