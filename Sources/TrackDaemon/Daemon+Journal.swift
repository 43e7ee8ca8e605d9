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
    /// compare counters and build a line only when there is something to say (rare).
    mutating func journalChanges() {
        journalLog()
        let source = receiver.source.status
        if source.isOpen != journal.sourceOpen || source.opens != journal.sourceOpens {
            var line = TextBuffer()
            if source.isOpen && journal.sourceOpens > 0 {
                line.append("receiver ")
                line.append(string: source.path)
                line.append(": open again")
                say(&line)
            } else if !source.isOpen, let error = source.lastError {
                line.append("receiver: ")
                line.append(string: error.description)
                if case .endOfInput = error {} else { line.append("; trying again") }
                say(&line)
            }
            journal.sourceOpen = source.isOpen
            journal.sourceOpens = source.opens
        }
        if (state.problem != nil) != journal.stateProblem {
            journal.stateProblem = state.problem != nil
            var line = TextBuffer()
            line.append("state file: ")
            if let problem = state.problem { line.append(string: problem) } else { line.append("saved again") }
            say(&line)
        }
    }

    private mutating func journalLog() {
        let log = trackLog.status
        if log.deletedSegmentCount != journal.deletedSegments {
            journal.deletedSegments = log.deletedSegmentCount
            var line = TextBuffer()
            line.append("track log: quota of ")
            line.append(integer: Int64(trackLog.quotaBytes >> 20))
            line.append(" MiB reached: deleted the oldest segment ")
            if let number = log.lastDeletedSegment { line.append(string: LogSegmentName.name(number)) }
            line.append(" (")
            line.append(integer: Int64(log.deletedSegmentCount))
            line.append(" deleted since start)")
            say(&line)
        }
        guard log.blocked != journal.blocked || log.storageErrorCount != journal.storageErrors else { return }
        var line = TextBuffer()
        line.append("track log: ")
        if let reason = log.blocked, reason != journal.blocked {
            if trackLog.fileSystem == nil { trackLog.fileSystem = FileSystemInfo.of(trackLog.settings.directory) }
            line.append(string: log.lastError?.description ?? "")
            line.append(": ")
            logFacts.writeBlocked(reason, to: &line)
            say(&line)
        } else if log.blocked == nil && journal.blocked != nil {
            line.append("writable again, logging resumed; ")
            line.append(integer: Int64(log.droppedFixCount))
            line.append(" fixes could not be written since start")
            say(&line)
        } else if log.storageErrorCount != journal.storageErrors && log.flashSuspect {
            line.append(string: log.lastError?.description ?? "")
            line.append("; the records went to a new segment; the card is suspect (dmesg)")
            say(&line)
        }
        journal.blocked = log.blocked
        journal.storageErrors = log.storageErrorCount
    }

    /// Says why positions go unnamed when the gazetteer could not be mapped (start-up, SIGHUP).
    mutating func journalPlaces() {
        guard let problem = places.problem else { return }
        say("places: " + problem + "; no gazetteer: positions are not named, tracking goes on")
    }

    /// `trackd: LINE` on stderr.
    mutating func say(_ line: inout TextBuffer) {
        var out = TextBuffer()
        out.append("trackd: ")
        line.withBytes { bytes in
            for index in bytes.indices { out.append(bytes[index]) }
        }
        out.append(UInt8(ascii: "\n"))
        out.withBytes { bytes in
            bytes.withUnsafeBytes { raw in try? FileDescriptor.standardError.writeAll(raw) }
        }
    }

    /// `trackd: MESSAGE` on stderr, for messages built as strings (rare: reload, start-up).
    mutating func say(_ message: String) {
        try? FileDescriptor.standardError.writeAll("trackd: " + message + "\n")
    }
}

extension StatusModel.LogFacts {
    /// Why nothing is written and what to do, e.g. `the file system is full (tmpfs (tmpfs)
    /// mounted at /var/lib/trackd/log, 1024 KiB of 1024 KiB used, 0 KiB free); nothing is deleted
    /// for it (quota 256 MiB, 3 KiB used by the log): free space there and logging resumes by itself`.
    func writeBlocked(_ reason: LogBlockedReason, to line: inout TextBuffer) {
        switch reason {
        case .noSpace:
            line.append("the file system is full (")
            writeFileSystem(to: &line)
            line.append("); nothing is deleted for it (quota ")
            line.append(integer: Int64(quotaBytes >> 20))
            line.append(" MiB, ")
            line.append(integer: Int64(status.byteCount >> 10))
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
        guard let info = fileSystem else {
            line.append("the one holding ")
            line.append(string: directory)
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
