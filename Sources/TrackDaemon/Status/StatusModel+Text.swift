import TrackCore
import TrackIO

/// Renders `DaemonStatus` as the text `trackctl status` prints, line by line into a reply.
extension StatusModel {
    func writeText(to reply: inout ReplyBuffer, now: MonotonicTime) {
        var line = TextBuffer()
        line.append("trackd    up ")
        appendDuration(&line, milliseconds: now.milliseconds(since: startedAt))
        line.append(", config ")
        line.append(string: daemon.configPath)
        if daemon.reloads > 0 {
            line.append(", reloaded ")
            line.append(integer: Int64(daemon.reloads))
            line.append("x")
        }
        emit(&line, &reply)
        if let lastReloadError = daemon.lastReloadError {
            line.append("          last reload rejected: ")
            line.append(string: lastReloadError)
            emit(&line, &reply)
        }
        if let reloadNeedsRestart = daemon.reloadNeedsRestart {
            line.append("          changed, applied when trackd restarts: ")
            line.append(string: reloadNeedsRestart)
            emit(&line, &reply)
        }
        if let loadError = fences.loadError {
            line.append("          NO FENCES: not loaded at start: ")
            line.append(string: loadError)
            emit(&line, &reply)
        }

        line.append("receiver  ")
        line.append(string: receiver.source.path)
        if let baud = receiver.source.baud {
            line.append(" ")
            line.append(integer: Int64(baud))
            line.append(" baud")
        }
        line.append(receiver.source.isOpen ? ", open" : ", closed")
        line.append("; ")
        line.appendFixed(Int64(sentencesPerSecondTenths), decimals: 1)
        line.append(" sentences/s; ")
        line.append(integer: Int64(receiver.counters.accepted))
        line.append(" accepted, ")
        line.append(integer: Int64(receiver.counters.badChecksum))
        line.append(" bad checksum, ")
        line.append(integer: Int64(receiver.counters.overlong + receiver.counters.malformed + receiver.counters.outOfRange))
        line.append(" malformed; ")
        appendBytes(&line, Int64(receiver.bytesRead))
        line.append(" received")
        if let lastByteAt = receiver.lastByteAt {
            line.append(", the last ")
            appendDuration(&line, milliseconds: now.milliseconds(since: lastByteAt))
            line.append(" ago")
        }
        emit(&line, &reply)
        // The error that keeps it closed; once it is open again the journal has the story.
        if !receiver.source.isOpen, let error = receiver.source.lastError {
            line.append("          error: ")
            line.append(string: error.description)
            emit(&line, &reply)
        }

        line.append("fix       ")
        if let raw = fixes.lastFix, let at = fixes.lastFixAt {
            // As every output: the position as the permission lets it out, or a word why not.
            let disclosure = privacy.disclosure
            let fix = raw.disclosed(disclosure)
            line.append(modeName(fix.mode))
            if let position = fix.position, fix.mode.rawValue >= FixMode.twoD.rawValue {
                line.append(", ")
                appendPosition(&line, position, separator: " ")
                if disclosure == .approximate { line.append(" (approximate)") }
            } else if raw.position != nil, fix.mode.rawValue >= FixMode.twoD.rawValue {
                line.append(", position withheld (")
                line.append(permissionName(privacy.permission.state))
                line.append(")")
            }
            if let accuracy = fixes.lastGoodAccuracyMillimetres, fixes.lastGoodFixAt == at, disclosure == .precise {
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
        if let ttff = fixes.firstFixAfterMilliseconds {
            line.append("; first fix after ")
            appendDuration(&line, milliseconds: ttff)
        }
        emit(&line, &reply)
        writePlaceText(to: &line)
        emit(&line, &reply)
        writeTimeText(to: &line)
        emit(&line, &reply)

        line.append("filter    ")
        line.append(integer: Int64(fixes.filter.counters.accepted))
        line.append(" accepted, ")
        line.append(integer: Int64(fixes.filter.counters.rejected))
        line.append(" rejected")
        if let lastRejection = fixes.lastRejection {
            line.append(" (last: ")
            line.append(rejectionName(lastRejection))
            line.append(")")
        }
        emit(&line, &reply)
        line.append("          ")
        fixes.filter.counters.write(to: &line)
        emit(&line, &reply)

        line.append("privacy   ")
        writePrivacy(to: &line, now: now)
        if fixes.notAllowed > 0 {
            line.append("; ")
            line.append(integer: Int64(fixes.notAllowed))
            line.append(" fixes not logged")
        }
        emit(&line, &reply)
        if let stateProblem = privacy.stateProblem {
            line.append("          state file: ")
            line.append(string: stateProblem)
            emit(&line, &reply)
        }

        line.append("sampling  ")
        line.append(fixes.profile.name)
        line.append(" profile: ")
        line.append(integer: Int64(fixes.sampling.counters.recorded))
        line.append(" recorded")
        if let lastTrigger = fixes.lastTrigger {
            line.append(" (last: ")
            line.append(lastTrigger.name)
            line.append(")")
        }
        line.append("; ")
        line.append(integer: Int64(waypoints.count))
        line.append(" waypoints")
        if waypoints.count > 0 {
            line.append(" (last \"")
            waypoints.lastLabel.write(to: &line)
            line.append("\")")
        }
        emit(&line, &reply)
        writeLogText(to: &line, &reply, now: now)

        writeBoard(to: &line)
        emit(&line, &reply)
        line.append("odometer  ")
        appendDistance(&line, millimetres: privacy.odometerMillimetres)
        emit(&line, &reply)

        writeFencesText(to: &reply)
        writeGpsdText(to: &reply)

        line.append("control   ")
        line.append(string: daemon.controlPath)
        line.append(", ")
        line.append(integer: Int64(daemon.controlRefused))
        line.append(" refused, ")
        line.append(integer: Int64(daemon.controlDropped))
        line.append(" dropped; ")
        line.append(integer: Int64(daemon.wakeUps))
        line.append(" wake-ups")
        emit(&line, &reply)
    }
}


extension StatusModel {
    /// `always, precise` / `not-determined (nothing is logged)` / `always, precise for 29m10s more`.
    func writePrivacy(to line: inout TextBuffer, now: MonotonicTime) {
        Self.writePrivacy(privacy.permission, mayLog: privacy.mayLog, to: &line, now: now)
    }

    /// The words of `writePrivacy` for a permission and whether it lets fixes be logged now.
    static func writePrivacy(_ permission: Permission, mayLog: Bool, to line: inout TextBuffer, now: MonotonicTime) {
        line.append(permissionName(permission.state))
        line.append(", ")
        line.append(permission.effectiveAccuracy(now: now) == .precise ? "precise" : "approximate (1 km grid, no fences)")
        if let until = permission.preciseUntil, until > now {
            line.append(" for ")
            appendDuration(&line, milliseconds: until.milliseconds(since: now))
            line.append(" more")
        }
        if !mayLog {
            line.append(permission.state == .whenInUse ? " (logging on trips only)" : " (nothing is logged)")
        }
    }
}
