import CLinux
import TrackCore

/// The control socket: a Unix stream listener and a fixed number of client slots with fixed
/// buffers. A request is one line; the reply is lines ending with an empty line.
///
/// No client can stall the loop: everything is non-blocking, a request longer than the input
/// buffer or with bytes that cannot be text is answered with an error and closed, and a client
/// that neither finishes its request nor reads its reply within `timeout` is closed.
public struct ControlServer: ~Copyable {
    /// Client slots.
    public static var clientCapacity: Int { 4 }
    /// Longest request line.
    public static var requestCapacity: Int { 256 }
    /// Largest reply.
    public static var replyCapacity: Int { 16_384 }

    /// The listening socket.
    public let listener: FileDescriptor
    let path: String
    let timeoutNanoseconds: Int64
    var clients: [Client]
    /// Connections refused because every slot was busy, and clients dropped for misbehaving.
    public internal(set) var refused = 0
    public internal(set) var dropped = 0

    struct Client {
        var descriptor: FileDescriptor?
        let request: UnsafeMutableRawBufferPointer
        var requestCount = 0
        var reply: ReplyBuffer
        var sent = 0
        var deadline = MonotonicTime(nanoseconds: 0)
        var closeAfterReply = false
    }

    /// Listens at `path` with permissions `mode` (e.g. 0o660); `timeout` closes idle clients.
    public init(path: String, mode: UInt32, timeout: MonotonicTime = .seconds(5)) throws(Errno) {
        let fd = try syscall { path.withCString { clinux_unix_listen($0, mode, 8) } }
        // Removed at deinit; a stale socket file from a crash is replaced by the listen above.
        listener = FileDescriptor(rawValue: fd)
        self.path = path
        timeoutNanoseconds = timeout.nanoseconds
        clients = []
        clients.reserveCapacity(Self.clientCapacity)
        for _ in 0..<Self.clientCapacity {
            clients.append(Client(
                descriptor: nil,
                request: .allocate(byteCount: Self.requestCapacity, alignment: 16),
                reply: ReplyBuffer(capacity: Self.replyCapacity)))
        }
    }

    deinit {
        for index in 0..<Self.clientCapacity {
            if let descriptor = clients[index].descriptor { try? descriptor.close() }
            clients[index].request.deallocate()
            clients[index].reply.deallocate()
        }
        try? listener.close()
        _ = path.withCString { unlink($0) }
    }

    /// Gives the socket file to `group` so its members can use trackctl (mode 0660).
    /// Throws ENOENT when the group does not exist.
    ///
    /// The group is looked up in `groupFile` first (`GroupFile`: no NSS in the daemon for the
    /// common case), then through the C library for groups only a directory service knows.
    public func setGroup(_ group: String, groupFile: String = "/etc/group") throws(Errno) {
        if let text = try? FileDescriptor.readWholeFile(groupFile, limit: 4 << 20),
           let id = GroupFile.groupID(named: group, in: text) {
            _ = try syscall { path.withCString { clinux_chown_gid($0, id) } }
            return
        }
        _ = try syscall { path.withCString { path in group.withCString { clinux_chown_group(path, $0) } } }
    }

    /// The descriptor of client slot `index`, if connected.
    public func descriptor(of index: Int) -> FileDescriptor? { clients[index].descriptor }

    /// True when client `index` has reply bytes waiting to be written.
    public func hasPendingReply(_ index: Int) -> Bool {
        clients[index].descriptor != nil && clients[index].sent < clients[index].reply.count
    }

    /// The earliest client timeout.
    public func nextDeadline() -> MonotonicTime? {
        var earliest: MonotonicTime?
        for index in 0..<Self.clientCapacity where clients[index].descriptor != nil {
            let deadline = clients[index].deadline
            if earliest == nil || deadline < earliest! { earliest = deadline }
        }
        return earliest
    }

    /// Accepts waiting connections into free slots; refuses the rest.
    public mutating func acceptClients(now: MonotonicTime) {
        while true {
            let fd = clinux_accept(listener.rawValue)
            if fd < 0 { return }
            let connection = FileDescriptor(rawValue: fd)
            guard let slot = freeSlot() else {
                refused += 1
                _ = clinux_send(fd, busyMessage.utf8Start, busyMessage.utf8CodeUnitCount)
                try? connection.close()
                continue
            }
            clients[slot].descriptor = connection
            clients[slot].requestCount = 0
            clients[slot].reply.removeAll()
            clients[slot].sent = 0
            clients[slot].closeAfterReply = false
            clients[slot].deadline = now.adding(nanoseconds: timeoutNanoseconds)
        }
    }

    func freeSlot() -> Int? {
        for index in 0..<Self.clientCapacity where clients[index].descriptor == nil { return index }
        return nil
    }

    /// Closes clients whose timeout has passed.
    public mutating func expire(now: MonotonicTime) {
        for index in 0..<Self.clientCapacity where clients[index].descriptor != nil && clients[index].deadline <= now {
            dropped += 1
            disconnect(index)
        }
    }

    mutating func disconnect(_ index: Int) {
        if let descriptor = clients[index].descriptor { try? descriptor.close() }
        clients[index].descriptor = nil
    }
}

private let busyMessage: StaticString = "error busy: too many control clients\n\n"
