import TrackCore
import TrackIO

/// `trackctl receiver …` as the control socket parsed it (`ControlRequest.receiver`).
enum ReceiverRequest: Equatable {
    /// What the receiver is, what it was told and what became of each command, its sleep.
    case info
    /// The fix interval in ms (`rate 5` → 200).
    case rate(milliseconds: Int)
    /// Move the receiver (and the port) to this baud.
    case baud(Int)
    /// Tell the receiver to send these sentences.
    case sentences(SentenceRates)
    /// Sleep now (until a wake-up condition).
    case sleep
    /// Wake now, and stay up for `power-save-after`.
    case wake
}

extension ReceiverService where Source: ~Copyable {
    /// Answers `request` at `now` into `reply` (`ok` or `error receiver: …`, no closing empty
    /// line). A change is queued for the receiver and kept as the setting until a reload (so
    /// the plan after a reopen or a wake keeps it); its answer comes later: `receiver info`
    /// shows it.
    mutating func answer(_ request: ReceiverRequest, now: MonotonicTime, reply: inout ReplyBuffer) {
        var line = TextBuffer()
        if case .info = request {
            reply.append("ok\n")
            writeInfo(now: now, reply: &reply)
            return
        }
        if let refusal = refusal(for: request) {
            line.append("error receiver: ")
            line.append(refusal)
            emit(&line, &reply)
            return
        }
        switch request {
        case .info:
            return
        case .rate(let milliseconds):
            controller.settings.receiver.fixIntervalMilliseconds = milliseconds
            queue(ReceiverSettings(fixIntervalMilliseconds: milliseconds))
        case .baud(let rate):
            controller.settings.receiver.baud = rate
            controller.baud.lostAt = nil
            queue(ReceiverSettings(baud: rate))
        case .sentences(let rates):
            controller.settings.receiver.sentences = rates
            queue(ReceiverSettings(sentences: rates))
        case .sleep:
            controller.power.sleepRequested = true
            line.append("ok\nthe receiver goes to sleep now; it wakes for the heartbeat, the button, the in-use input or")
            emit(&line, &reply)
            line.append("trackctl receiver wake")
            emit(&line, &reply)
            return
        case .wake:
            let settings = controller.settings
            controller.power.keepAwake(.request, afterMilliseconds: settings.powerSaveAfterMilliseconds, now: now)
            line.append(controller.power.isAsleep ? "ok\nwaking the receiver; it stays up for " : "ok\nthe receiver is awake; it stays up for ")
            appendDuration(&line, milliseconds: settings.powerSaveAfterMilliseconds)
            emit(&line, &reply)
            return
        }
        line.append("ok\nqueued for the receiver; trackctl receiver info shows its answer")
        emit(&line, &reply)
    }

    /// Queues the commands for `change` in the receiver's command set.
    mutating func queue(_ change: ReceiverSettings) {
        guard let dialect = controller.dialect else { return }
        ReceiverPlan.configure(dialect, change, currentBaud: controller.baud.receiverBaud, into: &controller.session)
        if controller.phase == .configured && !controller.session.isIdle { controller.phase = .configuring }
    }

    /// Why `request` cannot be done now; nil when it can.
    func refusal(for request: ReceiverRequest) -> StaticString? {
        switch controller.phase {
        case .off:
            return source.takesCommands ? "receiver control is off ([receiver] type = none)"
                : "the source is a replay: it takes no commands"
        case .waiting:
            return "no sentences from the receiver yet (the port is closed or still finding the baud)"
        case .identifying:
            return "the receiver is still being identified: ask again in a few seconds"
        case .unidentified:
            return "the receiver answered none of the probes: trackd sends it nothing (set [receiver] type to its maker)"
        case .configuring, .configured:
            break
        }
        switch request {
        case .sleep where controller.dialect == .pair:
            return "a PAIR receiver (LC29H, LC79H) is woken by a pin, not by the UART: trackd does not put it to sleep"
        case .sleep where controller.power.isAsleep:
            return "the receiver is asleep already"
        case .rate, .baud, .sentences:
            return controller.power.isAsleep ? "the receiver is asleep: trackctl receiver wake first" : nil
        default:
            return nil
        }
    }

