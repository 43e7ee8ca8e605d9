import TrackCore

extension SerialPort {
    /// Finds a receiver's rate by trying each in `searchOrder` until checksummed sentences
    /// arrive: a rate is kept once 2 sentences are accepted at it, and left after `window`
    /// (2.5 s) with none. At a rate that gave exactly one, it waits one more window.
    ///
    /// Totals are the receiver core's running counts (`NMEACounters.accepted` and the sum of
    /// its rejects); the search remembers them at each switch and judges a rate by what came
    /// after. A locked rate is searched again when, for a window, only rejects arrive (the
    /// receiver was reconfigured to another rate), and is tried first after a reopen.
    struct AutoBaud: Equatable, Sendable {
        /// The order rates are tried in: the common defaults of u-blox, MediaTek, SiRF and
        /// Quectel receivers first.
        static let searchOrder = [9600, 38400, 115200, 4800, 19200, 57600, 230400]

        /// How long a rate gets, in nanoseconds.
        var windowNanoseconds: Int64
        /// Index into `searchOrder` of the rate in use.
        private(set) var index = 0
        /// A rate the receiver was told to move to (`follow`), tried before the search goes on
        /// from the rate it was found at.
        private(set) var followed: Int?
        /// True once the rate is found.
        private(set) var isLocked = false
        /// While searching: when the current rate is judged.
        private(set) var searchDeadline = MonotonicTime(nanoseconds: 0)
        var baselineAccepted = 0
        var lastAccepted = 0
        var lastRejected = 0
        // While locked: when an accepted sentence last arrived, and the rejects then.
        var progressAt = MonotonicTime(nanoseconds: 0)
        var rejectedAtProgress = 0

        /// The rate in use, e.g. 9600.
        var baud: Int { followed ?? Self.searchOrder[index] }

        /// Tries `rate` now (the receiver was told to change to it); when nothing checksummed
        /// comes at it within the window, the search goes back to the rate it left.
        mutating func follow(_ rate: Int, now: MonotonicTime) {
            followed = rate
            isLocked = false
            begin(now: now)
        }

        /// When the loop must call without input; nil once locked.
        var deadline: MonotonicTime? { isLocked ? nil : searchDeadline }

        /// Starts judging the current rate afresh (the port was opened).
        mutating func restart(now: MonotonicTime) {
            isLocked = false
            begin(now: now)
        }

        /// Takes the receiver's totals; returns true when the port must switch to `baud`.
        mutating func observe(accepted: Int, rejected: Int, now: MonotonicTime) -> Bool {
            if accepted < lastAccepted || rejected < lastRejected {
                // The receiver core was reset: judge from here.
                baselineAccepted = accepted
                rejectedAtProgress = rejected
            }
            if isLocked && accepted > lastAccepted {
                progressAt = now
                rejectedAtProgress = rejected
            }
            lastAccepted = accepted
            lastRejected = rejected
            return tick(now: now)
        }

        /// Judges the current rate with the totals seen so far; returns true on a switch.
        mutating func tick(now: MonotonicTime) -> Bool {
            if isLocked {
                let quiet = now.nanoseconds - progressAt.nanoseconds >= windowNanoseconds
                guard quiet && lastRejected - rejectedAtProgress >= 2 else { return false }
                isLocked = false
                advance(now: now)
                return true
            }
            let gained = lastAccepted - baselineAccepted
            if gained >= 2 {
                isLocked = true
                progressAt = now
                rejectedAtProgress = lastRejected
                return false
            }
            guard now >= searchDeadline else { return false }
            if gained == 1 {
                searchDeadline = now.adding(nanoseconds: windowNanoseconds)
                return false
            }
            advance(now: now)
            return true
        }

        mutating func advance(now: MonotonicTime) {
            if followed != nil {
                // The receiver did not come at the rate it was told: most likely it stayed.
                followed = nil
            } else {
                index = (index + 1) % Self.searchOrder.count
            }
            begin(now: now)
        }

        mutating func begin(now: MonotonicTime) {
            baselineAccepted = lastAccepted
            searchDeadline = now.adding(nanoseconds: windowNanoseconds)
        }
    }
}
