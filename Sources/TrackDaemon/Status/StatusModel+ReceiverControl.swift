import TrackCore
import TrackIO

extension ReceiverControl {
    /// Receiver control's lines under the receiver's, declared once:
    /// `control   u-blox NEO-M8N-0 (UBX legacy CFG), identified by its MON-VER reply; 11
    /// commands: 10 acknowledged, 1 written, 0 refused, 0 unanswered`, then the last refusal,
    /// a baud switch that lost the receiver, and the sleep: `asleep for 3m20s, wakes in 40.0s;
    /// 4 sleeps, asleep 76.3 % of the time`. The JSON (`receiver.control`) has every command.
    func report(to report: inout StatusReport, now: MonotonicTime) {
        report.object("control")
        report.name("phase", phase.word, shown: .json)
        guard phase != .off else {
            report.endObject()
            return
        }
        report.line("control")
        if let identity = detector.identity {
            report.name("family", identity.family.name, shown: .json)
            if let model = identity.model { report.string("model", model.string, shown: .json) }
            report.name("evidence", identity.evidence.description, shown: .json)
        }
        if let dialect { report.name("dialect", dialect.name, shown: .json) }
        report.count("probes", probes, shown: .json)
        report.words { line in
            switch phase {
            case .waiting: line.append("waiting for the receiver's sentences")
            case .identifying: line.append("identifying the receiver")
            default: writeIdentity(to: &line)
            }
        }
        report.words { line in
            guard outcome.finished > 0 else { return }
            line.append("; ")
            writeCounts(to: &line)
        }
        report.count("acknowledged", outcome.acknowledged, shown: .json)
        report.count("written", outcome.written, shown: .json)
        report.count("refused", outcome.refused, shown: .json)
        report.count("unanswered", outcome.unanswered, shown: .json)
        report.member("commands") { line in writeCommands(to: &line) }
        if let refused = outcome.lastRefused {
            report.indented()
            report.words("refused: ")
            report.words { line in Self.write(refused, to: &line) }
            report.string("lastRefused", refused.command.purpose.description, shown: .json)
        }
        if let unanswered = outcome.lastUnanswered, phase != .unidentified {
            report.indented()
            report.words("unanswered: ")
            report.words { line in Self.write(unanswered, to: &line) }
        }
        if let lost = baud.lostAt {
            report.indented()
            report.count("lostAfterBaud", lost, "lost after switching to ", " baud")
            if let found = baud.foundAt {
                report.count("foundAtBaud", found, ", found again at ", " baud")
            } else {
                report.words(", not found again yet")
            }
        }
        reportPower(to: &report, now: now)
        report.endObject()
    }

    /// The sleep: asleep or awake, sleeps, the duty cycle.
    func reportPower(to report: inout StatusReport, now: MonotonicTime) {
        report.flag("asleep", power.isAsleep, shown: .json)
        guard settings.powerSave || power.sleeps > 0 else { return }
        report.indented()
        report.words { line in writePower(now: now, to: &line) }
        report.count("sleeps", power.sleeps, shown: .json)
        if let since = power.asleepSince {
            report.duration("asleepFor", milliseconds: now.milliseconds(since: since), shown: .json)
        }
        if let wake = power.wakeAt, power.isAsleep {
            report.duration("wakesIn", milliseconds: wake.milliseconds(since: now), shown: .json)
        }
        if let permille = power.asleepPermille(now: now) {
            report.fixed("asleepPercent", permille, decimals: 1, shown: .json)
        }
    }

    /// `11 commands: 10 acknowledged, 1 written` and the refused and unanswered when any.
    func writeCounts(to line: inout TextBuffer) {
        line.append(integer: Int64(outcome.finished))
        line.append(outcome.finished == 1 ? " command: " : " commands: ")
        line.append(integer: Int64(outcome.acknowledged))
        line.append(" acknowledged")
        // One call per count, not a loop over an array literal: status is answered in the loop,
        // and a debug build allocates such a literal.
        Self.writeCount(outcome.written, " written", to: &line)
        Self.writeCount(outcome.refused, " refused", to: &line)
        Self.writeCount(outcome.unanswered, " unanswered", to: &line)
    }

    /// `, 2 refused` after the counts, nothing when `count` is 0.
    static func writeCount(_ count: Int, _ word: StaticString, to line: inout TextBuffer) {
        guard count > 0 else { return }
        line.append(", ")
        line.append(integer: Int64(count))
        line.append(word)
    }

    /// `[{"command":"CFG-MSG","purpose":"set GST to every epoch","status":"acknowledged"},…]`.
    func writeCommands(to line: inout TextBuffer) {
        line.append(UInt8(ascii: "["))
        for index in 0..<session.count {
            let entry = session[index]
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(UInt8(ascii: "{"))
            line.appendJSONMember("command", entry.command.name, first: true)
            line.appendJSONMember("purpose", entry.command.purpose.description)
            line.appendJSONMember("status", entry.status.description)
            line.append(UInt8(ascii: "}"))
        }
        line.append(UInt8(ascii: "]"))
    }
}

extension ReceiverControl.Phase {
    /// `off`, `waiting`, `identifying`, `unidentified`, `configuring`, `configured`.
    var word: StaticString {
        switch self {
        case .off: "off"
        case .waiting: "waiting"
        case .identifying: "identifying"
        case .unidentified: "unidentified"
        case .configuring: "configuring"
        case .configured: "configured"
        }
    }
}
