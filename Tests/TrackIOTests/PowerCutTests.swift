import Foundation
import LogPowerCut
import TestData
import Testing
import TrackCore
import TrackIO

/// The power-cut harness in the suite: a smaller stride than scripts/powercut (every step), so
/// it stays fast in a debug build.
@Suite struct PowerCutTests {
    static let fixes = SyntheticLog.walk(2_000)

    @Test func everyCutPointKeepsSyncedRecords() {
        let report = PowerCutHarness(records: Self.fixes).run(stride: 11)
        #expect(report.violations == 0, "\(report.messages)")
        #expect(report.cutPoints > 70)
        #expect(report.steps > 800)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func randomDropsTearsAndReordersOfUnsyncedWrites(seed: UInt64) {
        let report = PowerCutHarness(records: Self.fixes).run(stride: 13, seed: seed)
        #expect(report.violations == 0, "\(report.messages)")
        #expect(report.cutPoints > 60)
    }

    @Test(arguments: [Errno.ioError, Errno.noSpace])
    func injectedErrorsLoseNothingSynced(errno: Errno) {
        var failures: [Int: Errno] = [:]
        for step in Swift.stride(from: 20, to: 900, by: 41) { failures[step] = errno }
        let report = PowerCutHarness(records: Self.fixes).run(stride: 17, seed: 9, failures: failures)
        #expect(report.violations == 0, "\(report.messages)")
    }

    @Test func seededRunsCutRecoveriesAgain() {
        let report = PowerCutHarness(records: Array(Self.fixes.prefix(400))).run(stride: 3, seed: 5)
        #expect(report.violations == 0, "\(report.messages)")
        #expect(report.recoveryCuts > 5)
    }

    /// A cut can keep a later sector of an unsynced write and lose an earlier one, as a device
    /// writing the sectors of a page in any order does.
    @Test func aCutKeepsSectorSubsetsOfUnsyncedWrites() throws {
        var disk = FaultyLogDisk()
        try disk.makeDirectory("/d")
        let handle = try disk.openForAppend("/d/f")
        try disk.syncDirectory("/d")
        let bytes = [UInt8](repeating: 0xAB, count: 8 * FaultyLogDisk.sectorBytes)
        try disk.write(bytes.span, to: handle)
        var generator = SeededGenerator(seed: 11)
        var holes = 0
        for _ in 0..<200 {
            var image = disk.afterPowerCut(using: &generator)
            let data = try image.readAll("/d/f")
            let sectors = stride(from: 0, to: data.count, by: FaultyLogDisk.sectorBytes).map { data[$0] }
            if let lost = sectors.firstIndex(of: 0), sectors[lost...].contains(0xAB) { holes += 1 }
            #expect(data.allSatisfy { $0 == 0 || $0 == 0xAB })
        }
        #expect(holes > 10)
    }

    @Test func aDiskThatLosesSyncedDataIsCaught() {
        let report = PowerCutHarness(records: Array(Self.fixes.prefix(300))).run(stride: 5, lyingDisk: true)
        #expect(report.violations > 0)
    }

    @Test(.needsShared("tracks/csv/cycle-coros-mtn.csv"))
    func sharedTrackReplay() throws {
        let url = try #require(TestData.shared("tracks/csv/cycle-coros-mtn.csv"))
        let data = try Data(contentsOf: url)
        let fixes = try TrackCSV.parse(Array(data)).map(LogRecord.fix)
        #expect(fixes.count >= 10_000)
        let report = PowerCutHarness(records: fixes).run(stride: 211)
        #expect(report.violations == 0, "\(report.messages)")
    }
}
