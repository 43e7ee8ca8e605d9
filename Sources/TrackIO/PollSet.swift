import CLinux

/// Up to eight descriptors waited on with one poll(2), e.g. a signalfd and a pty master.
/// Fixed size: building and waiting allocate nothing.
public struct PollSet {
    /// Most descriptors one set holds.
    public static var capacity: Int { 8 }

    var entries: InlineArray<8, pollfd>
    /// Number of descriptors added.
    public private(set) var count = 0

    /// An empty set.
    public init() {
        entries = InlineArray(repeating: pollfd(fd: -1, events: 0, revents: 0))
    }

    /// Adds `descriptor` to wait for input; returns its index for `isReadable(_:)`.
    /// Precondition: fewer than `capacity` descriptors were added.
    @discardableResult
    public mutating func add(_ descriptor: FileDescriptor) -> Int {
        precondition(count < Self.capacity, "PollSet holds at most \(Self.capacity) descriptors")
        entries[count] = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        count += 1
        return count - 1
    }

    /// Waits until a descriptor has input or hung up, or `timeoutMilliseconds` pass (-1: no
    /// limit); returns how many descriptors are ready (0 on timeout). A signal is retried
    /// with the same timeout.
    public mutating func wait(timeoutMilliseconds: Int32) throws(Errno) -> Int {
        let count = self.count
        var span = entries.mutableSpan
        let ready = try span.withUnsafeMutableBufferPointer { (entries) throws(Errno) in
            try syscall { poll(entries.baseAddress, nfds_t(count), timeoutMilliseconds) }
        }
        return Int(ready)
    }

    /// True when entry `index` has input, hung up or failed after the last `wait`: in each case
    /// its owner must read to find out which.
    public func isReadable(_ index: Int) -> Bool {
        entries[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
    }
}
