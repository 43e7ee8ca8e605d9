import TrackCore
import TrackIO

extension StatusModel.FenceFacts {
    /// `fences    5 from /etc/trackd/fences.geojson, 1 inside; 12 events (last: enter cafe-stop
    /// at 2010-02-01T12:53:45.000Z)` and `commands 3 started, 0 running, 0 skipped, 0 failed`.
    func report(to report: inout StatusReport) {
        report.line("fences")
        report.object("fences")
        report.count("count", count)
        report.string(nil, file, " from ")
        report.count("inside", inside, ", ", " inside")
        report.flag("evaluated", evaluated, shown: .json)
        if count > 0 && !evaluated { report.words(" (not evaluated: permission, approximate mode or no fix)") }
        report.count("events", events, "; ", " events")
        if let lastEvent {
            report.words(" (last: ")
            report.object("lastEvent")
            report.string("fence", lastEvent.id, shown: .json)
            report.name("event", lastEvent.transition.name, "", " ")
            report.string(nil, lastEvent.id)
            report.words(" at ")
            report.words { lastEvent.time.write(to: &$0) }
            report.member("time") { line in
                line.append(UInt8(ascii: "\""))
                lastEvent.time.write(to: &line)
                line.append(UInt8(ascii: "\""))
            }
            report.words(")")
            report.endObject()
        }
        report.indented()
        report.object("commands")
        report.count("started", commands.started, "commands ", " started, ")
        report.count("running", commands.running, "", " running, ")
        report.count("skipped", commands.skipped + commands.dropped, "", " skipped, ")
        report.count("failedToStart", commands.failedToStart, shown: .json)
        report.count("failedExits", commands.failedExits, shown: .json)
        report.count(nil, commands.failedToStart + commands.failedExits, "", " failed")
        report.endObject()
        report.endObject()
    }
}
