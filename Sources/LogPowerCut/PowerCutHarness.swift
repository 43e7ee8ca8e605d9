import TrackCore
import TrackIO

/// Cuts power under the log writer at every step of a replay and checks the log after each cut
/// (after littlefs's and SQLite's crash tests): it opens; every record synced before the cut is
/// there, bit-identical, in order; nothing is duplicated; nothing that was never written is
/// returned; after reopening, the writer appends and the new record reads back last. With a
/// seed, every fourth cut is followed by a second at a random step of that recovery, and the
/// log must hold the same after the recovery from the second cut.
///
/// Example: `PowerCutHarness(records: fixes).run(stride: 1)` → 4,131 cut points, 0 violations.
public struct PowerCutHarness: Sendable {
    /// What a run found.
    public struct Report: Equatable, Sendable {
        /// Cuts made and checked.
        public var cutPoints = 0
        /// Cuts after which an invariant failed.
        public var violations = 0
        /// The first few failures in words.
        public var messages: [String] = []
        /// Steps the replay took (the cut points available).
        public var steps = 0
        /// Records the replay appended.
        public var records = 0
        /// Of the cut points, the second cuts made during a recovery.
        public var recoveryCuts = 0

        /// An empty report.
        public init() {}
    }

    /// The records to replay, e.g. 10,305 fixes of a shared track.
    public let records: [LogRecord]
    /// Records appended between two syncs (5: a 5 s sync interval at 1 Hz).
    public var recordsPerSync = 5
    /// Writer settings: small segments so rotation happens often.
    public var settings = LogWriterSettings(directory: "/log", segmentByteLimit: 4_096, quotaBytes: 1 << 30)

    /// A harness over `records`.
    public init(records: [LogRecord]) { self.records = records }

    /// Cuts after every `stride`-th step (1: every step); with `seed` the unsynced writes are
    /// dropped, torn, cut to a subset of their sectors or reordered at random (else all lost)
    /// and every fourth recovery is cut once more; `failures` injects errnos at steps, and a cut can
    /// come at the failing step.
    public func run(stride: Int = 1, seed: UInt64? = nil, failures: [Int: Errno] = [:],
                    lyingDisk: Bool = false) -> Report {
        let state = PowerCutState(records: records, stride: max(stride, 1), seed: seed, settings: settings)
        var disk = FaultyLogDisk()
        disk.failures = failures
        disk.syncLies = lyingDisk
        disk.observer = { disk, step in state.cut(disk, step: step) }
        let now = MonotonicTime(nanoseconds: 1_000_000_000)
        guard var writer = try? LogWriter(settings: settings, files: disk, now: now) else {
            state.report.violations += 1
            state.report.messages.append("the writer did not open an empty directory")
            return state.report
        }
        for (index, record) in records.enumerated() {
            state.appended = index + 1
            let time = now.adding(milliseconds: Int64(index) * 1000)
            writer.append(record, now: time)
            if (index + 1) % recordsPerSync == 0 { writer.sync(now: time) }
            state.acknowledged = writer.status.durableRecordCount
            if writer.status.droppedRecordCount > 0 { state.acknowledged = 0 }
        }
        writer.close(now: now.adding(milliseconds: Int64(records.count) * 1000))
        state.acknowledged = writer.status.durableRecordCount
        if writer.status.droppedRecordCount > 0 {
            state.report.violations += 1
            state.report.messages.append("the writer dropped \(writer.status.droppedRecordCount) records")
        }
        state.cut(writer.files, step: writer.files.stepCount, force: true)
        state.report.steps = writer.files.stepCount
        state.report.records = records.count
        return state.report
    }
}

/// The replay's progress, shared with the disk's observer.
final class PowerCutState {
    let records: [LogRecord]
    let stride: Int
    var generator: SeededGenerator?
    let settings: LogWriterSettings
    var appended = 0
    var acknowledged = 0
    var report = PowerCutHarness.Report()

    init(records: [LogRecord], stride: Int, seed: UInt64?, settings: LogWriterSettings) {
        self.records = records
        self.stride = stride
        self.generator = seed.map { SeededGenerator(seed: $0) }
        self.settings = settings
    }

