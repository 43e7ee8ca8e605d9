import TrackCore
import TrackIO

/// The control socket `trackctl` talks to: the listener and its client slots (none in a test
/// or fuzz target that does not want the socket). Each wake-up it accepts, reads, answers each
/// complete request through its host (`ControlAnswer`, one reply buffer allocated at start)
/// and sends the reply. A slow or hostile client cannot stall the loop (`ControlServer`).
/// Nothing here allocates after start.
struct ControlService: ~Copyable {
    var server: ControlServer?
    /// Where an answer is written before it is copied to the client's buffer.
    let reply: ReplyBuffer
    let path: String
    /// True when it has a socket.
    let isOn: Bool

    init(_ server: consuming ControlServer?, path: String) {
        isOn = server != nil
        self.server = server
        self.path = path
        reply = ReplyBuffer(capacity: ControlServer.replyCapacity)
    }

    deinit { reply.deallocate() }

    /// The listener and the clients (writable while a reply is being sent), and the clients'
    /// timeouts. `slots` starts at the listener; the clients follow it.
    mutating func arm(_ loop: inout EventLoop, slots: Range<Int>) {
        guard isOn else { return }
        loop.watch(slots.lowerBound, server?.listener)
        for index in 0..<ControlServer.clientCapacity {
            loop.watch(slots.lowerBound + 1 + index, server?.descriptor(of: index), writable: server?.hasPendingReply(index) == true)
        }
        loop.wake(by: server?.nextDeadline())
    }

    /// Which of its slots the last wait found ready: bit 0 the listener, bit 1 + i client i.
    func readiness(_ loop: borrowing EventLoop, slots: Range<Int>) -> UInt64 {
        var ready: UInt64 = 0
        for offset in 0...ControlServer.clientCapacity {
            let slot = slots.lowerBound + offset
            if loop.isReady(slot) || (offset > 0 && loop.isWritable(slot)) { ready |= 1 << UInt64(offset) }
        }
        return ready
    }

    /// Accepts new clients and answers each complete request through `host`; `ready` from
    /// `readiness`. Then closes the clients past their timeout.
    mutating func serve<Host: ControlHost & ~Copyable>(_ ready: UInt64, host: inout Host, now: MonotonicTime) {
        guard isOn else { return }
        if ready & 1 != 0 { server?.acceptClients(now: now) }
        for index in 0..<ControlServer.clientCapacity where ready & (1 << UInt64(index + 1)) != 0 {
            guard let line = server?.receive(index, now: now) else { continue }
            var buffer = reply
            buffer.removeAll()
            let request = line.withSpan { ControlRequest.parse($0) }
            ControlAnswer.answer(request, host: &host, wake: host.wake(now), reply: &buffer)
            server?.reply(index, buffer, now: now)
        }
        server?.expire(now: now)
    }

    /// Clients refused (every slot busy) and dropped (too slow, a bad request), since start.
    var refused: Int { mutating get { server?.refused ?? 0 } }
    var dropped: Int { mutating get { server?.dropped ?? 0 } }

    /// A reload: the socket's group when it changed (without it only root can use trackctl).
    mutating func apply(_ plan: ReloadPlan) {
        guard let group = plan.controlGroup else { return }
        do {
            try server?.setGroup(group)
        } catch {
            Journal.say("control socket group '" + group + "': " + error.message + "; only root can use trackctl")
        }
    }
}
