import LogPowerCut
import TestData
import Testing
import TrackCore
import TrackIO

/// The status trackd announces after a sync: the durable count and the newest durable fix.
@Suite struct LogWriterStatusTests {
    static let start = MonotonicTime(nanoseconds: 1_000_000_000)

    /// (records appended, synced after them?, durable count, index of the walk's last durable fix)
    @Test(arguments: [
        (0, true, 0, nil as Int?),
        (3, false, 0, nil),
        (3, true, 3, 2),
        (7, true, 7, 6),
    ])
    func lastDurableFixFollowsTheSyncs(appended: Int, synced: Bool, durable: Int, lastFix: Int?) throws {
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        let records = SyntheticLog.walk(appended)
        for record in records { writer.append(record, now: Self.start) }
        if synced { writer.sync(now: Self.start) }
        #expect(writer.status.durableRecordCount == durable)
        #expect(writer.status.lastDurableFixTime == lastFix.map { records[$0].time })
    }

    @Test func recordsOtherThanFixesLeaveTheLastFixAlone() throws {
        var writer = try LogWriter(settings: LogWriterSettings(directory: "/log"), files: FaultyLogDisk(), now: Self.start)
        let fixes = SyntheticLog.walk(2)
        for record in fixes { writer.append(record, now: Self.start) }
        let later = UTCTime(millisecondsSinceEpoch: LogTestRecords.t0 + 3_600_000)
        writer.append(.bootMarker(time: later, bootID: 7), now: Self.start)
        writer.sync(now: Self.start)
        #expect(writer.status.durableRecordCount == 3)
        #expect(writer.status.lastDurableFixTime == fixes[1].time)
        #expect(writer.status.lastDurableFixTime != later)
    }
}
