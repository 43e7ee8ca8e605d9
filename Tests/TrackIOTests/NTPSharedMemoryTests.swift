import CLinux
import Foundation
import Testing
@testable import TrackIO

/// The NTP shared-memory refclock writer: gpsd's `struct shmTime` layout byte for byte, the
/// count/valid protocol as chrony's mode-1 reader checks it, and real System V segments (on
/// keys of the test's own, never the units a running chronyd reads).
@Suite struct NTPSharedMemoryTests {
    /// The offsets of gpsd's ntpshm.h on a 64-bit Linux (time_t is 8 bytes): what chrony's
    /// refclock_shm.c reads.
    @Test(arguments: [
        ("mode", 0), ("count", 4), ("clockTimeStampSec", 8), ("clockTimeStampUSec", 16),
        ("receiveTimeStampSec", 24), ("receiveTimeStampUSec", 32), ("leap", 36), ("precision", 40),
        ("nsamples", 44), ("valid", 48), ("clockTimeStampNSec", 52), ("receiveTimeStampNSec", 56), ("dummy", 60),
    ] as [(String, Int)])
    func layoutIsGpsds(field: String, offset: Int) {
        let offsets: [String: Int?] = [
            "mode": MemoryLayout<clinux_shm_time>.offset(of: \.mode),
            "count": MemoryLayout<clinux_shm_time>.offset(of: \.count),
            "clockTimeStampSec": MemoryLayout<clinux_shm_time>.offset(of: \.clockTimeStampSec),
            "clockTimeStampUSec": MemoryLayout<clinux_shm_time>.offset(of: \.clockTimeStampUSec),
            "receiveTimeStampSec": MemoryLayout<clinux_shm_time>.offset(of: \.receiveTimeStampSec),
            "receiveTimeStampUSec": MemoryLayout<clinux_shm_time>.offset(of: \.receiveTimeStampUSec),
            "leap": MemoryLayout<clinux_shm_time>.offset(of: \.leap),
            "precision": MemoryLayout<clinux_shm_time>.offset(of: \.precision),
            "nsamples": MemoryLayout<clinux_shm_time>.offset(of: \.nsamples),
            "valid": MemoryLayout<clinux_shm_time>.offset(of: \.valid),
            "clockTimeStampNSec": MemoryLayout<clinux_shm_time>.offset(of: \.clockTimeStampNSec),
            "receiveTimeStampNSec": MemoryLayout<clinux_shm_time>.offset(of: \.receiveTimeStampNSec),
            "dummy": MemoryLayout<clinux_shm_time>.offset(of: \.dummy),
        ]
        #expect(offsets[field] == offset)
    }

    @Test func segmentIs96Bytes() {
        #expect(MemoryLayout<clinux_shm_time>.size == 96)
    }

    /// chrony's mode-1 read: copy, and keep the copy only when valid is set and count did not
    /// move while copying.
    static func chronyRead(_ before: clinux_shm_time, countAfter: Int32) -> clinux_shm_time? {
        guard before.mode == 1, before.valid == 1, before.count == countAfter else { return nil }
        return before
    }

    @Test func aWriteIsTheSampleInSecondsMicrosecondsAndNanoseconds() throws {
        var unit = NTPSharedMemory(privateMemoryFor: 0)
        #expect(unit.snapshot.mode == 1)
        #expect(unit.snapshot.valid == 0)
        #expect(unit.snapshot.leap == 3) // not in sync until the first sample
        // 2026-12-01T21:00:00.123456789Z from the receiver, the system 43.2 ms behind it.
        let receiver: Int64 = 1_796_158_800_123_456_789
        unit.write(NTPSample(receiverNanoseconds: receiver, systemNanoseconds: receiver - 43_200_000), precision: -1)
        let read = try #require(Self.chronyRead(unit.snapshot, countAfter: unit.snapshot.count))
        #expect(read.clockTimeStampSec == 1_796_158_800)
        #expect(read.clockTimeStampUSec == 123_456)
        #expect(read.clockTimeStampNSec == 123_456_789)
        #expect(read.receiveTimeStampSec == 1_796_158_800)
        #expect(read.receiveTimeStampUSec == 80_256)
        #expect(read.receiveTimeStampNSec == 80_256_789)
        #expect(read.leap == 0)
        #expect(read.precision == -1)
        #expect(read.nsamples == 3)
        #expect(read.count == 2)
    }

