import TrackCore
import TrackIO

/// The fences in `trackctl status` (text and JSON) and the `fence list` request.
extension DaemonStatus {
    /// `fences    5 from /etc/trackd/fences.geojson, 1 inside; 12 events (last: enter cafe-stop
    /// at 2010-02-01T12:53:45.000Z); commands 3 started, 0 running, 0 skipped, 0 failed`.
    func writeFencesText(to reply: inout ReplyBuffer) {
        var line = TextBuffer()
        line.append("fences    ")
        line.append(integer: Int64(fences.fences.count))
        line.append(" from ")
        line.append(string: fencesFile)
        line.append(", ")
        line.append(integer: Int64(fencesInside))
        line.append(" inside")
        if fences.fences.count > 0 && !fencesEvaluated {
            line.append(" (not evaluated: permission, approximate mode or no fix)")
        }
        line.append("; ")
        line.append(integer: Int64(fenceEvents))
        line.append(" events")
        if let event = lastFenceEvent, event.fence < fences.fences.count {
            line.append(" (last: ")
            line.append(event.transition.name)
            line.append(" ")
            line.append(string: fences.fences.fences[event.fence].id)
            line.append(" at ")
            event.time.write(to: &line)
            line.append(")")
        }
        emit(&line, &reply)
        line.append("          commands ")
        line.append(integer: Int64(fenceCommands.started))
        line.append(" started, ")
        line.append(integer: Int64(fenceCommands.running))
        line.append(" running, ")
        line.append(integer: Int64(fenceCommands.skipped + fenceCommands.dropped))
        line.append(" skipped, ")
        line.append(integer: Int64(fenceCommands.failedToStart + fenceCommands.failedExits))
        line.append(" failed")
        emit(&line, &reply)
    }

    /// `"fences":{…}` for `status json`, with a leading comma.
    func writeFencesJSON(to line: inout TextBuffer) {
        line.append(",\"fences\":{")
        appendCounter(&line, "count", fences.fences.count, first: true)
        appendCounter(&line, "inside", fencesInside)
        line.append(fencesEvaluated ? ",\"evaluated\":true" : ",\"evaluated\":false")
        appendCounter(&line, "events", fenceEvents)
        if let event = lastFenceEvent, event.fence < fences.fences.count {
            line.append(",\"lastEvent\":{\"fence\":")
            appendJSONString(&line, fences.fences.fences[event.fence].id)
            line.append(",\"event\":\"")
            line.append(event.transition.name)
            line.append("\",\"time\":\"")
            event.time.write(to: &line)
            line.append("\"}")
        }
        line.append(",\"commands\":{")
        appendCounter(&line, "started", fenceCommands.started, first: true)
        appendCounter(&line, "running", fenceCommands.running)
        appendCounter(&line, "skipped", fenceCommands.skipped + fenceCommands.dropped)
        appendCounter(&line, "failedToStart", fenceCommands.failedToStart)
        appendCounter(&line, "failedExits", fenceCommands.failedExits)
        line.append("}}")
    }

    /// `fence list`: one line per fence, `ID STATE since TIME` (`since start` before any fix
    /// decided it), as many as the reply holds, then how many more there are.
    func writeFenceList(to reply: inout ReplyBuffer) {
        var line = TextBuffer()
        line.append("ok")
        let set = fences.fences
        let tracks = fences.tracks
        for index in 0..<set.count {
            // Leave room for the last line.
            guard reply.count + line.count < ControlServer.replyCapacity - 200 else {
                line.append("… and ")
                line.append(integer: Int64(set.count - index))
                line.append(" more fences")
                emit(&line, &reply)
                return
            }
            emit(&line, &reply)
            line.append(string: set.fences[index].id)
            line.append(" ")
            line.append(tracks[index].state.name)
            if let since = tracks[index].sinceMilliseconds {
                line.append(" since ")
                UTCTime(millisecondsSinceEpoch: since).write(to: &line)
            } else {
                line.append(" since start")
            }
        }
        if set.count == 0 {
            line.append("no fences (")
            line.append(string: fencesFile)
            line.append(" is missing or empty)")
        }
        emit(&line, &reply)
    }
}
