/// The commands for the receiver, one at a time, each matched to its answer: a queue of up to
/// 24 with, for every one, its status — acknowledged, refused (ACK-NAK, a PMTK001 flag, a
/// PAIR001 result), no reply after its attempts, or written with nothing to wait for. Pure
/// values: the caller passes `now` (the loop's one clock reading) and writes the bytes.
///
/// One command is out at a time, as the receivers take them: the next goes when the answer
/// came (or the last try timed out) and the previous command's settle time has passed. The
/// session never writes: the loop asks `commandToSend(now:)`, writes what it gets, hands every
/// reply to `observe`, and calls `expire(now:)` when `nextDeadline` passes.
///
///     session.enqueue(UBXCommands.messageRate(.gst, everyEpochs: 1))
///     if let command = session.commandToSend(now: now) { port.write(command) }
///     if let done = session.observe(reply, now: now) { … }   // e.g. .acknowledged
///
/// A late answer to a command retried after its timeout can be taken for the answer of the
/// next command of the same message (two CFG-MSG in a row): the timeout (1.5 s, past u-blox's
/// "within one second" for ACKs) keeps that rare.
public struct CommandSession: Sendable {
    /// Commands held, finished ones included until room is needed.
    public static var capacity: Int { 24 }

    var entries: InlineArray<24, CommandEntry?> = InlineArray(repeating: nil)
    /// Entries held.
    public private(set) var count = 0
    /// The first entry not finished; `count` when all are.
    var current = 0
    /// No command is written before this time (the last one's settle time).
    var quietUntil: MonotonicTime?
    /// How long an answer is waited for, in ms.
    public var replyTimeoutMilliseconds: Int64

    /// An empty session; answers are waited for `replyTimeoutMilliseconds`.
    public init(replyTimeoutMilliseconds: Int64 = 1500) {
        self.replyTimeoutMilliseconds = replyTimeoutMilliseconds
    }

    /// Entry `index` (0 the oldest held).
    public subscript(index: Int) -> CommandEntry {
        guard index < count, let entry = entries[index] else { preconditionFailure(String(joining: "no command entry ", String(index))) }
        return entry
    }

    /// True when every command is finished.
    public var isIdle: Bool { current >= count }

    /// Queues `command`; finished entries make room. False, queueing nothing, when 24
    /// unfinished commands are already held.
    @discardableResult
    public mutating func enqueue(_ command: ReceiverCommand) -> Bool {
        if count == Self.capacity {
            guard current > 0 else { return false }
            // Drop the oldest finished entries.
            let drop = current
            for index in 0..<(count - drop) { entries[index] = entries[index + drop] }
            for index in (count - drop)..<count { entries[index] = nil }
            count -= drop
            current = 0
        }
        entries[count] = CommandEntry(command: command, status: .waiting, sentAt: nil, attempts: 0)
        count += 1
        return true
    }

    /// The command to write now, if one is due; it is marked sent (or, when nothing answers
    /// it, written and finished: its settle time then holds back the next).
    public mutating func commandToSend(now: MonotonicTime) -> ReceiverCommand? {
        guard current < count, var entry = entries[current], entry.status == .waiting else { return nil }
        if let quietUntil, now < quietUntil { return nil }
        entry.attempts += 1
        entry.sentAt = now
        if entry.command.expectation == .nothing {
            entry.status = .written
            quietUntil = now.adding(milliseconds: entry.command.settleMilliseconds)
            entries[current] = entry
            current += 1
        } else {
            entry.status = .sent(attempt: entry.attempts)
            entries[current] = entry
        }
        return entry.command
    }

    /// Takes a reply; the entry it finished (acknowledged or refused), if any. Replies that
    /// answer nothing outstanding change nothing.
    public mutating func observe(_ reply: ReceiverReply, now: MonotonicTime) -> CommandEntry? {
        guard current < count, var entry = entries[current], case .sent = entry.status else { return nil }
        guard let verdict = Self.verdict(of: reply, for: entry.command.expectation) else { return nil }
        switch verdict {
        case .pending:
            // PAIR001 result 1: the outcome follows; wait again from now.
            entry.sentAt = now
            entries[current] = entry
            return nil
        case .accepted:
            entry.status = .acknowledged
        case .refused(let refusal):
            entry.status = .refused(refusal)
        }
        return finish(entry, now: now)
    }

    /// Retries or gives up on an answer overdue at `now`; the entry when it gave up.
    public mutating func expire(now: MonotonicTime) -> CommandEntry? {
        guard current < count, var entry = entries[current], case .sent = entry.status, let sentAt = entry.sentAt,
              now.milliseconds(since: sentAt) >= replyTimeoutMilliseconds else { return nil }
        guard entry.attempts >= entry.command.attempts else {
            entry.status = .waiting
            entries[current] = entry
            return nil
        }
        entry.status = .noReply(attempts: entry.attempts)
        return finish(entry, now: now)
    }

    /// When the session next needs the loop: the answer's deadline, or when the next command
    /// may go; nil when idle.
    public var nextDeadline: MonotonicTime? {
        guard current < count, let entry = entries[current] else { return nil }
        if case .sent = entry.status, let sentAt = entry.sentAt {
            return sentAt.adding(milliseconds: replyTimeoutMilliseconds)
        }
        return quietUntil ?? MonotonicTime(nanoseconds: 0)
    }

    /// Cancels every unfinished command (the port was reopened: the receiver behind it may
    /// have restarted and the plan is made again).
    public mutating func cancelAll() {
        while current < count {
            entries[current]?.status = .cancelled
            current += 1
        }
        quietUntil = nil
    }

    /// Forgets everything, finished entries included.
    public mutating func removeAll() {
        for index in 0..<count { entries[index] = nil }
        count = 0
        current = 0
        quietUntil = nil
    }

    mutating func finish(_ entry: CommandEntry, now: MonotonicTime) -> CommandEntry {
        entries[current] = entry
        current += 1
        quietUntil = now.adding(milliseconds: entry.command.settleMilliseconds)
        return entry
    }

    enum Verdict: Equatable { case accepted, refused(CommandRefusal), pending }

    /// Whether `reply` answers a command waiting for `expectation`, and how.
    static func verdict(of reply: ReceiverReply, for expectation: ReplyExpectation) -> Verdict? {
        switch (expectation, reply) {
        case (.ubxAcknowledgement(let id), .ubxAcknowledged(let named)) where named == id: .accepted
        case (.ubxAcknowledgement(let id), .ubxRefused(let named)) where named == id: .refused(.ubxNak)
        case (.ubxMessage(let id), .ubxRefused(let named)) where named == id: .refused(.ubxNak)
        case (.ubxMessage(.monVer), .ubxVersion): .accepted
        case (.ubxMessage(let id), .ubxMessage(let got)) where got == id: .accepted
        case (.pmtkAcknowledgement(let number), .pmtkAcknowledgement(let command, let flag)) where command == number:
            flag == .done ? .accepted : .refused(.pmtk(flag))
        case (.pmtkMessage(705), .pmtkRelease): .accepted
        case (.pmtkMessage(10), .pmtkSystem): .accepted
        case (.pmtkMessage(11), .pmtkText): .accepted
        case (.pmtkMessage(let number), .pmtkMessage(let got?)) where got == number: .accepted
        case (.pairAcknowledgement(let number), .pairAcknowledgement(let command, let result)) where command == number:
            result == .done ? .accepted : result == .inProgress ? .pending : .refused(.pair(result))
        case (.quectelVersion, .quectelVersion), (.quectelPairVersion, .quectelPairVersion): .accepted
        default: nil
        }
    }
}
