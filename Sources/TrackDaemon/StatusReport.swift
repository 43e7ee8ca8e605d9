import TrackCore
import TrackIO

/// Renders `DaemonStatus` as the text `trackctl status` prints, line by line into a reply.
extension DaemonStatus {
    func writeText(to reply: inout ReplyBuffer, now: MonotonicTime) {
        var line = TextBuffer()
        line.append("trackd    up ")
        appendDuration(&line, milliseconds: now.milliseconds(since: startedAt))
        line.append(", config ")
        line.append(string: configPath)
        if reloads > 0 {
            line.append(", reloaded ")
            line.append(integer: Int64(reloads))
            line.append("x")
        }
        emit(&line, &reply)
        if let lastReloadError {
            line.append("          last reload rejected: ")
            line.append(string: lastReloadError)
            emit(&line, &reply)
        }
        if let reloadNeedsRestart {
            line.append("          changed, applied when trackd restarts: ")
            line.append(string: reloadNeedsRestart)
            emit(&line, &reply)
        }
        if let fencesLoadError {
            line.append("          NO FENCES: not loaded at start: ")
            line.append(string: fencesLoadError)
            emit(&line, &reply)
        }

        line.append("receiver  ")
        line.append(string: source.path)
        if let baud = source.baud {
            line.append(" ")
            line.append(integer: Int64(baud))
            line.append(" baud")
        }
        line.append(source.isOpen ? ", open" : ", closed")
        line.append("; ")
        line.appendFixed(Int64(sentencesPerSecondTenths(now: now)), decimals: 1)
        line.append(" sentences/s; ")
        line.append(integer: Int64(counters.accepted))
        line.append(" accepted, ")
        line.append(integer: Int64(counters.badChecksum))
        line.append(" bad checksum, ")
        line.append(integer: Int64(counters.overlong + counters.malformed + counters.outOfRange))
        line.append(" malformed; ")
        appendBytes(&line, Int64(bytesRead))
        line.append(" received")
        if let lastByteAt {
            line.append(", the last ")
            appendDuration(&line, milliseconds: now.milliseconds(since: lastByteAt))
            line.append(" ago")
        }
        emit(&line, &reply)
        // The error that keeps it closed; once it is open again the journal has the story.
        if !source.isOpen, let error = source.lastError {
            line.append("          error: ")
            line.append(string: error.description)
            emit(&line, &reply)
        }

        line.append("fix       ")
        if let raw = lastFix, let at = lastFixAt {
            // As every output: the position as the permission lets it out, or a word why not.
            let disclosure = disclosure(now: now)
            let fix = raw.disclosed(disclosure)
            line.append(modeName(fix.mode))
            if let position = fix.position, fix.mode.rawValue >= FixMode.twoD.rawValue {
                line.append(", ")
                appendPosition(&line, position, separator: " ")
                if disclosure == .approximate { line.append(" (approximate)") }
            } else if raw.position != nil, fix.mode.rawValue >= FixMode.twoD.rawValue {
                line.append(", position withheld (")
                line.append(permissionName(permission.state))
                line.append(")")
            }
            if let accuracy = lastGoodAccuracyMillimetres, lastGoodFixAt == at, disclosure == .precise {
                line.append(", ±")
                line.appendFixed((accuracy + 50) / 100, decimals: 1)
                line.append(" m")
            }
            if let used = fix.satellitesUsed {
                line.append(", ")
                line.append(integer: Int64(used))
                line.append(" satellites")
            }
            line.append(", ")
            appendDuration(&line, milliseconds: now.milliseconds(since: at))
            line.append(" ago")
        } else {
            line.append("none yet")
        }
        if let ttff = firstFixAfterMilliseconds {
            line.append("; first fix after ")
            appendDuration(&line, milliseconds: ttff)
        }
        emit(&line, &reply)

        line.append("filter    ")
        line.append(integer: Int64(filter.accepted))
        line.append(" accepted, ")
        line.append(integer: Int64(filter.rejected))
        line.append(" rejected")
        if let lastRejection {
            line.append(" (last: ")
            line.append(rejectionName(lastRejection))
            line.append(")")
        }
        emit(&line, &reply)
        line.append("          ")
        filter.write(to: &line)
        emit(&line, &reply)

        line.append("privacy   ")
        writePrivacy(to: &line, now: now)
        if notAllowed > 0 {
            line.append("; ")
            line.append(integer: Int64(notAllowed))
            line.append(" fixes not logged")
        }
        emit(&line, &reply)
        if let stateProblem {
            line.append("          state file: ")
            line.append(string: stateProblem)
            emit(&line, &reply)
        }

        line.append("sampling  ")
        line.append(profile.name)
        line.append(" profile: ")
        line.append(integer: Int64(sampling.recorded))
        line.append(" recorded")
        if let lastTrigger {
            line.append(" (last: ")
            line.append(lastTrigger.name)
            line.append(")")
        }
        line.append("; ")
        line.append(integer: Int64(waypoints))
        line.append(" waypoints")
        if waypoints > 0 {
            line.append(" (last \"")
            lastWaypointLabel.write(to: &line)
            line.append("\")")
        }
        emit(&line, &reply)
        writeLogText(to: &line, &reply, now: now)

        writeBoard(to: &line)
        emit(&line, &reply)
        line.append("odometer  ")
        appendDistance(&line, millimetres: odometer.totalMillimetres)
        emit(&line, &reply)

        writeFencesText(to: &reply)

        line.append("control   ")
        line.append(string: controlPath)
        line.append(", ")
        line.append(integer: Int64(controlRefused))
        line.append(" refused, ")
        line.append(integer: Int64(controlDropped))
        line.append(" dropped; ")
        line.append(integer: Int64(wakeUps))
        line.append(" wake-ups")
        emit(&line, &reply)
    }
}

