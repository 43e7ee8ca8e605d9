import TrackCore
import TrackIO

/// The answers to `trackctl`'s requests (`ControlRequest`), written from what the host says:
/// a waypoint recorded, the permission changed, the simulated button pressed, the status
/// rendered. Every reply starts with `ok` or `error KIND: message` and ends with an empty
/// line. Nothing here allocates.
enum ControlAnswer {
    /// Applies `request` through `host` and writes its reply into `reply`.
    static func answer<Host: ControlHost & ~Copyable>(_ request: ControlRequest, host: inout Host, wake: Wake,
                                                       reply: inout ReplyBuffer) {
        var line = TextBuffer()
        switch request {
        case .status(let json):
            reply.append("ok\n")
            let model = host.statusModel(wake)
            if json { model.writeJSON(to: &reply, now: wake.now) } else { model.writeText(to: &reply, now: wake.now) }
        case .whereNow(let plain):
            answerWhere(plain: plain, host: &host, wake: wake, line: &line)
            emit(&line, &reply)
        case .mark(let label):
            switch host.markWaypoint(label, wake) {
            case .failure(let refusal):
                writeRefusal(refusal, doing: "no waypoint is recorded", to: &line)
            case .success(let (current, number)):
                line.append("ok\nwaypoint ")
                line.append(integer: Int64(number))
                line.append(" at ")
                appendPosition(&line, current.position, separator: ", ")
                if current.disclosure == .approximate { line.append(" (approximate, 1 km grid)") }
            }
            emit(&line, &reply)
        case .privacy(let change):
            answerPrivacy(change, host: &host, now: wake.now, reply: &reply)
        case .leds:
            let model = host.statusModel(wake)
            if model.gpio.isActive {
                line.append("ok\n")
                appendLEDs(&line, model.gpio.leds)
            } else {
                line.append("error gpio: no LEDs (")
                model.gpio.writeState(to: &line)
                line.append(")")
            }
            emit(&line, &reply)
        case .button(let press):
            if host.pressButton(press, now: wake.now) {
                reply.append(press == .short ? "ok\nbutton pressed (short)\n" : "ok\nbutton held (long)\n")
            } else {
                reply.append("error gpio: only a simulated board's button can be pressed from here ([board] simulated = yes)\n")
            }
        case .doctor:
            Doctor.diagnose(host.statusModel(wake), now: wake.now, reply: &reply)
        case .fenceList:
            host.writeFenceList(to: &reply)
        case .receiver(let request):
            host.answerReceiver(request, now: wake.now, reply: &reply)
        case .refused(let message):
            reply.append(message)
        }
        reply.append("\n")
    }

    /// `48.117300°N, 11.516700°E, 0.4s ago` (`approximate, 1 km grid` added in approximate mode)
    /// and, when the gazetteer names it, the place on a second line (`in Tübingen,
    /// Baden-Wurttemberg, DE`), or `48.117300,11.516700` when plain; refused without a current,
    /// disclosed fix.
    static func answerWhere<Host: ControlHost & ~Copyable>(plain: Bool, host: inout Host, wake: Wake, line: inout TextBuffer) {
        let current: DisclosedPosition
        switch host.currentPosition(wake) {
        case .failure(let refusal):
            writeRefusal(refusal, doing: "no position is shown", to: &line)
            return
        case .success(let position):
            current = position
        }
        line.append("ok\n")
        if plain {
            appendPosition(&line, current.position, separator: ",", plain: true)
            return
        }
        appendPosition(&line, current.position, separator: ", ")
        if current.disclosure == .approximate { line.append(" (approximate, 1 km grid)") }
        line.append(", ")
        appendDuration(&line, milliseconds: current.ageMilliseconds)
        line.append(" ago")
        // The place on a line of its own, under the same disclosure as the position above it.
        if let words = host.placeWords(current.disclosure) {
            line.append(UInt8(ascii: "\n"))
            words.write(to: &line)
        }
    }

    /// Shows or changes the permission (the change is saved after this wake-up's requests),
    /// in the words status uses for it.
    static func answerPrivacy<Host: ControlHost & ~Copyable>(_ change: PermissionRequest?, host: inout Host, now: MonotonicTime,
                                                              reply: inout ReplyBuffer) {
        if let change {
            do {
                try host.changePrivacy(change, now: now)
            } catch {
                reply.append("error privacy: ")
                reply.append(error.message)
                reply.append("\n")
                return
            }
        }
        reply.append("ok\n")
        let privacy = host.statusModel(host.wake(now)).privacy
        var text = StatusReport(.text, reply)
        privacy.reportPermission(to: &text, now: now)
        reply = text.finish()
    }
}
