import TrackCore
import TrackIO

/// `trackctl doctor`: walks the chain a person would check by hand — port, data, baud,
/// sentences, fix, filter, permission, storage — and names the first broken link with what to
/// do about it. Each link is judged on the last few seconds, not on totals since start: a
/// receiver that sent good data for an hour and garbage now is broken now. Beside the chain,
/// always reported: the configuration (a rejected reload, fences that did not load) and GPIO.
///
/// Lines start with `ok`, `wait` (too early to tell: just started) or `error`.
enum Doctor {
    /// The receiver counts as silent, and a fix as old, after 5 s without them.
    static let silenceMilliseconds: Int64 = 5_000

    static func diagnose(_ status: StatusModel, now: MonotonicTime, reply: inout ReplyBuffer) {
        var line = TextBuffer()
        let besides = reply.count
        diagnoseConfiguration(status, line: &line, reply: &reply)
        // LEDs and button: their own link, beside the chain from port to storage (logging does
        // not need them), so it is always reported.
        diagnoseGPIO(status, line: &line, reply: &reply)
        diagnoseTime(status, line: &line, reply: &reply)
        diagnoseReceiverControl(status, line: &line, reply: &reply)
        let besideTheChainFailed = reply.contains(prefix: "error", from: besides)
        // A receiver asleep (power save) sends nothing, by plan: data to filter are not judged.
        guard diagnosePort(status, line: &line, reply: &reply),
              diagnoseAsleep(status, now: now, line: &line, reply: &reply)
                || diagnoseData(status, now: now, line: &line, reply: &reply)
                && diagnoseSentences(status, now: now, line: &line, reply: &reply)
                && diagnoseFix(status, now: now, line: &line, reply: &reply)
                && diagnoseFilter(status, now: now, line: &line, reply: &reply),
              diagnosePermission(status, now: now, line: &line, reply: &reply) else { return }
        // The track log first: when its file system is full or read-only, that is what to fix,
        // and the state file, on the same card, fails for the same reason (a board test saw the
        // state's save fail first and doctor name only it).
        guard diagnoseLog(status, line: &line, reply: &reply) else { return }
        if let problem = status.privacy.stateProblem {
            line.append("error storage: ")
            line.append(string: problem)
            emit(&line, &reply)
            line.append("check that the directory of [state] file exists and is writable")
            emit(&line, &reply)
            return
        }
        line.append(besideTheChainFailed ? "ok the chain from port to log works; the errors above are beside it"
                    : "ok all links work")
        emit(&line, &reply)
    }

    /// A rejected SIGHUP (the running configuration is the old one, and the file on disk would
    /// not start), and fences that did not load at start.
    static func diagnoseConfiguration(_ status: StatusModel, line: inout TextBuffer, reply: inout ReplyBuffer) {
        if let error = status.daemon.lastReloadError {
            line.append("error config: the last reload was rejected: ")
            line.append(string: error)
            emit(&line, &reply)
            line.append("trackd runs the configuration it had; fix the file (trackd --check) and send SIGHUP again,")
            emit(&line, &reply)
            line.append("or trackd will not start with it after the next reboot")
            emit(&line, &reply)
        }
        if let keys = status.daemon.reloadNeedsRestart {
            line.append("error config: changed by the last reload but applied only when trackd restarts: ")
            line.append(string: keys)
            emit(&line, &reply)
            line.append("restart trackd (systemctl restart trackd) to apply them")
            emit(&line, &reply)
        }
        if let error = status.fences.loadError {
            line.append("error fences: not loaded at start: ")
            line.append(string: error)
            emit(&line, &reply)
            line.append("trackd tracks without fences: fix the file (trackctl fence validate FILE) and send SIGHUP")
            emit(&line, &reply)
        }
    }

