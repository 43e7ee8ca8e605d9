import TrackCore
import TrackIO

/// The receiver's baud as trackd knows it: where its sentences last came, a baud change the
/// port is to follow once the command has settled, whether sentences came at the new rate,
/// and a switch that lost the receiver (not tried again until a reload) and where it was found
/// again. Values only; the service reads the port and acts on what this says.
///
/// E.g. `set-baud = 115200` on a receiver found at 9600: CFG-PRT written at 0 ms, the port at
/// 115200 from 100 ms, sentences expected there by 5.1 s; none came: "lost after switching to
/// 115200 baud", and the port goes back (auto-baud does so by itself) and finds it at 9600.
struct BaudWatch {
    /// How long sentences may take to come at a new rate before the receiver counts as lost
    /// there, in ms: two of auto-baud's 2.5 s windows.
    static var expectMilliseconds: Int64 { 5_000 }

    /// The rate the receiver sends at, as far as trackd knows; nil before its sentences came.
    var receiverBaud: Int?
    /// A baud command written: the port moves to `baud` at `at`.
    var follow: (baud: Int, at: MonotonicTime)?
    /// After following: sentences are expected at `baud` by `until`, else the port goes back
    /// to `fallback` (a configured baud: auto-baud goes back by itself).
    var expecting: (baud: Int, until: MonotonicTime, fallback: Int?)?
    /// The rate of the last switch that lost the receiver; nil when none did.
    var lostAt: Int?
    /// Where it was found again after that; nil while still lost (or never lost).
    var foundAt: Int?
    /// Accepted sentences at the last look.
    var lastAccepted = 0

    /// The port opened: the rate is to be found again, nothing is followed.
    mutating func opened() {
        receiverBaud = nil
        follow = nil
        expecting = nil
    }

    /// A baud command was written at `now`; the port follows after `settleMilliseconds`.
    mutating func commanded(_ baud: Int, settleMilliseconds: Int64, now: MonotonicTime) {
        follow = (baud, now.adding(milliseconds: settleMilliseconds))
    }

    /// What the service must do at this look, given the core's accepted sentences so far and
    /// the port's rate.
    enum Step: Equatable {
        case nothing
        /// Move the port to this rate.
        case follow(Int)
        /// The receiver came at the rate it was moved to.
        case arrived(Int)
        /// Nothing came at this rate: lost; `fallback` is where to move the port back to.
        case lost(Int, fallback: Int?)
        /// The receiver turned up at this rate, not the one it was left at: it restarted or
        /// was found again after a lost switch; the plan goes again.
        case foundAt(Int)
    }

    /// One look at `now`: `accepted` is the core's running total, `portBaud` the port's rate.
    mutating func step(accepted: Int, portBaud: Int?, autoBaud: Bool, now: MonotonicTime) -> Step {
        let flowing = accepted > lastAccepted
        lastAccepted = accepted
        if let follow, now >= follow.at {
            self.follow = nil
            expecting = (follow.baud, now.adding(milliseconds: Self.expectMilliseconds), autoBaud ? nil : portBaud)
            return .follow(follow.baud)
        }
        if let expecting {
            if flowing && portBaud == expecting.baud {
                self.expecting = nil
                receiverBaud = expecting.baud
                return .arrived(expecting.baud)
            }
            guard now >= expecting.until else { return .nothing }
            self.expecting = nil
            lostAt = expecting.baud
            foundAt = nil
            return .lost(expecting.baud, fallback: expecting.fallback)
        }
        guard flowing, follow == nil, let portBaud else { return .nothing }
        defer { receiverBaud = portBaud }
        guard let known = receiverBaud, known != portBaud || (lostAt != nil && foundAt == nil) else { return .nothing }
        if lostAt != nil && foundAt == nil { foundAt = portBaud }
        return .foundAt(portBaud)
    }

    /// When the next look is due: the port's move, or the end of the wait at a new rate.
    var nextDeadline: MonotonicTime? { earliest(follow?.at, expecting?.until) }
}
