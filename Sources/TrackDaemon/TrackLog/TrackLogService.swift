import TrackCore
import TrackIO

/// The track log: the writer over its directory (nil when the directory could not be opened:
/// status and doctor say why), synced on a timer, with the gap record after a lost receiver and
/// the file system it lives on for the advice when it fills. Appending a fix allocates nothing.
struct TrackLogService: ~Copyable {
    var writer: LogWriter<PosixLogFiles>?
    var settings: LogWriterSettings
    var quotaBytes: Int
    /// Why the directory could not be opened, nil when it was.
    var openError: String?
    /// The file system holding the directory (found at start and on a change; nil when unknown).
    var fileSystem: FileSystemInfo?
    /// The last good fix's time when the receiver was lost: the start of a gap record.
    var lostAt: UTCTime?
    /// Syncs announced on stderr so far; nil when `[log] announce-syncs` is off.
    var announcedSyncCount: Int?

    /// Opens the log `config` names (creating the directory); trouble is kept, not thrown.
    init(_ config: TrackdConfig.Log, now: MonotonicTime) {
        settings = LogWriterSettings(config)
        quotaBytes = Int(config.quotaBytes)
        open(now: now)
        announcedSyncCount = config.announceSyncs ? (writer?.status.syncCount ?? 0) : nil
    }

    /// Opens the writer at `settings`; a failure is kept in `openError` and said.
    mutating func open(now: MonotonicTime) {
        fileSystem = FileSystemInfo.of(settings.directory)
        do {
            writer = try LogWriter(settings: settings, files: PosixLogFiles(), now: now)
            openError = nil
        } catch {
            // Without a log the receiver, LEDs and fences still work; status and doctor say why.
            writer = nil
            openError = error.description
            try? FileDescriptor.standardError.writeAll("trackd: track log: " + error.description + "; not logging\n")
        }
        if let problem = writer?.status.lastError {
            try? FileDescriptor.standardError.writeAll("trackd: track log: " + problem.description + "\n")
        }
    }

    /// `[log]` changed on a reload: the held records go to the old log, then the new one opens.
    mutating func reopen(_ config: TrackdConfig.Log, now: MonotonicTime) {
        writer?.close(now: now)
        writer = nil
        settings = LogWriterSettings(config)
        quotaBytes = Int(config.quotaBytes)
        open(now: now)
        announcedSyncCount = config.announceSyncs ? (writer?.status.syncCount ?? 0) : nil
    }

    /// The writer's counters (empty without a log).
    var status: LogWriterStatus { writer?.status ?? LogWriterStatus() }

    /// True while the log cannot be written: the storage-error LED.
    var storageError: Bool { status.storageError || openError != nil }

    /// Appends `record`; held until the next sync.
    mutating func append(_ record: LogRecord, now: MonotonicTime) {
        writer?.append(record, now: now)
    }

    /// Appends a recorded fix, after a gap record when the receiver was lost since the last one.
    mutating func record(_ fix: LogFix, now: MonotonicTime) {
        guard writer != nil else { return }
        if let from = lostAt {
            if from < fix.time { writer?.append(.gap(from: from, to: fix.time), now: now) }
            lostAt = nil
        }
        writer?.append(.fix(fix), now: now)
    }

    /// The receiver was lost: the next recorded fix follows a gap from `lastFixTime`.
    mutating func receiverLost(lastFixTime: UTCTime?) {
        if lostAt == nil { lostAt = lastFixTime }
    }

    /// Syncs when the timer is due and sets it again.
    mutating func serviceTimer(_ loop: inout EventLoop, timer: Int, now: MonotonicTime) {
        // Only the interval, not `guard let writer`: a copy of the writer alive across the sync
        // shares its arrays, so the sync's first mutation of each copied them (two allocations
        // every sync, found by `scripts/bench gpsd`).
        guard let interval = writer?.settings.syncIntervalMilliseconds else { return }
        if loop.isDue(timer) || !loop.isScheduled(timer) {
            if loop.isDue(timer) { writer?.sync(now: now) }
            loop.schedule(timer, at: now.adding(milliseconds: interval))
        }
    }

    /// A final sync, then closes the segment (SIGTERM).
    mutating func close(now: MonotonicTime) {
        writer?.close(now: now)
    }

    /// Announces on stderr a sync made since the last announcement, when announcing is on:
    /// `trackd: log synced: 42 records durable, last fix 2026-05-30T12:00:41.000Z` (no heap).
    /// A power-cut test takes every fix up to that time as a promise the log must keep.
    mutating func announceSyncIfNew() {
        guard let announced = announcedSyncCount, let status = writer?.status, status.syncCount != announced else { return }
        announcedSyncCount = status.syncCount
        var line = TextBuffer()
        line.append("trackd: log synced: ")
        line.append(integer: Int64(status.durableRecordCount))
        line.append(" records durable, last fix ")
        if let time = status.lastDurableFixTime {
            time.write(to: &line)
        } else {
            line.append(UInt8(ascii: "-"))
        }
        line.append(UInt8(ascii: "\n"))
        line.withBytes { bytes in
            bytes.withUnsafeBytes { raw in try? FileDescriptor.standardError.writeAll(raw) }
        }
    }
}
