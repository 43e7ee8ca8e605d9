import TrackCore
import TrackIO

extension ReceiverService where Source: ~Copyable {
    /// Receiver control's turn in a wake-up: the port's opens and closes, overdue answers, the
    /// baud (the port following a change, a receiver lost at a new rate or found at another),
    /// the sleep and wake rules on `inputs`, then the commands due, written to the source, each
    /// with its effect (the port follows a baud change; a sleep or wake changes the power
    /// state). Nothing allocates but the journal's rare lines.
    mutating func serveControl(_ wake: Wake, _ inputs: PowerInputs) {
        guard controller.phase != .off else { return }
        let now = wake.now
        let status = source.status
        guard status.isOpen else {
            controller.closed()
            return
        }
        if status.opens != controller.opensSeen { controller.opened(opens: status.opens, now: now) }
        followBaud(status, now: now)
        if controller.phase == .waiting {
            // Checksummed sentences at the port's rate: the receiver is there to be asked.
            guard controller.baud.receiverBaud != nil else { return }
            controller.start(now: now)
        }
        controller.expire(now: now)
        servePower(inputs, now: now)
        sendCommands(now: now)
    }

    /// The baud: follows a change, gives up on a new rate nothing came at, plans again when
    /// the receiver turns up at a rate other than the one it was left at.
    mutating func followBaud(_ status: SourceStatus, now: MonotonicTime) {
        let step = controller.baud.step(accepted: stream.nmea.counters.accepted, portBaud: status.baud,
                                     autoBaud: controller.settings.autoBaud, now: now)
        switch step {
        case .nothing:
            return
        case .follow(let rate):
            source.follow(baud: rate, now: now)
            return
        default:
            break
        }
        // The line only for a step worth saying: a TextBuffer is zeroed over its whole capacity
        // (kilobytes), and most wake-ups have nothing to say.
        var line = TextBuffer()
        switch step {
        case .nothing, .follow:
            return
        case .arrived(let rate):
            line.append("receiver: sends at ")
            line.append(integer: Int64(rate))
            line.append(" baud now")
        case .lost(let rate, let fallback):
            line.append("receiver: lost after switching to ")
            line.append(integer: Int64(rate))
            line.append(" baud; ")
            if let fallback {
                source.follow(baud: fallback, now: now)
                line.append("the port goes back to ")
                line.append(integer: Int64(fallback))
            } else {
                line.append("auto-baud searches for it")
            }
        case .foundAt(let rate):
            line.append("receiver: found at ")
            line.append(integer: Int64(rate))
            line.append(" baud, not where it was left: setting it up again")
            controller.session.cancelAll()
            if controller.phase != .waiting { controller.start(now: now) }
        }
        Journal.say(&line)
    }

    /// Sleep when the rules say so, wake on a wake-up condition (the plan goes again after a
    /// wake: a u-blox back from backup has restarted).
    mutating func servePower(_ inputs: PowerInputs, now: MonotonicTime) {
        let settings = controller.settings
        controller.power.notice(inputs, enabled: settings.powerSave, afterMilliseconds: settings.powerSaveAfterMilliseconds,
                             now: now)
        guard let dialect = controller.dialect else { return }
        if let reason = controller.power.wakeDue(now: now) {
            if ReceiverPlan.wake(dialect, into: &controller.session) {
                controller.power.woke(reason, now: now)
                controller.configure(now: now)
                var line = TextBuffer()
                line.append("receiver: woken ")
                line.append(reason.words)
                Journal.say(&line)
            }
            return
        }
        guard controller.session.isIdle, controller.phase == .configured || controller.power.sleepRequested,
              let until = controller.power.sleepDue(inputs, enabled: settings.powerSave,
                                                 afterMilliseconds: settings.powerSaveAfterMilliseconds, now: now),
              ReceiverPlan.sleep(dialect, into: &controller.session) else { return }
        controller.power.fellAsleep(until: until, lastEpoch: lastEpochTime, now: now)
        var line = TextBuffer()
        line.append("receiver: asleep (power save) until ")
        appendDuration(&line, milliseconds: until.milliseconds(since: now))
        line.append(" from now")
        Journal.say(&line)
    }

    /// Writes the commands due at `now` (several when nothing answers them), each with its
    /// effect.
    mutating func sendCommands(now: MonotonicTime) {
        for _ in 0..<4 {
            guard let command = controller.session.commandToSend(now: now) else { return }
            command.withBytes { bytes in
                bytes.withUnsafeBytes { raw in _ = source.write(raw, now: now) }
            }
            if command.purpose == .identify { controller.probes += 1 }
            if case .baud(let rate) = command.effect {
                controller.baud.commanded(rate, settleMilliseconds: command.settleMilliseconds, now: now)
            }
            if command.expectation == .nothing {
                // Written and finished at once: nothing answers it.
                controller.outcome.written += 1
                if controller.phase == .configuring && controller.session.isIdle { controller.planDone() }
            }
        }
    }
}
