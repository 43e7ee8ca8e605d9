import TrackCore
import TrackIO

/// `status json`: the same facts as the text view, one JSON object on one line, for scripts.
/// Units: seconds, metres, degrees; absent values are left out.
extension DaemonStatus {
    func writeJSON(to reply: inout ReplyBuffer, now: MonotonicTime) {
        var line = TextBuffer()
        line.append("{\"uptime\":")
        line.appendFixed(now.milliseconds(since: startedAt), decimals: 3)
        line.append(",\"receiver\":{\"path\":")
        appendJSONString(&line, source.path)
        if let baud = source.baud {
            line.append(",\"baud\":")
            line.append(integer: Int64(baud))
        }
        line.append(source.isOpen ? ",\"open\":true" : ",\"open\":false")
        line.append(",\"opens\":")
        line.append(integer: Int64(source.opens))
        if let error = source.lastError {
            line.append(",\"error\":")
            appendJSONString(&line, error.description)
        }
        line.append(",\"sentencesPerSecond\":")
        line.appendFixed(Int64(sentencesPerSecondTenths(now: now)), decimals: 1)
        line.append(",\"bytes\":")
        line.append(integer: Int64(bytesRead))
        reply.append(line)
        line.removeAll()
        line.append(",\"counters\":{")
        appendCounter(&line, "accepted", counters.accepted, first: true)
        appendCounter(&line, "badChecksum", counters.badChecksum)
        appendCounter(&line, "overlong", counters.overlong)
        appendCounter(&line, "unknown", counters.unknown)
        appendCounter(&line, "proprietary", counters.proprietary)
        appendCounter(&line, "outOfRange", counters.outOfRange)
        appendCounter(&line, "malformed", counters.malformed)
        appendCounter(&line, "fixes", counters.fixes)
        line.append("}}")
        reply.append(line)
        line.removeAll()
        let disclosure = disclosure(now: now)
        line.append(disclosure == .precise ? ",\"disclosure\":\"precise\""
                    : disclosure == .approximate ? ",\"disclosure\":\"approximate\"" : ",\"disclosure\":\"withheld\"")
        if let fix = lastFix, let at = lastFixAt {
            line.append(",\"fix\":")
            reply.append(line)
            line.removeAll()
            fix.disclosed(disclosure).writeJSON(to: &line)
            reply.append(line)
            line.removeAll()
            line.append(",\"fixAge\":")
            line.appendFixed(now.milliseconds(since: at), decimals: 3)
        }
        if let accuracy = lastGoodAccuracyMillimetres, disclosure == .precise {
            line.append(",\"accuracy\":")
            line.appendFixed(accuracy, decimals: 3)
        }
        if let ttff = firstFixAfterMilliseconds {
            line.append(",\"timeToFirstFix\":")
            line.appendFixed(ttff, decimals: 3)
        }
        line.append(",\"filter\":{")
        appendCounter(&line, "accepted", filter.accepted, first: true)
        appendCounter(&line, "invalid", filter.invalid)
        appendCounter(&line, "noPosition", filter.noPosition)
        appendCounter(&line, "noTime", filter.noTime)
        appendCounter(&line, "stale", filter.stale)
        appendCounter(&line, "tooFewSatellites", filter.tooFewSatellites)
        appendCounter(&line, "inaccurate", filter.inaccurate)
        appendCounter(&line, "implausibleJump", filter.implausibleJump)
        if let lastRejection {
            line.append(",\"lastRejection\":\"")
            line.append(rejectionName(lastRejection))
            line.append("\"")
        }
        reply.append(line)
        line.removeAll()
        line.append("},\"sampling\":{\"profile\":\"")
        line.append(profile.name)
        line.append("\"")
        appendCounter(&line, "recorded", sampling.recorded)
        if let lastTrigger {
            line.append(",\"lastTrigger\":\"")
            line.append(lastTrigger.name)
            line.append("\"")
        }
        line.append("},\"permission\":{\"state\":\"")
        line.append(permissionName(permission.state))
        line.append(permission.effectiveAccuracy(now: now) == .precise ? "\",\"accuracy\":\"precise\"" : "\",\"accuracy\":\"approximate\"")
        line.append(permission.mayLog(inUse: gpio.inUse, onTrip: tripCounts, now: now) ? ",\"logging\":true" : ",\"logging\":false")
        appendCounter(&line, "notLogged", notAllowed)
        reply.append(line)
        line.removeAll()
        if let stateProblem {
            line.append(",\"stateProblem\":")
            appendJSONString(&line, stateProblem)
        }
        line.append("}")
        writeFencesJSON(to: &line)
        reply.append(line)
        line.removeAll()
        line.append(",\"waypoints\":")
        line.append(integer: Int64(waypoints))
        reply.append(line)
        line.removeAll()
        writeLogJSON(to: &line, now: now)
        line.append(",\"control\":{\"refused\":")
        line.append(integer: Int64(controlRefused))
        line.append(",\"dropped\":")
        line.append(integer: Int64(controlDropped))
        line.append("},\"wakeUps\":")
        line.append(integer: Int64(wakeUps))
        writeBoardJSON(to: &line)
        line.append(",\"reloads\":")
        line.append(integer: Int64(reloads))
        line.append("}\n")
        reply.append(line)
    }
}

func appendCounter(_ line: inout TextBuffer, _ name: StaticString, _ value: Int, first: Bool = false) {
    if !first { line.append(",") }
    line.append("\"")
    line.append(name)
    line.append("\":")
    line.append(integer: Int64(value))
}

/// A JSON string literal (`TextBuffer.appendJSONString`).
func appendJSONString(_ line: inout TextBuffer, _ text: String) {
    line.appendJSONString(text)
}