    static func diagnosePort(_ status: StatusModel, line: inout TextBuffer, reply: inout ReplyBuffer) -> Bool {
        guard status.receiver.source.isOpen else {
            line.append("error port: ")
            line.append(string: status.receiver.source.path)
            line.append(" is not open")
            if let error = status.receiver.source.lastError {
                line.append(" (")
                line.append(string: error.description)
                line.append(")")
                emit(&line, &reply)
                line.append(advice(for: error))
            } else {
                emit(&line, &reply)
                line.append("check `device` in [receiver] of the configuration")
            }
            emit(&line, &reply)
            return false
        }
        line.append("ok port: ")
        line.append(string: status.receiver.source.path)
        line.append(" is open")
        emit(&line, &reply)
        return true
    }

    /// Bytes in the last 5 s; none yet in the first 5 s after start is too early to tell.
    static func diagnoseData(_ status: StatusModel, now: MonotonicTime, line: inout TextBuffer,
                             reply: inout ReplyBuffer) -> Bool {
        let uptime = now.milliseconds(since: status.startedAt)
        guard let lastByteAt = status.receiver.lastByteAt else {
            if uptime <= silenceMilliseconds {
                line.append("wait data: no bytes from the receiver yet; trackd started ")
                appendDuration(&line, milliseconds: uptime)
                line.append(" ago: ask again in a few seconds")
            } else {
                line.append("error data: nothing received from the receiver since trackd started ")
                appendDuration(&line, milliseconds: uptime)
                line.append(" ago")
                emit(&line, &reply)
                appendSilenceAdvice(&line, &reply)
            }
            emit(&line, &reply)
            return false
        }
        let silence = now.milliseconds(since: lastByteAt)
        guard silence <= silenceMilliseconds else {
            line.append("error data: nothing received from the receiver for ")
            appendDuration(&line, milliseconds: silence)
            emit(&line, &reply)
            appendSilenceAdvice(&line, &reply)
            emit(&line, &reply)
            return false
        }
        line.append("ok data: ")
        appendBytes(&line, Int64(status.receiver.activity.totals(overLast: silenceMilliseconds, now: now).bytes))
        line.append(" in the last 5 s")
        emit(&line, &reply)
        return true
    }

    static func appendSilenceAdvice(_ line: inout TextBuffer, _ reply: inout ReplyBuffer) {
        line.append("check power and wiring (receiver TX to the board's RX), and that the serial console is")
        emit(&line, &reply)
        line.append("off and the UART enabled (enable_uart=1 in config.txt on a Raspberry Pi)")
    }

    /// Valid sentences in the last 5 s: bytes without them are a wrong baud rate, or noise.
    static func diagnoseSentences(_ status: StatusModel, now: MonotonicTime, line: inout TextBuffer,
                                  reply: inout ReplyBuffer) -> Bool {
        let recent = status.receiver.activity.totals(overLast: silenceMilliseconds, now: now)
        guard recent.accepted > 0 else {
            line.append("error baud: bytes arrive but no valid NMEA sentence in the last 5 s (")
            line.append(integer: Int64(recent.rejected))
            line.append(" rejected)")
            emit(&line, &reply)
            if status.receiver.counters.accepted > 0 {
                line.append("valid sentences came before: another program writing to the port, a receiver")
                emit(&line, &reply)
                line.append("reconfigured to another rate (set `baud = auto` in [receiver], then SIGHUP), or a failing line")
            } else {
                line.append("the baud rate is probably wrong: set `baud = auto` in [receiver] (or the receiver's rate),")
                emit(&line, &reply)
                line.append("then send SIGHUP")
            }
            emit(&line, &reply)
            return false
        }
        line.append("ok sentences: ")
        line.appendFixed(Int64(status.sentencesPerSecondTenths), decimals: 1)
        line.append(" per second")
        emit(&line, &reply)
        return true
    }

