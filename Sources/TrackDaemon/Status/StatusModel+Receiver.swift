import TrackCore
import TrackIO

extension StatusModel.ReceiverFacts {
    /// `receiver  /dev/serial0 9600 baud, open; 1.0 sentences/s; 5 accepted, 0 bad checksum,
    /// 0 malformed; 25 KiB received, the last 0.6s ago`, and the error that keeps it closed.
    func report(to report: inout StatusReport, now: MonotonicTime) {
        report.line("receiver")
        report.object("receiver")
        report.string("path", source.path)
        if let baud = source.baud { report.count("baud", baud, " ", " baud") }
        report.flag("open", source.isOpen, ifTrue: ", open", ifFalse: ", closed")
        report.count("opens", source.opens, shown: .json)
        if let error = source.lastError { report.string("error", error.description, shown: .json) }
        let tenths = sentencesPerSecondTenths(now: now)
        report.fixed("sentencesPerSecond", Int64(tenths), decimals: 1, "; ", " sentences/s; ")
        report.object("counters")
        report.count("accepted", counters.accepted, "", " accepted, ")
        report.count("badChecksum", counters.badChecksum, "", " bad checksum, ")
        report.count("overlong", counters.overlong, shown: .json)
        report.count("unknown", counters.unknown, shown: .json)
        report.count("proprietary", counters.proprietary, shown: .json)
        report.count("outOfRange", counters.outOfRange, shown: .json)
        report.count("malformed", counters.malformed, shown: .json)
        report.count(nil, counters.overlong + counters.malformed + counters.outOfRange, "", " malformed; ")
        report.count("fixes", counters.fixes, shown: .json)
        report.endObject()
        report.bytes("bytes", Int64(bytesRead), "", " received")
        if let lastByteAt {
            report.duration(nil, milliseconds: now.milliseconds(since: lastByteAt), ", the last ", " ago")
        }
        controller.report(to: &report, now: now)
        report.endObject()
        // The error that keeps it closed; once it is open again the journal has the story.
        if !source.isOpen, let error = source.lastError {
            report.indented()
            report.string(nil, error.description, "error: ")
        }
    }
}
