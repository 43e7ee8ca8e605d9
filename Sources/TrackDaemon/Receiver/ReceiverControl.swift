import TrackCore
import TrackIO

/// Receiver control, as docs/receiver-control.md plans it: who the receiver is (the detector,
/// fed every reply), what it is told (the command session: identification, then the
/// configuration plan, one command at a time, each matched to its answer), the baud it was
/// moved to and whether the port found it there, and its sleep while the tracker stands still
/// (`ReceiverPower`). Owned by `ReceiverService`, which writes the commands to the source and
/// hands over the replies; pure values, `now` from the loop, nothing allocated per command.
///
/// The plan is sent at every open of the port (the receiver behind it may have restarted),
/// after a wake from sleep (a u-blox back from backup has), and when the receiver turns up at
/// a baud other than the one it was left at (it lost its settings).
struct ReceiverControl {
    /// What `[receiver]` asks for.
    struct Settings: Equatable {
        var type: TrackdConfig.Receiver.ControlType
        var receiver: ReceiverSettings
        var powerSave: Bool
        var powerSaveAfterMilliseconds: Int64
        /// True when the port searches the baud (`baud = auto`): a lost receiver is found again.
        var autoBaud: Bool

        init(_ config: TrackdConfig.Receiver) {
            type = config.type
            receiver = config.settings
            powerSave = config.powerSave
            powerSaveAfterMilliseconds = config.powerSaveAfterMilliseconds
            autoBaud = config.baud == .auto
        }
    }

    /// Where control stands.
    enum Phase: Equatable {
        /// Nothing is ever written: `type = none`, or a source that takes no commands (a replay).
        case off
        /// The port is closed; everything starts again when it opens.
        case waiting
        /// The probes are out (`type = auto`, or to learn a u-blox's protocol version).
        case identifying
        /// No probe was answered: the receiver gets nothing more until the port reopens.
        case unidentified
        /// The configuration plan is out.
        case configuring
        /// The plan is done (each command's outcome in `session`).
        case configured
    }

    var settings: Settings
    var phase: Phase
    var detector = ReceiverDetector()
    var session = CommandSession()
    /// The command set plans are made in; nil until known.
    var dialect: CommandDialect?
    /// True when the command set is trackd's guess (`type = ublox` and no protocol version):
    /// the first ACK-NAK to a legacy CFG message switches to CFG-VALSET.
    var dialectGuessed = false
    /// Probes written in this identification.
    var probes = 0
    /// What became of the commands since the port opened.
    var outcome = Outcome()
    /// The port's opens already started from.
    var opensSeen = 0
    var baud = BaudWatch()
    var power = ReceiverPower()

    /// Control for `settings`; `takesCommands` false (a replay) turns it off.
    init(_ settings: Settings, takesCommands: Bool) {
        self.settings = settings
        phase = settings.type == .none || !takesCommands ? .off : .waiting
    }

    /// Counts of finished commands and the last one of each bad kind.
    struct Outcome {
        var acknowledged = 0
        var written = 0
        var refused = 0
        var unanswered = 0
        var cancelled = 0
        var lastRefused: CommandEntry?
        var lastUnanswered: CommandEntry?

        /// Commands finished, cancelled ones left out.
        var finished: Int { acknowledged + written + refused + unanswered }

        mutating func count(_ entry: CommandEntry) {
            switch entry.status {
            case .acknowledged: acknowledged += 1
            case .written: written += 1
            case .refused:
                refused += 1
                lastRefused = entry
            case .noReply:
                // A probe goes unanswered by every other maker's receiver: not a fault.
                guard entry.command.purpose != .identify else { return }
                unanswered += 1
                lastUnanswered = entry
            case .cancelled: cancelled += 1
            case .waiting, .sent: break
            }
        }
    }

    /// The port opened (again): the receiver behind it may be another, or restarted. Control
    /// starts once checksummed sentences come (`start`): until then the port may still be
    /// searching the baud, and a command at the wrong rate is noise to the receiver.
    mutating func opened(opens: Int, now: MonotonicTime) {
        opensSeen = opens
        guard phase != .off else { return }
        session.removeAll()
        outcome = Outcome()
        detector.reset()
        baud.opened()
        power.opened(now: now)
        phase = .waiting
    }

