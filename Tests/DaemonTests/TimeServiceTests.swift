import CLinux
import Foundation
import Testing
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// The time service in the real daemon: which epochs reach the NTP shared-memory unit, with
/// which receive time, and what status and doctor say. The units are System V segments on keys
/// of the test's own.
@Suite("time for chrony in the daemon", .serialized)
struct TimeServiceTests {
    /// 2026-11-30T12:00:00Z, the day `NMEA.epoch` sends.
    static let noonNanoseconds: Int64 = 1_796_040_000_000_000_000
    /// The system clock 750 ms ahead of the receiver: epoch N (12:00:0N) starts at loop time
    /// N + 1 s, 12:00:0N.750 on this clock.
    static func systemClock(_ milliseconds: Int64) -> Int64 { noonNanoseconds - 250_000_000 + milliseconds * 1_000_000 }

    static func baseKey(_ slot: Int32) -> Int32 { 0x7473_0000 | Int32(getpid() & 0xFFF) << 4 | slot }

    /// The segment as chrony would read it (attached, not prepared).
    static func read(_ key: Int32) throws -> clinux_shm_time {
        let segment = try #require(clinux_shm_time_attach(key, 0))
        defer { _ = clinux_shm_detach(segment) }
        return segment.pointee
    }

    /// Epoch N's first byte comes at N s of loop time, alone in its read (a receiver's burst
    /// starts with a byte or two), the rest 800 ms later, as the port's coalescing reads it.
    static func source(epochs: Int, fixed: (Int) -> Bool = { _ in true }) -> ScriptedSource {
        var chunks: [ScriptedSource.Chunk] = []
        for second in 0..<epochs {
            var bytes = NMEA.epoch(second: second, latitude: 48.5, longitude: 9.05)
            if !fixed(second) {
                bytes = NMEA.sentence("GPRMC,1200" + NMEA.format2(second) + ".00,V,,,,,,,301126,,,N")
                    + NMEA.sentence("GPGGA,1200" + NMEA.format2(second) + ".00,,,,,0,00,99.9,,M,,M,,")
            }
            let at = Int64(second) * 1_000 + 1_000
            chunks.append(.init(atMilliseconds: at, bytes: Array(bytes[0..<1])))
            chunks.append(.init(atMilliseconds: at + 800, bytes: Array(bytes[1...])))
        }
        return ScriptedSource(chunks)
    }

    @Test func eachGoodEpochIsWrittenAgainstWhenItsFirstByteArrived() throws {
        let base = Self.baseKey(0)
        defer { _ = clinux_shm_remove(base + 2) }
        let run = try InProcessDaemon(Self.source(epochs: 6), timeBaseKey: base, realtime: Self.systemClock)
        run.run(until: 7_000)
        let segment = try Self.read(base + 2)
        // Epoch 4 (12:00:04) is the last completed: epoch 5's first sentence ended it.
        #expect(segment.clockTimeStampSec == Int(Self.noonNanoseconds / 1_000_000_000) + 4)
        #expect(segment.clockTimeStampNSec == 0)
        // Its first byte came at loop time 5 s, the system's 12:00:04.750 (not 5.8 s, the read
        // that completed its first sentence).
        #expect(segment.receiveTimeStampSec == Int(Self.noonNanoseconds / 1_000_000_000) + 4)
        #expect(segment.receiveTimeStampUSec == 750_000)
        #expect(segment.valid == 1)
        #expect(segment.mode == 1)
        // Epochs 1 to 4: epoch 0's start was not seen (the first boundary came with epoch 1).
        #expect(run.daemon.time.samples == 4)
        #expect(run.daemon.time.skipped == 1)
        #expect(run.daemon.time.lastOffsetNanoseconds == -750_000_000)
        let status = run.request("status")
        #expect(status.contains("time      NTP shm unit 2: 4 samples"), "\(status)")
        #expect(status.contains("system clock 0.750 s ahead"), "\(status)")
        #expect(run.request("status json").contains(",\"time\":{\"unit\":2,\"samples\":4,\"offset\":-0.750}"))
        #expect(run.request("doctor").contains("ok time: NTP shm unit 2, 4 samples written"))
    }

    /// Epochs without a fix (RMC V, GGA quality 0) write nothing: chrony keeps the last sample
    /// it had and sees the source stop.
    @Test func epochsWithoutAFixWriteNothing() throws {
        let base = Self.baseKey(1)
        defer { _ = clinux_shm_remove(base + 2) }
        let run = try InProcessDaemon(Self.source(epochs: 6, fixed: { $0 < 2 }), timeBaseKey: base, realtime: Self.systemClock)
        run.run(until: 7_000)
        #expect(run.daemon.time.samples == 1)
        #expect(try Self.read(base + 2).clockTimeStampSec == Int(Self.noonNanoseconds / 1_000_000_000) + 1)
    }