    func cut(_ disk: FaultyLogDisk, step: Int, force: Bool = false) {
        guard force || step % stride == 0 else { return }
        report.cutPoints += 1
        var image: FaultyLogDisk
        if var generator {
            image = disk.afterPowerCut(using: &generator)
            self.generator = generator
        } else {
            image = disk.afterPowerCut()
        }
        if let problem = check(image, marker: Self.marker) {
            report.violations += 1
            if report.messages.count < 10 { report.messages.append("cut after step \(step): " + problem) }
        }
        // Every fourth cut of a seeded run is cut again (every one would take four times as long).
        guard var generator, report.cutPoints % 4 == 0 else { return }
        // The second cut: at a random step of the recovery from the first (truncating the torn
        // tail, opening a new segment, the marker's write and sync, the directory's sync).
        let start = image.stepCount
        var counting = image
        let recoverySteps = ((try? LogWriter(settings: settings, files: counting, now: Self.recoveryTime)).map { writer in
            var writer = writer
            writer.append(Self.marker, now: Self.recoveryTime)
            writer.sync(now: Self.recoveryTime)
            return writer.files.stepCount
        } ?? counting.stepCount) - start
        guard recoverySteps > 0 else { return }
        let at = start + Int.random(in: 1...recoverySteps, using: &generator)
        let snapshot = DiskSnapshot()
        counting.observer = { disk, step in if step == at { snapshot.disk = disk } }
        if var writer = try? LogWriter(settings: settings, files: counting, now: Self.recoveryTime) {
            writer.append(Self.marker, now: Self.recoveryTime)
            writer.sync(now: Self.recoveryTime)
        }
        guard let during = snapshot.disk else { self.generator = generator; return }
        let second = during.afterPowerCut(using: &generator)
        self.generator = generator
        report.cutPoints += 1
        report.recoveryCuts += 1
        if let problem = check(second, marker: Self.secondMarker) {
            report.violations += 1
            if report.messages.count < 10 {
                report.messages.append("cut after step \(step), again at step \(at - start) of the recovery: " + problem)
            }
        }
    }

    static let recoveryTime = MonotonicTime(nanoseconds: 1 << 50)
    /// The record each recovery appends; a second recovery appends another, and the first one's
    /// may or may not have survived the second cut.
    static let marker = LogRecord.bootMarker(time: UTCTime(millisecondsSinceEpoch: 1 << 52), bootID: 0x7EAD)
    static let secondMarker = LogRecord.bootMarker(time: UTCTime(millisecondsSinceEpoch: (1 << 52) + 1_000), bootID: 0x7EAE)

    /// Reopens the log on the cut disk, appends `marker`, reads everything back.
    private func check(_ image: FaultyLogDisk, marker: LogRecord) -> String? {
        let now = Self.recoveryTime
        guard var writer = try? LogWriter(settings: settings, files: image, now: now) else {
            return "the log does not open"
        }
        writer.append(marker, now: now)
        guard writer.sync(now: now) else { return "the reopened log does not take a record" }
        guard var reader = try? LogReader(directory: settings.directory, files: writer.files) else {
            return "the directory does not list"
        }
        var read = reader.readAll()
        guard read.last == marker else { return "the record written after reopening is not last" }
        read.removeLast()
        read.removeAll { $0 == Self.marker }
        return compare(read, removed: image.removedCount > 0)
    }

    /// `read` must be an in-order subsequence of the appended records holding every
    /// acknowledged one (from the oldest surviving record on, when segments were deleted).
    private func compare(_ read: [LogRecord], removed: Bool) -> String? {
        var matched: [Int] = []
        matched.reserveCapacity(read.count)
        var next = 0
        for (position, record) in read.enumerated() {
            while next < appended && records[next] != record { next += 1 }
            guard next < appended else {
                return "record \(position) read back was never appended there (corrupt, duplicated or out of order)"
            }
            matched.append(next)
            next += 1
        }
        var from = 0
        if removed, let first = matched.first { from = first }
        var cursor = 0
        for wanted in from..<max(from, acknowledged) {
            while cursor < matched.count && matched[cursor] < wanted { cursor += 1 }
            guard cursor < matched.count, matched[cursor] == wanted else {
                return "synced record \(wanted) of \(acknowledged) is missing (read \(read.count))"
            }
        }
        return nil
    }
}

/// The disk as the observer saw it at one step.
final class DiskSnapshot {
    var disk: FaultyLogDisk?
}
