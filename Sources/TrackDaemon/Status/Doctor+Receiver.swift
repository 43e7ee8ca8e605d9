import TrackCore
import TrackIO

extension Doctor {
    /// Receiver control, beside the chain (the fixes come whatever the receiver was told): a
    /// receiver that answered no probe, commands refused or unanswered, a baud switch that lost
    /// the receiver; `ok` with the identity when all went well. Nothing for `type = none` or
    /// a replay.
    static func diagnoseReceiverControl(_ status: StatusModel, line: inout TextBuffer, reply: inout ReplyBuffer) {
        let controller = status.receiver.controller
        let outcome = controller.outcome
        switch controller.phase {
        case .off:
            return
        case .waiting, .identifying:
            line.append("wait receiver control: ")
            line.append(controller.phase == .waiting ? "waiting for the receiver's sentences" : "identifying the receiver")
            emit(&line, &reply)
            return
        case .unidentified:
            line.append("error receiver control: the receiver did not answer (")
            line.append(integer: Int64(controller.probes))
            line.append(" probes): receiver control is off for it")
            emit(&line, &reply)
            line.append("the fixes still come; if it is a u-blox, MediaTek or Quectel set [receiver] type to its maker,")
            emit(&line, &reply)
            line.append("and check that the board's TX reaches the receiver's RX")
            emit(&line, &reply)
            return
        case .configuring, .configured:
            break
        }
        var problem = false
        if let lost = controller.baud.lostAt {
            problem = true
            line.append("error receiver control: the receiver was lost after switching to ")
            line.append(integer: Int64(lost))
            line.append(" baud")
            if let found = controller.baud.foundAt {
                line.append(" (found again at ")
                line.append(integer: Int64(found))
                line.append(" baud; trackd does not try that rate again)")
            } else {
                line.append(" and is not found again yet")
            }
            emit(&line, &reply)
            line.append("set [receiver] set-baud to a rate the receiver and the line take, or keep")
            emit(&line, &reply)
        }
        if let refused = outcome.lastRefused {
            problem = true
            badCommands(outcome.refused, of: outcome.finished, "the receiver refused ", " commands, the last: ", refused,
                        advice: "it keeps its own setting for those; check [receiver] rate and sentences against what it takes",
                        line: &line, reply: &reply)
        }
        if let unanswered = outcome.lastUnanswered {
            problem = true
            badCommands(outcome.unanswered, of: outcome.finished, "", " commands got no answer, the last: ", unanswered,
                        advice: "check that the board's TX reaches the receiver's RX", line: &line, reply: &reply)
        }
        guard !problem else { return }
        line.append("ok receiver control: ")
        controller.writeIdentity(to: &line)
        line.append("; ")
        controller.writeCounts(to: &line)
        emit(&line, &reply)
    }

    /// `error receiver control: BEFORE 3 of 11 AFTER ENTRY` and the advice beneath it.
    static func badCommands(_ count: Int, of total: Int, _ before: StaticString, _ after: StaticString, _ entry: CommandEntry,
                            advice: StaticString, line: inout TextBuffer, reply: inout ReplyBuffer) {
        line.append("error receiver control: ")
        line.append(before)
        line.append(integer: Int64(count))
        line.append(" of ")
        line.append(integer: Int64(total))
        line.append(after)
        ReceiverControl.write(entry, to: &line)
        emit(&line, &reply)
        line.append(advice)
        emit(&line, &reply)
    }

    /// A receiver asleep by plan: `ok receiver: asleep (power save) for 3m20s, wakes in 40.0s`.
    /// False (nothing said) when it is awake.
    static func diagnoseAsleep(_ status: StatusModel, now: MonotonicTime, line: inout TextBuffer,
                               reply: inout ReplyBuffer) -> Bool {
        let power = status.receiver.controller.power
        guard let since = power.asleepSince else { return false }
        line.append("ok receiver: asleep (power save) for ")
        appendDuration(&line, milliseconds: now.milliseconds(since: since))
        if let wake = power.wakeAt {
            line.append(", wakes in ")
            appendDuration(&line, milliseconds: wake.milliseconds(since: now))
        }
        line.append("; trackctl receiver wake wakes it")
        emit(&line, &reply)
        return true
    }
}