    @Test func offWritesNothingAndSaysSo() throws {
        let base = Self.baseKey(2)
        defer { _ = clinux_shm_remove(base + 2) }
        let run = try InProcessDaemon(Self.source(epochs: 3), configure: { $0.time.shm = .off },
                                      timeBaseKey: base, realtime: Self.systemClock)
        run.run(until: 4_000)
        #expect(run.daemon.time.samples == 0)
        #expect(clinux_shm_mode(base + 2) == -1)
        #expect(run.request("status").contains("time      off ([time] shm = off, or a replay)"))
    }

    /// `trackd --replay`: the capture's times are history, so no unit is attached at all, and
    /// a reload does not attach one either.
    @Test func aReplayNeverSharesItsTimes() {
        let base = Self.baseKey(4)
        defer { _ = clinux_shm_remove(base + 2) }
        var settings = TrackdConfig.Time()
        settings.shm = .unit(2)
        var service = TimeService(settings, live: false, baseKey: base)
        var config = TrackdConfig()
        config.time = settings
        service.apply(ReloadPlan(from: config, oldBoard: BoardMap(), to: config, board: BoardMap(),
                                 fences: FenceMonitor(fences: FenceSet(), settings: config.fences.settings), logSettings: nil))
        let unit = service.unit, active = service.isActive
        #expect(unit == nil)
        #expect(!active)
        #expect(clinux_shm_mode(base + 2) == -1)
        let live = TimeService(settings, live: true, baseKey: base)
        let liveActive = live.isActive
        #expect(liveActive)
    }

    /// A unit that cannot be attached (here another program's smaller segment on its key) is one
    /// clear problem; tracking goes on.
    @Test func aUnitThatCannotBeAttachedIsADoctorError() throws {
        let base = Self.baseKey(3)
        #expect(shmget(base + 2, 16, IPC_CREAT | 0o600) >= 0)
        defer { _ = clinux_shm_remove(base + 2) }
        let run = try InProcessDaemon(Self.source(epochs: 4), timeBaseKey: base, realtime: Self.systemClock)
        run.run(until: 5_000)
        let problem = run.daemon.time.problem ?? ""
        #expect(problem == "unit 2: Invalid argument")
        #expect(run.request("doctor").contains("error time: NTP shared memory unit 2"))
        #expect(run.daemon.trackLog.status.durableRecordCount + run.daemon.trackLog.status.pendingRecordCount > 1)
    }
}

/// Whose clock the log's records carry: the system's until this boot's first logged fix, the
/// receiver's from then on (docs/log-format.md, "Whose clock").
@Suite("the log's clock", .serialized)
struct LogClockTests {
    @Test func recordsBeforeTheFirstLoggedFixTakeTheSystemClock() throws {
        var chunks: [ScriptedSource.Chunk] = []
        for second in 0..<20 {
            chunks.append(.init(atMilliseconds: Int64(second) * 1_000 + 1_000,
                                bytes: NMEA.epoch(second: second, latitude: 48.5, longitude: 9.05)))
        }
        // Not determined: the receiver's fixes come, none is logged.
        let harness = try InProcessDaemon(ScriptedSource(chunks), permission: nil)
        harness.run(until: 20_000, at: [
            (5_000, { _ = $0.request("privacy allow always") }),
            (15_000, { _ = $0.request("privacy deny") }),
        ])
        let (records, _) = try harness.stopAndReadLog()
        var changes: [UTCTime] = []
        for record in records {
            if case .permissionChange(let time, _, _) = record { changes.append(time) }
        }
        try #require(changes.count == 2)
        // At 5 s no fix had been logged: the system's time as the loop read it at that wake-up
        // (the harness's clock: boot + 5 s), not the receiver's 12:00:03 (2026-11-30).
        #expect(changes[0] == UTCTime(millisecondsSinceEpoch: InProcessDaemon.bootMilliseconds + 5_000), "\(changes[0])")
        // At 15 s fixes had been logged: the receiver's time of the last completed epoch,
        // 12:00:12 (epoch N arrives at N + 1 s and is complete when the next one begins).
        #expect(changes[1] == UTCTime(millisecondsSinceEpoch: 1_796_040_000_000 + 12_000))
    }
}
