import TrackCore
import TrackIO

/// The `time` line of `trackctl status`, the `time` object of `status --json` and doctor's
/// `time` line: the NTP shared-memory unit trackd writes the receiver's time to.
extension StatusModel {
    /// What the time service did.
    struct TimeFacts {
        /// The unit asked for; nil when `[time] shm = off`.
        var unit: Int?
        /// Why it is not attached, e.g. `unit 0 (key 0x4E545030): Permission denied`.
        var problem: String?
        var samples = 0
        /// Receiver minus system clock at the last sample, ns; when it was written.
        var lastOffsetNanoseconds: Int64?
        var lastSampleAt: MonotonicTime?
    }

    /// `time      NTP shm unit 0: 120 samples, last 0.4s ago, system clock 0.043 s behind`, or
    /// `off ([time] shm = off)`, `error: unit 0 (key 0x4E545030): …`, `… no sample yet`.
    func writeTimeText(to line: inout TextBuffer) {
        line.append("time      ")
        guard let unit = time.unit else {
            line.append("off ([time] shm = off)")
            return
        }
        if let problem = time.problem {
            line.append("error: NTP shared memory ")
            line.append(string: problem)
            return
        }
        line.append("NTP shm unit ")
        line.append(integer: Int64(unit))
        line.append(": ")
        line.append(integer: Int64(time.samples))
        line.append(time.samples == 1 ? " sample" : " samples")
        guard let offset = time.lastOffsetNanoseconds, let at = time.lastSampleAt else {
            line.append(", none yet (a good fix with a date writes one)")
            return
        }
        line.append(", last ")
        appendDuration(&line, milliseconds: now.milliseconds(since: at))
        line.append(" ago, system clock ")
        line.appendFixed((offset < 0 ? -offset : offset) / 1_000_000, decimals: 3)
        line.append(offset < 0 ? " s ahead" : " s behind")
    }

    /// `,"time":{"unit":0,"samples":120,"offset":0.043}` (offset: receiver minus system, s);
    /// `"problem"` when the unit is not attached; `{"unit":null}` is never sent: off is
    /// `{"enabled":false}`.
    func writeTimeJSON(to line: inout TextBuffer) {
        line.append(",\"time\":{")
        guard let unit = time.unit else {
            line.append("\"enabled\":false}")
            return
        }
        line.append("\"unit\":")
        line.append(integer: Int64(unit))
        if let problem = time.problem {
            line.append(",\"problem\":")
            line.appendJSONString(problem)
        }
        appendCounter(&line, "samples", time.samples)
        if let offset = time.lastOffsetNanoseconds {
            line.append(",\"offset\":")
            line.appendFixed(offset / 1_000_000, decimals: 3)
        }
        line.append("}")
    }
}

extension Doctor {
    /// The time for chrony, beside the chain (logging does not need it): an error when the unit
    /// could not be attached, what it does otherwise.
    static func diagnoseTime(_ status: StatusModel, line: inout TextBuffer, reply: inout ReplyBuffer) {
        guard let unit = status.time.unit else { return }
        if let problem = status.time.problem {
            line.append("error time: NTP shared memory ")
            line.append(string: problem)
            emit(&line, &reply)
            line.append("chrony gets no time from trackd; another program (gpsd?) may own the segment, or trackd's")
            emit(&line, &reply)
            line.append("user cannot use units 0 and 1 (root only): set [time] shm = 2 and `refclock SHM 2:perm=0666` in chrony")
            emit(&line, &reply)
            return
        }
        line.append("ok time: NTP shm unit ")
        line.append(integer: Int64(unit))
        line.append(", ")
        line.append(integer: Int64(status.time.samples))
        line.append(status.time.samples == 1 ? " sample written" : " samples written")
        emit(&line, &reply)
    }
}
