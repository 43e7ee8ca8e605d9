import TrackCore
import TrackIO

/// The track log: the writer over its directory (nil when the directory could not be opened:
/// status and doctor say why), synced on a timer, with the gap record after a lost receiver and
/// the file system it lives on for the advice when it fills. It says in the journal when the
/// storage fails or recovers and when the quota deletes a segment. Appending a fix allocates
/// nothing.
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
    /// The start of the last sleep record written: a sleep is recorded once.
    var sleepRecorded: UTCTime?
    /// Syncs announced on stderr so far; nil when `[log] announce-syncs` is off.
    var announcedSyncCount: Int?
    /// What the journal was last told: storage errors, why writing stopped, segments deleted.
    var saidStorageErrors = 0
    var saidBlocked: LogBlockedReason?
    var saidDeletedSegments = 0

    /// Opens the log `config` names (creating the directory); trouble is kept, not thrown.
    init(_ config: TrackdConfig.Log, now: MonotonicTime) {
        settings = LogWriterSettings(config)
        quotaBytes = Int(config.quotaBytes)
        open(now: now)
        announcedSyncCount = config.announceSyncs ? (writer?.status.syncCount ?? 0) : nil
        saidStorageErrors = status.storageErrorCount
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

    /// A reload that changed `[log]`: the held records go to the old log, then the new one
    /// opens, its sync timer set afresh.
    mutating func apply(_ plan: ReloadPlan, _ loop: inout EventLoop, timer: Int, now: MonotonicTime) {
        guard plan.reopenLog else { return }
        writer?.close(now: now)
        writer = nil
        settings = LogWriterSettings(plan.config.log)
        quotaBytes = Int(plan.config.log.quotaBytes)
        open(now: now)
        announcedSyncCount = plan.config.log.announceSyncs ? (writer?.status.syncCount ?? 0) : nil
        saidStorageErrors = status.storageErrorCount
        saidDeletedSegments = 0
        saidBlocked = nil
        loop.cancel(timer)
        serviceTimer(&loop, timer: timer, now: now)
    }

    /// The settings in force while the log is open; nil when it could not be opened (a reload
    /// then opens it again).
    var openSettings: LogWriterSettings? { writer == nil ? nil : settings }

    /// When the log was last synced: led-log flashes.
    var lastSync: MonotonicTime? { status.lastSync }

    /// What status and doctor show of the log.
    var facts: StatusModel.LogFacts {
        StatusModel.LogFacts(directory: settings.directory, status: status, openError: openError, quotaBytes: quotaBytes,
                             fileSystem: fileSystem)
    }

    /// The writer's counters (empty without a log).
    var status: LogWriterStatus { writer?.status ?? LogWriterStatus() }

    /// True while the log cannot be written: the storage-error LED.
    var storageError: Bool { status.storageError || openError != nil }

    /// Appends `record`; held until the next sync.
    mutating func append(_ record: LogRecord, now: MonotonicTime) {
        writer?.append(record, now: now)
        journal()
    }

    /// Appends a recorded fix, after a gap record when the receiver was lost since the last one,
    /// or a sleep record when it slept after `sleptAfter` (the receiver's time of its last epoch
    /// before the sleep) and that sleep is not recorded yet: a planned stop, not a lost signal.
    mutating func record(_ fix: LogFix, now: MonotonicTime, sleptAfter: UTCTime? = nil) {
        guard writer != nil else { return }
        if let from = lostAt {
            if from < fix.time { writer?.append(.gap(from: from, to: fix.time), now: now) }
            lostAt = nil
        } else if let from = sleptAfter, from != sleepRecorded, from < fix.time {
            writer?.append(.receiverAsleep(from: from, to: fix.time), now: now)
        }
        if sleptAfter != nil { sleepRecorded = sleptAfter }
        writer?.append(.fix(fix), now: now)
        journal()
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
        journal()
    }

    /// A final sync, then closes the segment (SIGTERM); a sync announced.
    mutating func close(now: MonotonicTime) {
        writer?.close(now: now)
        announceSyncIfNew()
        journal()
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

extension TrackLogService {
    /// Says what changed since it last spoke: a segment deleted for the quota, the log blocked
    /// (full, read-only) or writable again, a write or sync error that moved the records to a
    /// new segment. Compares counters; builds a line only when there is something to say.
    mutating func journal() {
        let log = status
        if log.deletedSegmentCount != saidDeletedSegments {
            saidDeletedSegments = log.deletedSegmentCount
            var line = TextBuffer()
            line.append("track log: quota of ")
            line.append(integer: Int64(quotaBytes >> 20))
            line.append(" MiB reached: deleted the oldest segment ")
            if let number = log.lastDeletedSegment { line.append(string: LogSegmentName.name(number)) }
            line.append(" (")
            line.append(integer: Int64(log.deletedSegmentCount))
            line.append(" deleted since start)")
            Journal.say(&line)
        }
        guard log.blocked != saidBlocked || log.storageErrorCount != saidStorageErrors else { return }
        var line = TextBuffer()
        line.append("track log: ")
        if let reason = log.blocked, reason != saidBlocked {
            if fileSystem == nil { fileSystem = FileSystemInfo.of(settings.directory) }
            line.append(string: log.lastError?.description ?? "")
            line.append(": ")
            facts.writeBlocked(reason, to: &line)
            Journal.say(&line)
        } else if log.blocked == nil && saidBlocked != nil {
            line.append("writable again, logging resumed; ")
            line.append(integer: Int64(log.droppedFixCount))
            line.append(" fixes could not be written since start")
            Journal.say(&line)
        } else if log.storageErrorCount != saidStorageErrors && log.flashSuspect {
            line.append(string: log.lastError?.description ?? "")
            line.append("; the records went to a new segment; the card is suspect (dmesg)")
            Journal.say(&line)
        }
        saidBlocked = log.blocked
        saidStorageErrors = log.storageErrorCount
    }
}
