import TrackCore
import TrackIO

/// What was last said on stderr (the journal, under systemd) about the parts that can fail
/// while trackd runs, so each change is said once: a storage failure or recovery, a segment
/// deleted for the quota, the receiver lost or back, the state file failing.
struct JournalState {
    var storageErrors = 0
    var blocked: LogBlockedReason?
    var deletedSegments = 0
    var sourceOpen = false
    var sourceOpens = 0
    var stateProblem = false
}

extension Daemon where Source: ~Copyable {
    /// Says what changed since the last wake-up. Runs at the end of every wake-up; the checks
    /// compare counters and allocate nothing unless there is something to say (rare).
    mutating func journalChanges() {
        journalLog()
        let source = pipeline.status.source
        if source.isOpen != journal.sourceOpen || source.opens != journal.sourceOpens {
            if source.isOpen && journal.sourceOpens > 0 {
                say("receiver " + source.path + ": open again")
            } else if !source.isOpen, let error = source.lastError, case .endOfInput = error {
                say("receiver: " + error.description)
            } else if !source.isOpen, let error = source.lastError {
                say("receiver: " + error.description + "; trying again")
            }
            journal.sourceOpen = source.isOpen
            journal.sourceOpens = source.opens
        }
        if (pipeline.status.stateProblem != nil) != journal.stateProblem {
            journal.stateProblem = pipeline.status.stateProblem != nil
            if let problem = pipeline.status.stateProblem {
                say("state file: " + problem)
            } else {
                say("state file: saved again")
            }
        }
    }

    private mutating func journalLog() {
        let log = pipeline.status.log
        if log.deletedSegmentCount != journal.deletedSegments {
            journal.deletedSegments = log.deletedSegmentCount
            let name = log.lastDeletedSegment.map(LogSegmentName.name) ?? "?"
            say("track log: quota of " + String(pipeline.status.logQuotaBytes >> 20) + " MiB reached: deleted the oldest segment "
                + name + " (" + String(log.deletedSegmentCount) + " deleted since start)")
        }
        if log.blocked != journal.blocked || log.storageErrorCount != journal.storageErrors {
            let error = log.lastError?.description ?? "?"
            if let reason = log.blocked, reason != journal.blocked {
                if pipeline.status.logFileSystem == nil {
                    pipeline.status.logFileSystem = FileSystemInfo.of(pipeline.status.logDirectory)
                }
                var line = TextBuffer()
                pipeline.status.writeBlocked(reason, to: &line)
                say("track log: " + error + ": " + line.string)
            } else if log.blocked == nil && journal.blocked != nil {
                say("track log: writable again, logging resumed; " + String(log.droppedFixCount)
                    + " fixes could not be written since start")
            } else if log.storageErrorCount != journal.storageErrors && log.flashSuspect {
                say("track log: " + error + "; the records went to a new segment; the card is suspect (dmesg)")
            }
            journal.blocked = log.blocked
            journal.storageErrors = log.storageErrorCount
        }
    }

    /// `trackd: MESSAGE` on stderr.
    func say(_ message: String) {
        try? FileDescriptor.standardError.writeAll("trackd: " + message + "\n")
    }
}

extension DaemonStatus {
    /// Why nothing is written and what to do, e.g. `the file system is full (tmpfs mounted at
    /// /var/lib/trackd/log, 256 KiB of 256 KiB used, 0 KiB free); nothing is deleted for it
    /// (quota 256 MiB, 1 MiB used): free space there and logging resumes by itself`.
    func writeBlocked(_ reason: LogBlockedReason, to line: inout TextBuffer) {
        switch reason {
        case .noSpace:
            line.append("the file system is full (")
            writeFileSystem(to: &line)
            line.append("); nothing is deleted for it (quota ")
            line.append(integer: Int64(logQuotaBytes >> 20))
            line.append(" MiB, ")
            line.append(integer: Int64(log.byteCount >> 10))
            line.append(" KiB used by the log): free space there and logging resumes by itself")
        case .readOnly:
            line.append("the file system is read-only (")
            writeFileSystem(to: &line)
            line.append("; ext4 goes read-only after an I/O error: see dmesg): make it writable again")
            line.append(" (remount or reboot) and logging resumes by itself")
        }
    }

    /// `/dev/mmcblk0p2 (ext4) mounted at /, 7.1 GiB of 7.3 GiB used, 212 MiB free`, or the
    /// directory alone when the mount is not known.
    func writeFileSystem(to line: inout TextBuffer) {
        guard let info = logFileSystem else {
            line.append("the one holding ")
            line.append(string: logDirectory)
            return
        }
        line.append(string: info.source)
        line.append(" (")
        line.append(string: info.type)
        line.append(") mounted at ")
        line.append(string: info.mountPoint)
        guard let sizes = info.sizes() else { return }
        line.append(", ")
        appendBytes(&line, sizes.totalBytes - sizes.availableBytes)
        line.append(" of ")
        appendBytes(&line, sizes.totalBytes)
        line.append(" used, ")
        appendBytes(&line, sizes.availableBytes)
        line.append(" free")
    }
}

/// `812 bytes`, `81 KiB`, `212 MiB`, `7.1 GiB`.
func appendBytes(_ line: inout TextBuffer, _ bytes: Int64) {
    if bytes < 10 << 10 {
        line.append(integer: bytes)
        line.append(" bytes")
    } else if bytes < 10 << 20 {
        line.append(integer: bytes >> 10)
        line.append(" KiB")
    } else if bytes < 10 << 30 {
        line.append(integer: bytes >> 20)
        line.append(" MiB")
    } else {
        line.appendFixed(bytes * 10 >> 30, decimals: 1)
        line.append(" GiB")
    }
}
