import TrackCore
import TrackIO

/// The control socket `trackctl` talks to: the listener and its client slots. Each wake-up it
/// accepts, reads, and hands the daemon each complete request; the daemon answers into `reply`
/// (one buffer allocated at start) and the service sends it. A slow or hostile client cannot
/// stall the loop (`ControlServer`). Nothing here allocates after start.
struct ControlService: ~Copyable {
    var server: ControlServer
    /// Where the daemon writes an answer before it is copied to the client's buffer.
    let reply: ReplyBuffer
    let path: String

    init(_ server: consuming ControlServer, path: String) {
        self.server = server
        self.path = path
        reply = ReplyBuffer(capacity: ControlServer.replyCapacity)
    }

    deinit { reply.deallocate() }

    /// The listener and the clients (writable while a reply is being sent), and the clients'
    /// timeouts. `slots` starts at the listener; the clients follow it.
    func arm(_ loop: inout EventLoop, slots: Range<Int>) {
        loop.watch(slots.lowerBound, server.listener)
        for index in 0..<ControlServer.clientCapacity {
            loop.watch(slots.lowerBound + 1 + index, server.descriptor(of: index), writable: server.hasPendingReply(index))
        }
        loop.wake(by: server.nextDeadline())
    }

    /// Accepts new clients when the listener is ready.
    mutating func accept(_ loop: borrowing EventLoop, slots: Range<Int>, now: MonotonicTime) {
        if loop.isReady(slots.lowerBound) { server.acceptClients(now: now) }
    }

    /// The next complete request of client `index`, if its slot polled ready or writable.
    mutating func request(_ index: Int, _ loop: borrowing EventLoop, slots: Range<Int>, now: MonotonicTime) -> ControlLine? {
        let slot = slots.lowerBound + 1 + index
        guard loop.isReady(slot) || loop.isWritable(slot) else { return nil }
        return server.receive(index, now: now)
    }

    /// Sends `buffer` (a copy of `reply` the daemon wrote into: copies share the storage) to
    /// client `index`.
    mutating func send(_ index: Int, _ buffer: borrowing ReplyBuffer, now: MonotonicTime) {
        server.reply(index, buffer, now: now)
    }

    /// Closes clients past their timeout.
    mutating func expire(now: MonotonicTime) { server.expire(now: now) }
}