    /// `receiver info`: the identity, the settings asked for, each command and its outcome,
    /// the baud and the sleep.
    func writeInfo(now: MonotonicTime, reply: inout ReplyBuffer) {
        var line = TextBuffer()
        line.append("receiver  ")
        controller.writeIdentity(to: &line)
        emit(&line, &reply)
        line.append("asked     ")
        controller.settings.writeAsked(to: &line)
        emit(&line, &reply)
        for index in 0..<controller.session.count {
            line.append("command   ")
            ReceiverControl.write(controller.session[index], to: &line)
            emit(&line, &reply)
        }
        line.append("baud      ")
        controller.writeBaud(port: source.status.baud, to: &line)
        emit(&line, &reply)
        line.append("power     ")
        controller.writePower(now: now, to: &line)
        emit(&line, &reply)
    }
}

extension ReceiverControl.Settings {
    /// `type auto, 1 Hz, rmc gga gsa gst gsv/5, baud kept, power save after 5m00s`.
    func writeAsked(to line: inout TextBuffer) {
        line.append("type ")
        line.append(string: type.rawValue)
        line.append(", ")
        if let interval = receiver.fixIntervalMilliseconds {
            line.append("fix every ")
            line.append(integer: Int64(interval))
            line.append(" ms, ")
        } else {
            line.append("rate kept, ")
        }
        if let sentences = receiver.sentences {
            line.append(string: sentences.text)
        } else {
            line.append("sentences kept")
        }
        if let baud = receiver.baud {
            line.append(", baud ")
            line.append(integer: Int64(baud))
        } else {
            line.append(", baud kept")
        }
        if powerSave {
            line.append(", sleeps after ")
            appendDuration(&line, milliseconds: powerSaveAfterMilliseconds)
            line.append(" still")
        } else {
            line.append(", no power save")
        }
    }
}

extension ReceiverControl {
    /// `9600 (the receiver's), lost after switching to 115200, found again at 9600`.
    func writeBaud(port: Int?, to line: inout TextBuffer) {
        if let port {
            line.append("port at ")
            line.append(integer: Int64(port))
        } else {
            line.append("port rate unknown")
        }
        if let known = baud.receiverBaud {
            line.append(", receiver sends at ")
            line.append(integer: Int64(known))
        }
        if let lost = baud.lostAt {
            line.append(", lost after switching to ")
            line.append(integer: Int64(lost))
            if let found = baud.foundAt {
                line.append(", found again at ")
                line.append(integer: Int64(found))
            } else {
                line.append(", not found again yet")
            }
        }
    }

    /// `awake (woken for the heartbeat 12.0s ago); 3 sleeps, asleep 81.2 % of the time`.
    func writePower(now: MonotonicTime, to line: inout TextBuffer) {
        if let since = power.asleepSince {
            line.append("asleep for ")
            appendDuration(&line, milliseconds: now.milliseconds(since: since))
            if let wake = power.wakeAt {
                line.append(", wakes in ")
                appendDuration(&line, milliseconds: wake.milliseconds(since: now))
            }
        } else {
            line.append("awake")
            if let woke = power.wokeAt, let reason = power.wokeBy {
                line.append(" (woken ")
                line.append(reason.words)
                line.append(" ")
                appendDuration(&line, milliseconds: now.milliseconds(since: woke))
                line.append(" ago)")
            }
        }
        guard settings.powerSave || power.sleeps > 0 else {
            line.append("; power save off")
            return
        }
        line.append("; ")
        line.append(integer: Int64(power.sleeps))
        line.append(power.sleeps == 1 ? " sleep" : " sleeps")
        if let permille = power.asleepPermille(now: now) {
            line.append(", asleep ")
            line.appendFixed(permille, decimals: 1)
            line.append(" % of the time")
        }
    }
}