    /// A reload's settings: from now on; when they changed the plan goes again (and a baud
    /// that lost the receiver may be tried again).
    mutating func apply(_ new: Settings, takesCommands: Bool, now: MonotonicTime) {
        guard new != settings else { return }
        settings = new
        baud.lostAt = nil
        baud.foundAt = nil
        session.cancelAll()
        if new.type == .none || !takesCommands {
            phase = .off
        } else if phase == .off {
            // Starts afresh at the next look, as after an open.
            opensSeen = -1
            phase = .waiting
        } else if phase != .waiting {
            start(now: now)
        }
    }

    /// The port closed: what is out is cancelled.
    mutating func closed() {
        guard phase != .off, phase != .waiting else { return }
        session.cancelAll()
        phase = .waiting
    }

    /// Identification, or the plan when the command set is known already (the receiver said
    /// who it is before it was asked: a TXT banner, a `$PMTK011`).
    mutating func start(now: MonotonicTime) {
        probes = 0
        dialectGuessed = false
        dialect = nil
        let known = detector.identity
        if settings.type == .mediatek || known?.family == .mediatek { dialect = .pmtk }
        if let seen = known?.dialect { dialect = seen }
        guard dialect == nil else {
            configure(now: now)
            return
        }
        let family: ReceiverFamily? = switch settings.type {
        case .ublox: .ublox
        case .quectel: .quectel
        default: known?.family
        }
        ReceiverPlan.identify(family, into: &session)
        phase = .identifying
    }

    /// Queues the configuration plan in `dialect` (the baud change left out when a switch to
    /// that rate lost the receiver before).
    mutating func configure(now: MonotonicTime) {
        guard let dialect else { return }
        var wanted = settings.receiver
        if let lost = baud.lostAt, wanted.baud == lost { wanted.baud = nil }
        ReceiverPlan.configure(dialect, wanted, currentBaud: baud.receiverBaud, into: &session)
        phase = .configuring
        if session.isIdle { phase = .configured }
    }

    /// A reply the stream read: to the detector and to the command it answers.
    mutating func observe(_ reply: ReceiverReply, now: MonotonicTime) {
        guard phase != .off else { return }
        detector.observe(reply)
        if let entry = session.observe(reply, now: now) { finished(entry, now: now) }
        if phase == .identifying { identified(now: now) }
    }

    /// Answers overdue at `now`: retried, or given up on.
    mutating func expire(now: MonotonicTime) {
        if let entry = session.expire(now: now) { finished(entry, now: now) }
        if phase == .identifying { identified(now: now) }
        if phase == .configuring && session.isIdle { planDone() }
    }

    /// A command finished: counted; a refused legacy CFG message to a guessed u-blox switches
    /// the plan to CFG-VALSET (an M9 or M10).
    mutating func finished(_ entry: CommandEntry, now: MonotonicTime) {
        outcome.count(entry)
        if entry.command.purpose == .sleep, entry.status != .acknowledged {
            power.sleepFailed(afterMilliseconds: settings.powerSaveAfterMilliseconds, now: now)
            var line = TextBuffer()
            line.append("receiver: the sleep request was not taken: ")
            Self.write(entry, to: &line)
            Journal.say(&line)
        }
        if case .refused(.ubxNak) = entry.status, dialect == .ubxLegacy, dialectGuessed, entry.command.purpose != .identify {
            dialectGuessed = false
            dialect = .ubxValset
            session.cancelAll()
            var line = TextBuffer()
            line.append("receiver: the u-blox refused a legacy CFG message; configuring it with CFG-VALSET")
            Journal.say(&line)
            configure(now: now)
            return
        }
        if phase == .configuring && session.isIdle { planDone() }
    }

