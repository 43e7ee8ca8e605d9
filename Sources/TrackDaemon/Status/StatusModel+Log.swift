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
