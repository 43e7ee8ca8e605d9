import TrackCore

extension SerialPort {
    /// Batches a receiver's burst into few reads (why: `SerialPort+Termios.swift`).
    ///
    /// After a read that returned bytes while the port was being polled, the port holds off:
    /// `descriptor` is nil until `holdUntil`, a window as long as the line needs for
    /// `windowBytes` bytes (800 by default: an epoch of ten sentences with room to spare) at
    /// the current rate, clamped to `minimumNanoseconds…maximumNanoseconds`. At the deadline it
    /// reads everything that came. If the line carried at least three quarters of what it could
    /// in that time, the burst is still running and the port holds again; otherwise it polls
    /// the descriptor until the next burst. A 1 Hz receiver costs 2 wake-ups per epoch: the
    /// first bytes, and the read after the burst.
    struct ReadCoalescer: Equatable, Sendable {
        /// Bytes the line must be able to carry during one window; 0 turns coalescing off.
        var windowBytes: Int
        /// Shortest and longest window.
        var minimumNanoseconds: Int64
        var maximumNanoseconds: Int64
        /// While holding: when the port reads next.
        private(set) var holdUntil: MonotonicTime?
        var holdStart = MonotonicTime(nanoseconds: 0)
        var bytesSinceHoldStart = 0

        /// True while the descriptor should not be polled.
        var isHolding: Bool { holdUntil != nil }

        /// The window at `baud`, e.g. 800 bytes at 9600 baud → 833 ms.
        func window(baud: Int) -> Int64 {
            let line = Int64(windowBytes) * 10 * 1_000_000_000 / Int64(max(baud, 1))
            return min(max(line, minimumNanoseconds), maximumNanoseconds)
        }

        /// False while holding and the window has not passed.
        func mayRead(now: MonotonicTime) -> Bool {
            guard let holdUntil else { return true }
            return now >= holdUntil
        }

        /// Updates the state after a read of `count` bytes at `now`; `filledBuffer` says the
        /// caller's buffer was too small for what was waiting.
        mutating func didRead(count: Int, filledBuffer: Bool, now: MonotonicTime, baud: Int) {
            guard windowBytes > 0 else { return }
            guard let until = holdUntil else {
                if count > 0 { hold(from: now, baud: baud) }
                return
            }
            bytesSinceHoldStart += count
            // Read early (auto-baud's deadline): the window still runs.
            if now < until { return }
            if filledBuffer {
                // More is waiting: come straight back.
                holdUntil = now
                return
            }
            let elapsed = now.nanoseconds - holdStart.nanoseconds
            let capacity = elapsed * Int64(max(baud, 1)) / 10 / 1_000_000_000
            if bytesSinceHoldStart > 0 && Int64(bytesSinceHoldStart) * 4 >= capacity * 3 {
                hold(from: now, baud: baud)
            } else {
                holdUntil = nil
            }
        }

        mutating func hold(from now: MonotonicTime, baud: Int) {
            holdStart = now
            bytesSinceHoldStart = 0
            holdUntil = now.adding(nanoseconds: window(baud: baud))
        }

        /// Back to polling (port opened, closed or rate changed).
        mutating func reset() {
            holdUntil = nil
            bytesSinceHoldStart = 0
        }
    }

    /// When to try opening the port again after it failed or went away: the delay doubles
    /// from the minimum to the maximum (1 s, 2 s, 4 s … 30 s) and drops back to the minimum
    /// once bytes arrive again.
    struct ReopenBackoff: Equatable, Sendable {
        var minimumMilliseconds: Int64
        var maximumMilliseconds: Int64
        /// The delay the next failure waits.
        var delayMilliseconds: Int64
        /// When the next open is due; nil while open or after `close()`.
        var retryAt: MonotonicTime?

        init(minimumMilliseconds: Int64, maximumMilliseconds: Int64) {
            self.minimumMilliseconds = max(minimumMilliseconds, 1)
            self.maximumMilliseconds = max(maximumMilliseconds, self.minimumMilliseconds)
            delayMilliseconds = self.minimumMilliseconds
        }

        /// A failure at `now`: schedules the retry and doubles the next delay.
        mutating func failed(now: MonotonicTime) {
            retryAt = now.adding(milliseconds: delayMilliseconds)
            delayMilliseconds = min(delayMilliseconds * 2, maximumMilliseconds)
        }

        /// The device works again (bytes arrived): the next failure waits the minimum.
        mutating func recovered() {
            delayMilliseconds = minimumMilliseconds
        }
    }
}
