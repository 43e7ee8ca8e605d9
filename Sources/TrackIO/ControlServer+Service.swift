import CLinux
import TrackCore

/// One request line as a client sent it (CR and LF taken off), copied out of the server's
/// buffer so the daemon can answer it while the server is free to be used, e.g. `status json`.
public struct ControlLine: Sendable {
    var storage: InlineArray<256, UInt8> = InlineArray(repeating: 0)
    /// Bytes in the line.
    public private(set) var count = 0

    /// A line of `bytes` (at most 256 kept), e.g. from a test.
    public init(_ bytes: some Sequence<UInt8>) {
        for byte in bytes where count < 256 {
            storage[count] = byte
            count += 1
        }
    }

    /// Runs `body` over the line's bytes.
    public func withSpan<R>(_ body: (Span<UInt8>) -> R) -> R {
        body(storage.span.extracting(0..<count))
    }
}

extension ControlServer {
    /// Reads what client `index` sent; returns its request line once complete (the client then
    /// waits for `reply`). A client still being sent a reply gets more of it instead; one that
    /// sends what cannot be a request is answered with an error and closed.
    public mutating func receive(_ index: Int, now: MonotonicTime) -> ControlLine? {
        guard let descriptor = clients[index].descriptor else { return nil }
        if clients[index].sent < clients[index].reply.count {
            flush(index, now: now)
            return nil
        }
        let room = Self.requestCapacity - clients[index].requestCount
        let target = UnsafeMutableRawBufferPointer(rebasing: clients[index].request[clients[index].requestCount...])
        let got = read(descriptor.rawValue, target.baseAddress, room)
        if got == 0 || (got < 0 && Errno.current != .wouldBlock && Errno.current != .interrupted) {
            disconnect(index)
            return nil
        }
        if got < 0 { return nil }
        let start = clients[index].requestCount
        clients[index].requestCount += got
        for offset in start..<clients[index].requestCount {
            let byte = clients[index].request[offset]
            if byte == UInt8(ascii: "\n") {
                var length = offset
                if length > 0 && clients[index].request[length - 1] == UInt8(ascii: "\r") { length -= 1 }
                let line = ControlLine(UnsafeRawBufferPointer(rebasing: clients[index].request[0..<length]))
                clients[index].requestCount = 0
                return line
            }
            // Requests are text; anything else is a client that is not speaking the protocol.
            if byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\t") && (byte < 0x20 || byte == 0x7F) {
                reject(index, "error protocol: request is not text\n\n", now: now)
                return nil
            }
        }
        if clients[index].requestCount == Self.requestCapacity {
            reject(index, "error protocol: request line too long\n\n", now: now)
        }
        return nil
    }

    /// Sends `reply` to client `index` (copied; as much as the socket takes now, the rest as
    /// it becomes writable) and closes the connection after it: one request per connection
    /// keeps the state machine trivial; `--watch` reconnects.
    public mutating func reply(_ index: Int, _ reply: borrowing ReplyBuffer, now: MonotonicTime) {
        guard clients[index].descriptor != nil else { return }
        clients[index].reply.removeAll()
        let bytes = reply.bytes(from: 0)
        for byte in bytes { clients[index].reply.append(byte) }
        clients[index].sent = 0
        clients[index].closeAfterReply = true
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
