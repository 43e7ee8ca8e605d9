import TrackCore
import TrackIO

extension Doctor {
    /// Below this many free bytes the log's partition counts as nearly full (two 1 MiB segments).
    static var lowSpaceBytes: Int { 2 << 20 }

    /// The track log link: the directory opened (exists, writable), free space on its
    /// partition, and the last write or sync error. False when it is broken (the lines say why).
    static func diagnoseLog(_ status: StatusModel, line: inout TextBuffer, reply: inout ReplyBuffer) -> Bool {
        if let problem = status.log.openError {
            line.append("error storage: the track log is not written: ")
            line.append(string: problem)
            emit(&line, &reply)
            line.append("check that `directory` in [log] exists (or can be created) and trackd's user may write it")
            emit(&line, &reply)
            return false
        }
        if let reason = status.log.status.blocked {
            line.append("error storage: nothing is written to the track log: ")
            line.append(string: status.log.status.lastError?.description ?? "")
            emit(&line, &reply)
            status.log.writeBlocked(reason, to: &line)
            emit(&line, &reply)
            line.append("every synced record is kept; ")
            line.append(integer: Int64(status.log.status.droppedFixCount))
            line.append(" fixes not written so far")
            emit(&line, &reply)
            return false
        }
        var files = PosixLogFiles()
        guard files.isWritable(status.log.directory) else {
            line.append("error storage: ")
            line.append(string: status.log.directory)
            line.append(" is not writable")
            emit(&line, &reply)
            line.append("give trackd's user write access to the [log] directory (or a read-only file system?)")
            emit(&line, &reply)
            return false
        }
        if status.log.status.flashSuspect, let error = status.log.status.lastError {
            line.append("error storage: ")
            line.append(string: error.description)
            emit(&line, &reply)
            line.append("the flash failed a write or sync: records went to a new segment; check the card")
            emit(&line, &reply)
            line.append("(dmesg), run `trackctl log verify`, and restart trackd to clear the storage LED")
            emit(&line, &reply)
            return false
        }
        let free = (try? files.availableBytes(in: status.log.directory)) ?? -1
        if free >= 0 && free < lowSpaceBytes {
            line.append("error storage: only ")
            line.append(integer: Int64(free))
            line.append(" bytes free for ")
            line.append(string: status.log.directory)
            emit(&line, &reply)
            line.append("lower `quota` in [log] or free space on the partition")
            emit(&line, &reply)
            return false
        }
        line.append("ok storage: ")
        line.append(string: status.log.directory)
        line.append(" writable, ")
        line.append(integer: Int64(free / (1 << 20)))
        line.append(" MiB free, ")
        line.append(integer: Int64(status.log.status.segmentCount))
        line.append(" segments")
        emit(&line, &reply)
        return true
    }
}
