/// How a receiver said no.
public enum CommandRefusal: Equatable, Sendable {
    /// UBX ACK-NAK.
    case ubxNak
    /// `$PMTK001` with a flag other than 3.
    case pmtk(PMTKFlag)
    /// `$PAIR001` with a result other than 0 or 1.
    case pair(PAIRResult)

    /// Words, e.g. `"ACK-NAK"`, `"PMTK001 flag 1, unsupported command"`.
    public var description: String {
        switch self {
        case .ubxNak: "ACK-NAK"
        case .pmtk(let flag): "PMTK001 " + flag.description
        case .pair(let result): "PAIR001 " + result.description
        }
    }
}

/// Where a command stands, and at the end what became of it.
public enum CommandStatus: Equatable, Sendable {
    /// Queued, not written yet (or to be written again after a silent try).
    case waiting
    /// Written; its answer is awaited. `attempt` counts from 1.
    case sent(attempt: Int)
    /// The receiver said yes.
    case acknowledged
    /// Written; nothing answers this command (a baud change, a sleep request).
    case written
    /// The receiver said no.
    case refused(CommandRefusal)
    /// No answer after every attempt.
    case noReply(attempts: Int)
    /// Dropped unsent or unanswered: the port was reopened or the queue cleared.
    case cancelled

    /// True once nothing more will happen to the command.
    public var isFinal: Bool {
        switch self {
        case .waiting, .sent: false
        default: true
        }
    }

    /// Words for status and doctor, e.g. `"refused (ACK-NAK)"`, `"no reply after 3 tries"`.
    public var description: String {
        switch self {
        case .waiting: "waiting"
        case .sent(let attempt): attempt == 1 ? "sent, waiting for the reply" : String(joining: "sent again (try ", String(attempt), ")")
        case .acknowledged: "acknowledged"
        case .written: "written (nothing answers it)"
        case .refused(let refusal): "refused (" + refusal.description + ")"
        case .noReply(let attempts): String(joining: "no reply after ", String(attempts), " tr") + (attempts == 1 ? "y" : "ies")
        case .cancelled: "cancelled"
        }
    }
}

/// One command in the session and what became of it.
public struct CommandEntry: Equatable, Sendable {
    /// The command.
    public var command: ReceiverCommand
    /// Where it stands.
    public var status: CommandStatus
    /// When it was last written; nil before.
    public var sentAt: MonotonicTime?
    /// Times written so far.
    public var attempts: Int
}
