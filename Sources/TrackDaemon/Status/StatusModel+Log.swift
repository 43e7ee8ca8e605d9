import TrackCore
import TrackIO

/// The track log's lines of `trackctl status` (text and JSON).
extension StatusModel {
    /// `log       /var/lib/trackd/log: 3 segments, 48211 bytes, 1210 records, last sync 2.1s ago`
    /// and, after a failure, a `storage error` line naming the file, the step and the errno.
    func writeLogText(to line: inout TextBuffer, _ reply: inout ReplyBuffer, now: MonotonicTime) {
        line.append("log       ")
        line.append(string: log.directory)
        if let openError = log.openError {
            line.append(": not logging: ")
            line.append(string: openError)
            emit(&line, &reply)
            return
        }
        line.append(": ")
        line.append(integer: Int64(log.status.segmentCount))
        line.append(" segments, ")
        line.append(integer: Int64(log.status.byteCount))
        line.append(" bytes, ")
        line.append(integer: Int64(log.status.durableRecordCount))
        line.append(" records synced, ")
        line.append(integer: Int64(log.status.pendingRecordCount))
        line.append(" pending, last sync ")
        if let lastSync = log.status.lastSync {
            appendDuration(&line, milliseconds: now.milliseconds(since: lastSync))
            line.append(" ago")
        } else {
            line.append("never")
        }
        if log.status.droppedRecordCount > 0 {
            line.append(", ")
            line.append(integer: Int64(log.status.droppedFixCount))
            line.append(" fixes not written")
        }
        if log.status.deletedSegmentCount > 0 {
            line.append(", ")
            line.append(integer: Int64(log.status.deletedSegmentCount))
            line.append(" segments deleted for the quota")
        }
        emit(&line, &reply)
        if let reason = log.status.blocked {
            line.append("          not writing: ")
            log.writeBlocked(reason, to: &line)
            emit(&line, &reply)
        } else if log.status.flashSuspect, let error = log.status.lastError {
            line.append("          storage error: ")
            line.append(string: error.description)
            emit(&line, &reply)
        }
    }

    /// `,"log":{"directory":…,"open":true,"segments":3,"bytes":48211,"records":1210,…}`.
    func writeLogJSON(to line: inout TextBuffer, now: MonotonicTime) {
        line.append(",\"log\":{\"directory\":")
        line.appendJSONString(log.directory)
        line.append(log.openError == nil ? ",\"open\":true" : ",\"open\":false")
        appendCounter(&line, "segments", log.status.segmentCount)
        appendCounter(&line, "bytes", log.status.byteCount)
        appendCounter(&line, "records", log.status.durableRecordCount)
        appendCounter(&line, "pending", log.status.pendingRecordCount)
        appendCounter(&line, "lost", log.status.droppedRecordCount)
        appendCounter(&line, "fixesNotWritten", log.status.droppedFixCount)
        appendCounter(&line, "deletedForQuota", log.status.deletedSegmentCount)
        if let reason = log.status.blocked {
            line.append(reason == .noSpace ? ",\"blocked\":\"full\"" : ",\"blocked\":\"read-only\"")
        }
        appendCounter(&line, "syncs", log.status.syncCount)
        if let lastSync = log.status.lastSync {
            line.append(",\"lastSyncAgoMs\":")
            line.append(integer: now.milliseconds(since: lastSync))
        }
        line.append(log.storageError ? ",\"storageError\":true" : ",\"storageError\":false")
        if let error = log.openError ?? log.status.lastError?.description {
            line.append(",\"lastError\":")
            line.appendJSONString(error)
        }
        line.append("}")
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
