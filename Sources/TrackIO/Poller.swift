import CLinux
import TrackCore

/// A fixed table of descriptors for one poll(2) per wake-up; slots are addressed by small
/// integers the caller chooses (source, signals, control socket, clients, GPIO).
public struct Poller: ~Copyable {
    /// Number of slots.
    public static var capacity: Int { 16 }

    let table: UnsafeMutablePointer<pollfd>
    /// Wake-ups so far (poll returns), for `scripts/bench loop`.
    public private(set) var wakeUps = 0

    /// A table with every slot empty.
    public init() {
        table = .allocate(capacity: Self.capacity)
        for slot in 0..<Self.capacity { table[slot] = pollfd(fd: -1, events: 0, revents: 0) }
    }

    deinit { table.deallocate() }

    /// Watches `descriptor` in `slot` for input (and output when `writable`); nil clears the slot.
    public mutating func watch(_ slot: Int, _ descriptor: FileDescriptor?, writable: Bool = false) {
        table[slot].fd = descriptor?.rawValue ?? -1
        table[slot].events = Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0)
        table[slot].revents = 0
    }

    /// True when the last wait found `slot` readable, hung up or in error.
    public func isReady(_ slot: Int) -> Bool {
        table[slot].fd >= 0 && table[slot].revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// True when the last wait found `slot` writable.
    public func isWritable(_ slot: Int) -> Bool {
        table[slot].fd >= 0 && table[slot].revents & Int16(POLLOUT) != 0
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
        for slot in 0..<Self.capacity { table[slot].revents = 0 }
        let result = poll(table, nfds_t(Self.capacity), timeout)
        wakeUps += 1
        if result < 0 {
            let error = Errno.current
            if error == .interrupted { return }
            throw error
        }
    }
}
