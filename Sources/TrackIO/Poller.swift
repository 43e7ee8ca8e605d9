import CLinux
import TrackCore

/// A fixed table of descriptors for one poll(2) per wake-up; slots are small integers the
/// caller chooses (source, signals, control socket, clients, GPIO). Nothing is allocated.
public struct Poller: ~Copyable {
    /// Number of slots.
    public static var capacity: Int { 32 }

    var table: InlineArray<32, pollfd> = InlineArray(repeating: pollfd(fd: -1, events: 0, revents: 0))
    /// Wake-ups so far (poll returns), for `trackctl status` and `scripts/bench loop`.
    public private(set) var wakeUps = 0

    /// A table with every slot empty.
    public init() {}

    /// Watches `descriptor` in `slot` for input (and output when `writable`); nil clears the slot.
    public mutating func watch(_ slot: Int, _ descriptor: FileDescriptor?, writable: Bool = false) {
        table[slot] = pollfd(
            fd: descriptor?.rawValue ?? -1,
            events: Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0),
            revents: 0)
    }

    /// True when the last wait found `slot` readable, hung up or in error: its owner must read
    /// to find out which.
    public func isReady(_ slot: Int) -> Bool {
        table[slot].fd >= 0 && table[slot].revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// True when the last wait found `slot` writable.
    public func isWritable(_ slot: Int) -> Bool {
        table[slot].fd >= 0 && table[slot].revents & Int16(POLLOUT) != 0
    }

    /// True when the last wait found any slot ready or writable.
    public var anyReady: Bool {
        for index in 0..<Self.capacity where isReady(index) || isWritable(index) { return true }
        return false
    }

    /// Forgets what the last wait found: nothing ready (a wake-up a test makes without polling).
    public mutating func clearReadiness() {
        for index in 0..<Self.capacity { table[index].revents = 0 }
    }

    /// Marks `slot` readable as a poll finding input would (a test stepping the loop itself).
    public mutating func markReady(_ slot: Int) {
        table[slot].revents |= Int16(POLLIN)
    }

    /// Waits until a descriptor is ready or `deadline` passes (nil: no deadline).
    /// EINTR returns early with nothing ready; other errors throw.
    public mutating func wait(until deadline: MonotonicTime?, now: MonotonicTime) throws(Errno) {
        var timeout: Int32 = -1
        if let deadline {
            let remaining = deadline.nanoseconds - now.nanoseconds
            // Round up so the loop never wakes a hair before its deadline and spins.
            timeout = remaining <= 0 ? 0 : Int32(min((remaining + 999_999) / 1_000_000, 3_600_000))
        }
        var span = table.mutableSpan
        let result = span.withUnsafeMutableBufferPointer { entries in
            for index in entries.indices { entries[index].revents = 0 }
            return poll(entries.baseAddress, nfds_t(entries.count), timeout)
        }
        wakeUps += 1
        if result < 0 {
            let error = Errno.current
            if error == .interrupted { return }
            throw error
        }
    }
}
