import TrackCore
import TrackIO

extension StatusModel.LogFacts {
    /// `log       /var/lib/trackd/log: 3 segments, 48211 bytes, 1210 records synced, 2 pending,
    /// last sync 2.1s ago` and, when writing stopped or failed, why (the file, the step, the
    /// errno). The JSON `"log":{"directory":…,"open":true,"segments":3,…}`.
    func report(to report: inout StatusReport, now: MonotonicTime) {
        report.line("log")
        report.object("log")
        defer { report.endObject() }
        report.string("directory", directory)
        report.flag("open", openError == nil, shown: .json)
        report.flag("storageError", storageError, shown: .json)
        if let error = openError ?? status.lastError?.description { report.string("lastError", error, shown: .json) }
        if let openError {
            report.string(nil, openError, ": not logging: ")
            return
        }
        report.count("segments", status.segmentCount, ": ", " segments, ")
        report.count("bytes", status.byteCount, "", " bytes, ")
        report.count("records", status.durableRecordCount, "", " records synced, ")
        report.count("pending", status.pendingRecordCount, "", " pending, last sync ")
        report.count("syncs", status.syncCount, shown: .json)
        if let lastSync = status.lastSync {
            report.duration(nil, milliseconds: now.milliseconds(since: lastSync), "", " ago")
            report.integer("lastSyncAgoMs", now.milliseconds(since: lastSync), shown: .json)
        } else {
            report.words("never")
        }
        report.count("lost", status.droppedRecordCount, shown: .json)
        report.count("fixesNotWritten", status.droppedFixCount, ", ", " fixes not written",
                     shown: status.droppedRecordCount > 0 ? .both : .json)
        report.count("deletedForQuota", status.deletedSegmentCount, ", ", " segments deleted for the quota",
                     shown: status.deletedSegmentCount > 0 ? .both : .json)
        if let reason = status.blocked {
            report.name("blocked", reason == .noSpace ? "full" : "read-only", shown: .json)
            report.indented()
            report.words { line in
                line.append("not writing: ")
                writeBlocked(reason, to: &line)
            }
        } else if status.flashSuspect, let error = status.lastError {
            report.indented()
            report.string(nil, error.description, "storage error: ")
        }
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
