import TrackCore
import TrackIO

/// `trackctl doctor`: walks the chain a person would check by hand — port, data, baud,
/// sentences, fix, filter — and names the first broken link with what to do about it.
enum Doctor {
    /// Seconds of silence after which the receiver counts as not talking.
    static let silenceMilliseconds: Int64 = 5_000

    static func diagnose(_ status: DaemonStatus, now: MonotonicTime, reply: inout ReplyBuffer) {
        var line = TextBuffer()
        let uptime = now.milliseconds(since: status.startedAt)
        // 0. LEDs and button: their own link, beside the chain from port to storage (logging
        // does not need them), so it is always reported.
        diagnoseGPIO(status, line: &line, reply: &reply)
        // 1. The port.
        guard status.source.isOpen else {
            line.append("error port: ")
            line.append(string: status.source.path)
            line.append(" is not open")
            if let error = status.source.lastError {
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
            return
        }
        line.append("ok port: ")
        line.append(string: status.source.path)
        line.append(" is open")
        emit(&line, &reply)
        // 2. Bytes arriving at all.
        let silent = status.lastByteAt.map { now.milliseconds(since: $0) > silenceMilliseconds }
            ?? (uptime > silenceMilliseconds)
        guard !silent else {
            line.append("error data: nothing received from the receiver for ")
            appendDuration(&line, milliseconds: status.lastByteAt.map { now.milliseconds(since: $0) } ?? uptime)
            emit(&line, &reply)
            line.append("check power and wiring (receiver TX to the board's RX), and that the serial console is")
            emit(&line, &reply)
            line.append("off and the UART enabled (enable_uart=1 in config.txt on a Raspberry Pi)")
            emit(&line, &reply)
            return
        }
        line.append("ok data: bytes arriving")
        emit(&line, &reply)
        // 3. Bytes that make sentences: otherwise the baud rate is wrong (or it is not NMEA).
        guard status.counters.accepted > 0 else {
            line.append("error baud: bytes arrive but no valid NMEA sentence (")
            line.append(integer: Int64(status.counters.badChecksum + status.counters.malformed))
            line.append(" rejected)")
            emit(&line, &reply)
            line.append("the baud rate is probably wrong: set `baud = auto` in [receiver] or the receiver's rate")
            emit(&line, &reply)
            return
        }
        line.append("ok sentences: ")
        line.appendFixed(Int64(status.sentencesPerSecondTenths), decimals: 1)
        line.append(" per second")
        emit(&line, &reply)
        // 4. A fix.
        guard let fix = status.lastFix, fix.mode.rawValue >= FixMode.twoD.rawValue else {
            line.append("error fix: the receiver has no fix after ")
            appendDuration(&line, milliseconds: uptime)
            emit(&line, &reply)
            line.append("the antenna needs open sky; a cold start takes up to a minute, longer indoors")
            emit(&line, &reply)
            return
        }
        line.append("ok fix: ")
        line.append(modeName(fix.mode))
        emit(&line, &reply)
        // 5. The filter lets fixes through.
        if status.lastGoodFixAt != status.lastFixAt, let rejection = status.lastRejection {
            line.append("error filter: fixes are rejected as ")
            line.append(rejectionName(rejection))
            emit(&line, &reply)
            line.append(rejectionAdvice(rejection))
            emit(&line, &reply)
            return
        }
        line.append("ok filter: fixes accepted")
        emit(&line, &reply)
        // 6. Permission to log them.
        guard status.permission.mayLog(inUse: status.gpio.inUse, onTrip: status.tripCounts, now: now) else {
            line.append("error permission: tracking is not allowed (")
            line.append(permissionName(status.permission.state))
            line.append(")")
            emit(&line, &reply)
            line.append(status.permission.state == .whenInUse
                ? "when-in-use logs only during trips; `trackctl privacy allow always` logs all the time"
                : status.permission.state == .restricted
                ? "the configuration restricts tracking"
                : "allow it with `trackctl privacy allow always` (or `allow when-in-use`)")
            emit(&line, &reply)
            return
        }
        line.append("ok permission: ")
        line.append(permissionName(status.permission.state))
        emit(&line, &reply)
        // 7. Storage of the permission state.
        if let problem = status.stateProblem {
            line.append("error storage: ")
            line.append(string: problem)
            emit(&line, &reply)
            line.append("check that the directory of [state] file exists and is writable")
            emit(&line, &reply)
            return
        }
        // 8. The track log on flash.
        guard diagnoseLog(status, line: &line, reply: &reply) else { return }
        line.append("ok all links work")
        emit(&line, &reply)
    }

    static func diagnoseGPIO(_ status: DaemonStatus, line: inout TextBuffer, reply: inout ReplyBuffer) {
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

/// The reason a person reads, e.g. `inaccurate`.
func rejectionName(_ rejection: FilterRejection) -> StaticString {
    switch rejection {
    case .invalid: "invalid (no fix)"
    case .noPosition: "no position"
    case .noTime: "no time"
    case .stale: "stale"
    case .tooFewSatellites: "too few satellites"
    case .inaccurate: "inaccurate"
    case .implausibleJump: "an implausible jump"
    }
}

/// What to do when fixes keep being rejected for `rejection`.
func rejectionAdvice(_ rejection: FilterRejection) -> StaticString {
    switch rejection {
    case .invalid, .noPosition:
        "the receiver reports no usable fix: give the antenna open sky"
    case .noTime:
        "the receiver sends no date (RMC or ZDA): enable RMC in the receiver's output"
    case .stale:
        "the receiver's time goes backwards or lags: check for a second program writing to the port"
    case .tooFewSatellites:
        "fewer satellites than [filter] min-satellites: give the antenna a wider view of the sky"
    case .inaccurate:
        "accuracy worse than [filter] max-accuracy: give the antenna open sky, or raise max-accuracy"
    case .implausibleJump:
        "positions jump faster than [filter] max-speed: multipath near buildings, or raise max-speed"
    }
}