    /// A 2D or 3D fix in the last 5 s.
    static func diagnoseFix(_ status: StatusModel, now: MonotonicTime, line: inout TextBuffer,
                            reply: inout ReplyBuffer) -> Bool {
        let uptime = now.milliseconds(since: status.startedAt)
        let lastFixAge = status.fixes.lastFixedAt.map { now.milliseconds(since: $0) }
        guard let age = lastFixAge, age <= silenceMilliseconds, let fix = status.fixes.lastFix,
              fix.mode.rawValue >= FixMode.twoD.rawValue else {
            if let age = lastFixAge {
                line.append("error fix: the receiver has had no fix for ")
                appendDuration(&line, milliseconds: age)
            } else {
                line.append("error fix: the receiver has no fix after ")
                appendDuration(&line, milliseconds: uptime)
            }
            emit(&line, &reply)
            line.append("the antenna needs open sky; a cold start takes up to a minute, longer indoors")
            emit(&line, &reply)
            return false
        }
        line.append("ok fix: ")
        line.append(modeName(fix.mode))
        line.append(", ")
        appendDuration(&line, milliseconds: age)
        line.append(" ago")
        emit(&line, &reply)
        return true
    }

    /// The filter accepted a fix in the last 5 s.
    static func diagnoseFilter(_ status: StatusModel, now: MonotonicTime, line: inout TextBuffer,
                               reply: inout ReplyBuffer) -> Bool {
        let recent = status.fixes.lastGoodFixAt.map { now.milliseconds(since: $0) <= silenceMilliseconds } ?? false
        guard recent else {
            line.append("error filter: fixes are rejected")
            if let rejection = status.fixes.lastRejection {
                line.append(" as ")
                line.append(rejectionName(rejection))
                emit(&line, &reply)
                line.append(rejectionAdvice(rejection))
            }
            emit(&line, &reply)
            return false
        }
        line.append("ok filter: fixes accepted")
        emit(&line, &reply)
        return true
    }

    static func diagnosePermission(_ status: StatusModel, now: MonotonicTime, line: inout TextBuffer,
                                   reply: inout ReplyBuffer) -> Bool {
        guard status.privacy.permission.mayLog(inUse: status.gpio.inUse, onTrip: status.privacy.tripCounts, now: now) else {
            line.append("error permission: tracking is not allowed (")
            line.append(permissionName(status.privacy.permission.state))
            line.append(")")
            emit(&line, &reply)
            line.append(status.privacy.permission.state == .whenInUse
                ? "when-in-use logs only during trips; `trackctl privacy allow always` logs all the time"
                : status.privacy.permission.state == .restricted
                ? "the configuration restricts tracking"
                : "allow it with `trackctl privacy allow always` (or `allow when-in-use`)")
            emit(&line, &reply)
            return false
        }
        line.append("ok permission: ")
        line.append(permissionName(status.privacy.permission.state))
        emit(&line, &reply)
        return true
    }

    static func diagnoseGPIO(_ status: StatusModel, line: inout TextBuffer, reply: inout ReplyBuffer) {
        if let problem = status.gpio.problem {
            line.append("error gpio: ")
            line.append(string: problem)
            emit(&line, &reply)
            line.append("trackd logs on without LEDs and button; check [board] (gpioinfo lists chips and lines),")
            emit(&line, &reply)
            line.append("that no other program or overlay holds the lines, and that trackd's user is in the gpio group")
            emit(&line, &reply)
        } else if status.gpio.isActive {
            line.append(status.gpio.board == .simulated ? "ok gpio: simulated board" : "ok gpio: LEDs and button on ")
            if status.gpio.board == .hardware { line.append(string: status.gpio.chip) }
            emit(&line, &reply)
        }
    }

    static func advice(for error: SourceError) -> StaticString {
        switch error {
        case .open(_, let errno) where errno == .noSuchFile:
            "the device does not exist: plug the receiver in, or fix `device` in [receiver]"
        case .open(_, let errno) where errno.rawValue == 13:
            "permission denied: trackd's user needs the dialout group"
        case .open, .configure:
            "the device cannot be opened as a serial port: check `device` in [receiver]"
        case .read, .disconnected:
            "the receiver went away (unplugged or failing); trackd retries with backoff"
        case .endOfInput:
            "the replay file has ended"
        }
    }
}