/// Ends `line`, moves it into `reply` and clears it.
func emit(_ line: inout TextBuffer, _ reply: inout ReplyBuffer) {
    line.append(UInt8(ascii: "\n"))
    reply.append(line)
    line.removeAll()
}

/// `1h02m`, `3m05s`, `12.3s`.
func appendDuration(_ line: inout TextBuffer, milliseconds: Int64) {
    let total = max(milliseconds, 0)
    if total < 60_000 {
        line.appendFixed(total / 100, decimals: 1)
        line.append("s")
    } else if total < 3_600_000 {
        line.append(integer: total / 60_000)
        line.append("m")
        line.append(integer: Int(total / 1000 % 60), width: 2)
        line.append("s")
    } else {
        line.append(integer: total / 3_600_000)
        line.append("h")
        line.append(integer: Int(total / 60_000 % 60), width: 2)
        line.append("m")
    }
}

/// `48.117300°N 11.516700°E` (six decimals, ~0.1 m), or `48.117300,11.516700` when plain.
func appendPosition(_ line: inout TextBuffer, _ position: Coordinate, separator: StaticString, plain: Bool = false) {
    let latitude = roundedMicrodegrees(position.latitudeNanodegrees)
    let longitude = roundedMicrodegrees(position.longitudeNanodegrees)
    if plain {
        line.appendFixed(latitude, decimals: 6)
        line.append(",")
        line.appendFixed(longitude, decimals: 6)
        return
    }
    line.appendFixed(latitude.magnitude == 0 ? 0 : Int64(latitude.magnitude), decimals: 6)
    line.append(latitude < 0 ? "°S" : "°N")
    line.append(separator)
    line.appendFixed(Int64(longitude.magnitude), decimals: 6)
    line.append(longitude < 0 ? "°W" : "°E")
}

func roundedMicrodegrees(_ nanodegrees: Int64) -> Int64 {
    nanodegrees >= 0 ? (nanodegrees + 500) / 1000 : -((-nanodegrees + 500) / 1000)
}

func modeName(_ mode: FixMode) -> StaticString {
    switch mode {
    case .unknown: "no data"
    case .noFix: "no fix"
    case .twoD: "2D"
    case .threeD: "3D"
    }
}