    /// A reader that copies in the middle of a write drops its copy: valid is 0 during it, and a
    /// copy taken before it ends sees count move.
    @Test func aReaderNeverKeepsAHalfWrittenSample() {
        var unit = NTPSharedMemory(privateMemoryFor: 0)
        unit.write(NTPSample(receiverNanoseconds: 1_000_000_000, systemNanoseconds: 1_000_000_000), precision: -1)
        let countBefore = unit.snapshot.count
        unit.beginWrite()
        #expect(unit.snapshot.valid == 0)
        #expect(unit.snapshot.count == countBefore + 1)
        unit.fill(NTPSample(receiverNanoseconds: 2_000_000_000, systemNanoseconds: 2_000_000_000), precision: -1)
        let midway = unit.snapshot
        #expect(Self.chronyRead(midway, countAfter: midway.count) == nil)
        unit.endWrite()
        // Copied while valid was still set from before, count read after the write ended.
        var stale = midway
        stale.valid = 1
        #expect(Self.chronyRead(stale, countAfter: unit.snapshot.count) == nil)
        #expect(unit.snapshot.count == countBefore + 2)
        #expect(Self.chronyRead(unit.snapshot, countAfter: unit.snapshot.count)?.clockTimeStampSec == 2)
    }

    @Test(arguments: [
        (Int64(-1), Int64(-1), Int64(999_999_999)),
        (Int64(-1_000_000_000), Int64(-1), Int64(0)),
        (Int64(1_500_000_000), Int64(1), Int64(500_000_000)),
    ])
    func splitKeepsNanosecondsInTheirSecond(total: Int64, seconds: Int64, nanoseconds: Int64) {
        let parts = NTPSharedMemory.split(total)
        #expect(parts.seconds == seconds)
        #expect(parts.nanoseconds == nanoseconds)
    }

    /// A key of this test's own, far from the NTP units and the other tests'.
    static func testBaseKey() -> Int32 { 0x7472_0000 | Int32(getpid() & 0xFFF) << 4 }

    /// Real segments: units 0 and 1 owner-only, 2 and 3 for everyone, as gpsd creates them;
    /// what is written is what another attachment (chrony's) reads.
    @Test(arguments: [(0, 0o600), (1, 0o600), (2, 0o666), (3, 0o666)])
    func realSegmentsHaveGpsdsPermissions(unit: Int, mode: Int32) throws {
        let base = Self.testBaseKey()
        defer { _ = clinux_shm_remove(base + Int32(unit)) }
        var writer = try NTPSharedMemory(unit: unit, baseKey: base)
        #expect(writer.key == base + Int32(unit))
        #expect(clinux_shm_mode(writer.key) == mode)
        writer.write(NTPSample(receiverNanoseconds: 5_000_000_000, systemNanoseconds: 4_990_000_000), precision: -3)
        // A second attachment, as chronyd's: shmget and shmat of the key, nothing more.
        let reader = try #require(clinux_shm_time_attach(writer.key, 0))
        defer { _ = clinux_shm_detach(reader) }
        #expect(reader.pointee.clockTimeStampSec == 5)
        #expect(reader.pointee.receiveTimeStampNSec == 990_000_000)
        #expect(reader.pointee.valid == 1)
        #expect(reader.pointee.mode == 1)
        #expect(reader.pointee.precision == -3)
    }

    /// A segment of the key that is too small for shmTime (another program's) is refused with
    /// the errno, not written over.
    @Test func aSmallerSegmentOfTheKeyIsAnError() throws {
        let key = Self.testBaseKey() + 9
        let id = shmget(key, 16, IPC_CREAT | 0o600)
        #expect(id >= 0)
        defer { _ = clinux_shm_remove(key) }
        #expect(throws: Errno(rawValue: EINVAL)) { _ = try NTPSharedMemory(unit: 9, baseKey: Self.testBaseKey()) }
    }
}
