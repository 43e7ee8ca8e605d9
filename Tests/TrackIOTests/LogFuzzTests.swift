import Foundation
import LogPowerCut
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
        var records = LogTestRecords.walk(3_000)
        if let data = FileManager.default.contents(atPath: "../shared/data/tracks/csv/car-sbn-nl.csv") {
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
        // Sprinkle keyframe magics so the resync path is taken often.
        for _ in 0..<(bytes.count / 500) where bytes.count > 4 {
            let at = Int.random(in: 0..<(bytes.count - 4), using: &generator)
            bytes.replaceSubrange(at..<(at + 4), with: [0x89, 0x54, 0x4C, 0x4B])
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
}
