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
        /// Receiver minus system clock at the last sample, ns.
        var lastOffsetNanoseconds: Int64?
    }
}

extension StatusModel.TimeFacts {
    /// `time      NTP shm unit 0: 120 samples, system clock 0.043 s behind`, or `off ([time]
    /// shm = off, or a replay)`, `error: NTP shared memory unit 2: Permission denied`. The JSON
    /// `"time":{"unit":0,"samples":120,"offset":0.043}` (offset: receiver minus system, s).
    func report(to report: inout StatusReport) {
        report.line("time")
        report.object("time")
        defer { report.endObject() }
        guard let unit else {
            report.flag("enabled", false, ifFalse: "off ([time] shm = off, or a replay)")
            return
        }
        if let problem {
            report.count("unit", unit, shown: .json)
            report.string("problem", problem, "error: NTP shared memory ")
            report.count("samples", samples, shown: .json)
            return
        }
        report.count("unit", unit, "NTP shm unit ", ": ")
        report.count("samples", samples, "", " samples")
        guard let offset = lastOffsetNanoseconds else { return }
        report.fixed(nil, (offset < 0 ? -offset : offset) / 1_000_000, decimals: 3, ", system clock ",
                     offset < 0 ? " s ahead" : " s behind")
        report.fixed("offset", offset / 1_000_000, decimals: 3, shown: .json)
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
            line.append("chrony gets no time from trackd: see docs/time.md (another program's segment, or perm=0666)")
            emit(&line, &reply)
            return
        }
        line.append("ok time: NTP shm unit ")
        line.append(integer: Int64(unit))
        line.append(", ")
        line.append(integer: Int64(status.time.samples))
        line.append(" samples written")
        emit(&line, &reply)
    }
}
