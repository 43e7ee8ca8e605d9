import CLinux
import TrackCore

extension ControlServer {
    /// Reads what client `index` sent and answers each complete request line through
    /// `answer(request, &reply)`; then writes as much of the reply as the socket takes.
    public mutating func service(
        _ index: Int, now: MonotonicTime,
        _ answer: (Span<UInt8>, inout ReplyBuffer) -> Void
    ) {
        guard let descriptor = clients[index].descriptor else { return }
        if clients[index].sent < clients[index].reply.count {
            flush(index, now: now)
            return
        }
        let room = Self.requestCapacity - clients[index].requestCount
        let target = UnsafeMutableRawBufferPointer(rebasing: clients[index].request[clients[index].requestCount...])
        let got = read(descriptor.rawValue, target.baseAddress, room)
        if got == 0 || (got < 0 && Errno.current != .wouldBlock && Errno.current != .interrupted) {
            disconnect(index)
            return
        }
        if got < 0 { return }
        let start = clients[index].requestCount
        clients[index].requestCount += got
        for offset in start..<clients[index].requestCount {
            let byte = clients[index].request[offset]
            if byte == UInt8(ascii: "\n") {
                let line = UnsafeRawBufferPointer(rebasing: clients[index].request[0..<offset])
                respond(index, line: line, now: now, answer)
                return
            }
            // Requests are text; anything else is a client that is not speaking the protocol.
            if byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\t") && (byte < 0x20 || byte == 0x7F) {
                reject(index, "error protocol: request is not text\n\n", now: now)
                return
            }
        }
        if clients[index].requestCount == Self.requestCapacity {
            reject(index, "error protocol: request line too long\n\n", now: now)
        }
    }

    mutating func respond(
        _ index: Int, line: UnsafeRawBufferPointer, now: MonotonicTime,
        _ answer: (Span<UInt8>, inout ReplyBuffer) -> Void
    ) {
        var length = line.count
        if length > 0 && line[length - 1] == UInt8(ascii: "\r") { length -= 1 }
        clients[index].reply.removeAll()
        clients[index].sent = 0
        let request = UnsafeRawBufferPointer(rebasing: line[0..<length])
        request.withMemoryRebound(to: UInt8.self) { typed in
            answer(typed.span, &clients[index].reply)
        }
        // One request per connection keeps the state machine trivial; `--watch` reconnects.
        clients[index].closeAfterReply = true
        clients[index].requestCount = 0
        clients[index].deadline = now.adding(nanoseconds: timeoutNanoseconds)
        flush(index, now: now)
    }

    mutating func reject(_ index: Int, _ message: StaticString, now: MonotonicTime) {
        dropped += 1
        clients[index].reply.removeAll()
        clients[index].reply.append(message)
        clients[index].sent = 0
        clients[index].closeAfterReply = true
        flush(index, now: now)
    }

    mutating func flush(_ index: Int, now: MonotonicTime) {
        guard let descriptor = clients[index].descriptor else { return }
        while clients[index].sent < clients[index].reply.count {
            let rest = clients[index].reply.bytes(from: clients[index].sent)
            let wrote = clinux_send(descriptor.rawValue, rest.baseAddress, rest.count)
            if wrote < 0 {
                let error = Errno.current
                if error == .wouldBlock { return }
                if error == .interrupted { continue }
                disconnect(index)
                return
            }
            clients[index].sent += wrote
        }
        if clients[index].closeAfterReply { disconnect(index) }
    }
}
