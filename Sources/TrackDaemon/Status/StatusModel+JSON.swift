import TrackCore
import TrackIO

/// `status json`: the same facts as the text view, one JSON object on one line, for scripts.
/// Units: seconds, metres, degrees; absent values are left out.
extension StatusModel {
    func writeJSON(to reply: inout ReplyBuffer, now: MonotonicTime) {
        var line = TextBuffer()
        line.append("{\"uptime\":")
        line.appendFixed(now.milliseconds(since: startedAt), decimals: 3)
        line.append(",\"receiver\":{\"path\":")
        line.appendJSONString(receiver.source.path)
        if let baud = receiver.source.baud {
            line.append(",\"baud\":")
            line.append(integer: Int64(baud))
        }
        line.append(receiver.source.isOpen ? ",\"open\":true" : ",\"open\":false")
        line.append(",\"opens\":")
        line.append(integer: Int64(receiver.source.opens))
        if let error = receiver.source.lastError {
            line.append(",\"error\":")
            line.appendJSONString(error.description)
        }
        line.append(",\"sentencesPerSecond\":")
        line.appendFixed(Int64(sentencesPerSecondTenths), decimals: 1)
        line.append(",\"bytes\":")
        line.append(integer: Int64(receiver.bytesRead))
        reply.append(&line)
        line.removeAll()
        line.append(",\"counters\":{")
        appendCounter(&line, "accepted", receiver.counters.accepted, first: true)
        appendCounter(&line, "badChecksum", receiver.counters.badChecksum)
        appendCounter(&line, "overlong", receiver.counters.overlong)
        appendCounter(&line, "unknown", receiver.counters.unknown)
        appendCounter(&line, "proprietary", receiver.counters.proprietary)
        appendCounter(&line, "outOfRange", receiver.counters.outOfRange)
        appendCounter(&line, "malformed", receiver.counters.malformed)
        appendCounter(&line, "fixes", receiver.counters.fixes)
        line.append("}}")
        reply.append(&line)
        line.removeAll()
        let disclosure = privacy.disclosure
        line.append(disclosure == .precise ? ",\"disclosure\":\"precise\""
                    : disclosure == .approximate ? ",\"disclosure\":\"approximate\"" : ",\"disclosure\":\"withheld\"")
        if let fix = fixes.lastFix, let at = fixes.lastFixAt {
            line.append(",\"fix\":")
            reply.append(&line)
            line.removeAll()
            fix.disclosed(disclosure).writeJSON(to: &line)
            reply.append(&line)
            line.removeAll()
            line.append(",\"fixAge\":")
            line.appendFixed(now.milliseconds(since: at), decimals: 3)
        }
        if let accuracy = fixes.lastGoodAccuracyMillimetres, disclosure == .precise {
            line.append(",\"accuracy\":")
            line.appendFixed(accuracy, decimals: 3)
        }
        if let ttff = fixes.firstFixAfterMilliseconds {
            line.append(",\"timeToFirstFix\":")
            line.appendFixed(ttff, decimals: 3)
        }
        reply.append(&line)
        line.removeAll()
        writePlaceJSON(to: &line)
        writeTimeJSON(to: &line)
        line.append(",\"filter\":{")
        appendCounter(&line, "accepted", fixes.filter.counters.accepted, first: true)
        appendCounter(&line, "invalid", fixes.filter.counters.invalid)
        appendCounter(&line, "noPosition", fixes.filter.counters.noPosition)
        appendCounter(&line, "noTime", fixes.filter.counters.noTime)
        appendCounter(&line, "stale", fixes.filter.counters.stale)
        appendCounter(&line, "tooFewSatellites", fixes.filter.counters.tooFewSatellites)
        appendCounter(&line, "inaccurate", fixes.filter.counters.inaccurate)
        appendCounter(&line, "implausibleJump", fixes.filter.counters.implausibleJump)
        if let lastRejection = fixes.lastRejection {
            line.append(",\"lastRejection\":\"")
            line.append(rejectionName(lastRejection))
            line.append("\"")
        }
        reply.append(&line)
        line.removeAll()
        line.append("},\"sampling\":{\"profile\":\"")
        line.append(fixes.profile.name)
        line.append("\"")
        appendCounter(&line, "recorded", fixes.sampling.counters.recorded)
        if let lastTrigger = fixes.lastTrigger {
            line.append(",\"lastTrigger\":\"")
            line.append(lastTrigger.name)
            line.append("\"")
        }
        line.append("},\"permission\":{\"state\":\"")
        line.append(permissionName(privacy.permission.state))
        line.append(privacy.permission.effectiveAccuracy(now: now) == .precise ? "\",\"accuracy\":\"precise\"" : "\",\"accuracy\":\"approximate\"")
        line.append(privacy.permission.mayLog(inUse: gpio.inUse, onTrip: privacy.tripCounts, now: now) ? ",\"logging\":true" : ",\"logging\":false")
        appendCounter(&line, "notLogged", fixes.notAllowed)
        reply.append(&line)
        line.removeAll()
        if let stateProblem = privacy.stateProblem {
            line.append(",\"stateProblem\":")
            line.appendJSONString(stateProblem)
        }
        line.append("}")
        writeFencesJSON(to: &line)
        reply.append(&line)
        line.removeAll()
        line.append(",\"waypoints\":")
        line.append(integer: Int64(waypoints.count))
        reply.append(&line)
        line.removeAll()
        writeLogJSON(to: &line, now: now)
        reply.append(&line)
        line.removeAll()
        writeGpsdJSON(to: &line)
        line.append(",\"control\":{\"refused\":")
        line.append(integer: Int64(daemon.controlRefused))
        line.append(",\"dropped\":")
        line.append(integer: Int64(daemon.controlDropped))
        line.append("},\"wakeUps\":")
        line.append(integer: Int64(daemon.wakeUps))
        writeBoardJSON(to: &line)
        line.append(",\"reloads\":")
        line.append(integer: Int64(daemon.reloads))
        line.append("}\n")
        reply.append(&line)
    }
}

