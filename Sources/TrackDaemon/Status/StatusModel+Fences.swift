import TrackCore
import TrackIO

/// The fences in `trackctl status` (text and JSON).
extension StatusModel {
    /// `fences    5 from /etc/trackd/fences.geojson, 1 inside; 12 events (last: enter cafe-stop
    /// at 2010-02-01T12:53:45.000Z); commands 3 started, 0 running, 0 skipped, 0 failed`.
    func writeFencesText(to reply: inout ReplyBuffer) {
        var line = TextBuffer()
        line.append("fences    ")
        line.append(integer: Int64(fences.count))
        line.append(" from ")
        line.append(string: fences.file)
        line.append(", ")
        line.append(integer: Int64(fences.inside))
        line.append(" inside")
        if fences.count > 0 && !fences.evaluated {
            line.append(" (not evaluated: permission, approximate mode or no fix)")
        }
        line.append("; ")
        line.append(integer: Int64(fences.events))
        line.append(" events")
        if let event = fences.lastEvent {
            line.append(" (last: ")
            line.append(event.transition.name)
            line.append(" ")
            line.append(string: event.id)
            line.append(" at ")
            event.time.write(to: &line)
            line.append(")")
        }
        emit(&line, &reply)
        line.append("          commands ")
        line.append(integer: Int64(fences.commands.started))
        line.append(" started, ")
        line.append(integer: Int64(fences.commands.running))
        line.append(" running, ")
        line.append(integer: Int64(fences.commands.skipped + fences.commands.dropped))
        line.append(" skipped, ")
        line.append(integer: Int64(fences.commands.failedToStart + fences.commands.failedExits))
        line.append(" failed")
        emit(&line, &reply)
    }

    /// `"fences":{…}` for `status json`, with a leading comma.
    func writeFencesJSON(to line: inout TextBuffer) {
        line.append(",\"fences\":{")
        appendCounter(&line, "count", fences.count, first: true)
        appendCounter(&line, "inside", fences.inside)
        line.append(fences.evaluated ? ",\"evaluated\":true" : ",\"evaluated\":false")
        appendCounter(&line, "events", fences.events)
        if let event = fences.lastEvent {
            line.append(",\"lastEvent\":{\"fence\":")
            line.appendJSONString(event.id)
            line.append(",\"event\":\"")
            line.append(event.transition.name)
            line.append("\",\"time\":\"")
            event.time.write(to: &line)
            line.append("\"}")
        }
        line.append(",\"commands\":{")
        appendCounter(&line, "started", fences.commands.started, first: true)
        appendCounter(&line, "running", fences.commands.running)
        appendCounter(&line, "skipped", fences.commands.skipped + fences.commands.dropped)
        appendCounter(&line, "failedToStart", fences.commands.failedToStart)
        appendCounter(&line, "failedExits", fences.commands.failedExits)
        line.append("}}")
    }
}
