import TrackCore
import TrackIO

/// The receiver's time for chrony: which epochs are written, and what the journal says.
extension Daemon where Source: ~Copyable {
    /// Writes `fix`'s time when the fix is good: 2D or 3D, a dated UTC time, and accepted by
    /// the filter or rejected only for its position (accuracy, a jump), which leaves its time
    /// good; a stale, invalid or satellite-poor fix writes nothing. Allocates nothing.
    mutating func publishTime(_ fix: borrowing Fix, accepted: Bool) {
        guard time.isActive, let utc = fix.time, fix.mode.rawValue >= FixMode.twoD.rawValue else { return }
        if !accepted {
            switch fixes.lastRejection {
            case .inaccurate?, .implausibleJump?: break
            default: return
            }
        }
        time.publish(receiverTime: utc, receivedAt: receiver.fixReceivedAt)
    }

    /// One line when the unit cannot be attached (start-up, a reload).
    mutating func journalTime() {
        guard let problem = time.problem else { return }
        say("time: NTP shared memory " + problem + "; chrony gets no time from trackd, tracking goes on")
    }
}
