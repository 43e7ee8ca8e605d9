import TrackCore
import TrackIO

/// The track log's lines of `trackctl status` (text and JSON).
extension DaemonStatus {
    /// `log       /var/lib/trackd/log: 3 segments, 48211 bytes, 1210 records, last sync 2.1s ago`
    /// and, after a failure, a `storage error` line naming the file, the step and the errno.
    func writeLogText(to line: inout TextBuffer, _ reply: inout ReplyBuffer, now: MonotonicTime) {
        line.append("log       ")
        line.append(string: logDirectory)
        if let logOpenError {
            line.append(": not logging: ")
            line.append(string: logOpenError)
            emit(&line, &reply)
            return
        }
        line.append(": ")
        line.append(integer: Int64(log.segmentCount))
        line.append(" segments, ")
        line.append(integer: Int64(log.byteCount))
        line.append(" bytes, ")
        line.append(integer: Int64(log.durableRecordCount))
        line.append(" records synced, ")
        line.append(integer: Int64(log.pendingRecordCount))
        line.append(" pending, last sync ")
        if let lastSync = log.lastSync {
            appendDuration(&line, milliseconds: now.milliseconds(since: lastSync))
            line.append(" ago")
        } else {
            line.append("never")
        }
        if log.droppedRecordCount > 0 {
            line.append(", ")
            line.append(integer: Int64(log.droppedFixCount))
            line.append(" fixes not written")
        }
        if log.deletedSegmentCount > 0 {
            line.append(", ")
            line.append(integer: Int64(log.deletedSegmentCount))
            line.append(" segments deleted for the quota")
        }
        emit(&line, &reply)
        if let reason = log.blocked {
            line.append("          not writing: ")
            writeBlocked(reason, to: &line)
            emit(&line, &reply)
        } else if log.flashSuspect, let error = log.lastError {
            line.append("          storage error: ")
            line.append(string: error.description)
            emit(&line, &reply)
        }
    }

    /// `,"log":{"directory":…,"open":true,"segments":3,"bytes":48211,"records":1210,…}`.
    func writeLogJSON(to line: inout TextBuffer, now: MonotonicTime) {
        line.append(",\"log\":{\"directory\":")
        appendJSONString(&line, logDirectory)
        line.append(logOpenError == nil ? ",\"open\":true" : ",\"open\":false")
        appendCounter(&line, "segments", log.segmentCount)
        appendCounter(&line, "bytes", log.byteCount)
        appendCounter(&line, "records", log.durableRecordCount)
        appendCounter(&line, "pending", log.pendingRecordCount)
        appendCounter(&line, "lost", log.droppedRecordCount)
        appendCounter(&line, "fixesNotWritten", log.droppedFixCount)
        appendCounter(&line, "deletedForQuota", log.deletedSegmentCount)
        if let reason = log.blocked {
            line.append(reason == .noSpace ? ",\"blocked\":\"full\"" : ",\"blocked\":\"read-only\"")
        }
        appendCounter(&line, "syncs", log.syncCount)
        if let lastSync = log.lastSync {
            line.append(",\"lastSyncAgoMs\":")
            line.append(integer: now.milliseconds(since: lastSync))
        }
        line.append(log.storageError ? ",\"storageError\":true" : ",\"storageError\":false")
        if let error = logOpenError ?? log.lastError?.description {
            line.append(",\"lastError\":")
            appendJSONString(&line, error)
        }
        line.append("}")
    }
}