    /// While identifying: the plan once the detector knows the command set, or once the probes
    /// are done (a u-blox without its protocol version gets the legacy plan; a receiver that
    /// answered nothing gets nothing).
    mutating func identified(now: MonotonicTime) {
        let identity = detector.identity
        if let known = identity?.dialect ?? (identity?.family == .mediatek ? .pmtk : nil) {
            session.cancelAll()
            dialect = known
            sayIdentified()
            configure(now: now)
            return
        }
        guard session.isIdle else { return }
        if identity?.family == .ublox || settings.type == .ublox {
            dialect = .ubxLegacy
            dialectGuessed = true
            sayIdentified()
            configure(now: now)
            return
        }
        phase = .unidentified
        var line = TextBuffer()
        line.append("receiver: it did not answer (")
        line.append(integer: Int64(probes))
        line.append(" probes): receiver control is off for it until the port reopens; the fixes still come")
        Journal.say(&line)
    }

    /// The plan is done: said in the journal, with the refusals.
    mutating func planDone() {
        phase = .configured
        var line = TextBuffer()
        line.append("receiver: configured: ")
        writeOutcome(to: &line)
        Journal.say(&line)
    }

    /// `11 commands: 10 acknowledged, 1 written, 0 refused, 0 unanswered` and the last refusal.
    func writeOutcome(to line: inout TextBuffer) {
        line.append(integer: Int64(outcome.finished))
        line.append(" commands: ")
        line.append(integer: Int64(outcome.acknowledged))
        line.append(" acknowledged, ")
        line.append(integer: Int64(outcome.written))
        line.append(" written, ")
        line.append(integer: Int64(outcome.refused))
        line.append(" refused, ")
        line.append(integer: Int64(outcome.unanswered))
        line.append(" unanswered")
        if let refused = outcome.lastRefused {
            line.append("; ")
            Self.write(refused, to: &line)
        }
    }

    /// `identified as u-blox NEO-M8N-0 (UBX legacy CFG) by its MON-VER reply`.
    func sayIdentified() {
        var line = TextBuffer()
        line.append("receiver: ")
        writeIdentity(to: &line)
        Journal.say(&line)
    }

    /// The identity in words: `u-blox NEO-M8N-0 (UBX legacy CFG), identified by its MON-VER
    /// reply`; `not identified` before.
    func writeIdentity(to line: inout TextBuffer) {
        guard let identity = detector.identity else {
            if let dialect {
                // `type = ublox` or `mediatek`: the plan goes by the configuration.
                line.append("taken for ")
                line.append(string: settings.type.rawValue)
                line.append(" as [receiver] type says (")
                line.append(dialect.name)
                line.append("); it has not said who it is")
            } else {
                line.append(phase == .unidentified ? "not identified: it answered none of the probes" : "not identified yet")
            }
            return
        }
        line.append(identity.family.words)
        if let model = identity.model {
            line.append(UInt8(ascii: " "))
            model.withBytes { line.append(bytes: $0) }
        }
        if let dialect {
            line.append(" (")
            line.append(dialect.name)
            if dialectGuessed { line.append(", no protocol version seen") }
            line.append(")")
        }
        line.append(", identified by ")
        line.append(identity.evidence.description)
    }

    /// `set GST to every epoch: refused (ACK-NAK)`.
    static func write(_ entry: CommandEntry, to line: inout TextBuffer) {
        line.append(string: entry.command.purpose.description)
        line.append(" (")
        line.append(string: entry.command.name)
        line.append("): ")
        line.append(string: entry.status.description)
    }

    /// When control next needs the loop: a command to send or an answer's deadline, the port
    /// to follow a baud change, a baud to give up on, the receiver to wake.
    var nextDeadline: MonotonicTime? {
        guard phase != .off, phase != .waiting else { return nil }
        return earliest(earliest(session.nextDeadline, baud.nextDeadline), power.nextDeadline)
    }
}

extension ReceiverFamily {
    /// The maker's name as people write it: `u-blox`, `MediaTek`, `Quectel`.
    var words: StaticString {
        switch self {
        case .ublox: "u-blox"
        case .mediatek: "MediaTek"
        case .quectel: "Quectel"
        }
    }
}
