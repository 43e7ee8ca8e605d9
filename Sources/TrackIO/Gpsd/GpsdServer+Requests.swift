import CLinux
import TrackCore

/// One request as a client sent it, from `?` to before its `;` or line end, e.g.
/// `?WATCH={"enable":true}`, copied out so the daemon can answer it while the server is used.
public struct GpsdRequestLine: Sendable {
    var storage: InlineArray<80, UInt8> = InlineArray(repeating: 0)
    /// Bytes in the request.
    public private(set) var count = 0

    /// A request of `bytes` (at most 80 kept), e.g. from a test.
    public init(_ bytes: some Sequence<UInt8>) {
        for byte in bytes where count < 80 {
            storage[count] = byte
            count += 1
        }
    }

    /// Runs `body` over the request's bytes.
    public func withSpan<R>(_ body: (Span<UInt8>) -> R) -> R {
        body(storage.span.extracting(0..<count))
    }
}

extension GpsdServer {
    /// What reading a client brought.
    public enum Input {
        /// A complete request to answer.
        case request(GpsdRequestLine)
        /// A request over 80 bytes: answer with an ERROR; its rest is skipped.
        case overlong
        /// Nothing complete (yet).
        case nothing
    }

    /// Reads what client `index` has sent (once per wake-up its slot polled ready).
    /// Closes the client at end of stream or on an error.
    public mutating func readInput(_ index: Int) {
        guard let descriptor = clients[index].descriptor else { return }
        let room = Self.inputCapacity - clients[index].inputCount
        guard room > 0 else { return }
        let got = read(descriptor.rawValue, clients[index].input.baseAddress! + clients[index].inputCount, room)
        if got == 0 || (got < 0 && Errno.current != .wouldBlock && Errno.current != .interrupted) {
            disconnect(index)
            return
        }
        if got > 0 { clients[index].inputCount += got }
    }

    /// The next request in client `index`'s input, as gpsd splits them: a request starts at
    /// `?` and ends at `;` or a line end; other bytes between requests are skipped (counted:
    /// too many close the client).
    public mutating func nextInput(_ index: Int) -> Input {
        guard clients[index].descriptor != nil else { return .nothing }
        let input = clients[index].input
        var start = 0
        let count = clients[index].inputCount
        if clients[index].skipping {
            while start < count, input[start] != UInt8(ascii: ";"), input[start] != UInt8(ascii: "\n") { start += 1 }
            if start == count {
                clients[index].inputCount = 0
                return .nothing
            }
            clients[index].skipping = false
            start += 1
        }
        while start < count, input[start] != UInt8(ascii: "?") {
            let byte = input[start]
            if byte != 32 && byte != 9 && byte != 10 && byte != 13 && byte != UInt8(ascii: ";") { clients[index].garbage += 1 }
            start += 1
        }
        if clients[index].garbage > Self.garbageLimit {
            dropped += 1
            disconnect(index)
            return .nothing
        }
        var end = start
        while end < count, input[end] != UInt8(ascii: ";"), input[end] != UInt8(ascii: "\n") { end += 1 }
        if end == count {
            // Incomplete: keep it at the front, unless it is already too long for a request.
            let pending = count - start
            if pending > GpsdRequest.maximumLength {
                overlongRequests += 1
                clients[index].skipping = true
                clients[index].inputCount = 0
                return .overlong
            }
            if start > 0, pending > 0 { memmove(input.baseAddress!, input.baseAddress! + start, pending) }
            clients[index].inputCount = pending
            return .nothing
        }
        var length = end - start
        if length > 0 && input[start + length - 1] == UInt8(ascii: "\r") { length -= 1 }
        let result: Input
        if length > GpsdRequest.maximumLength {
            overlongRequests += 1
            result = .overlong
        } else {
            result = .request(GpsdRequestLine(UnsafeRawBufferPointer(rebasing: input[start..<(start + length)])))
        }
        let rest = count - (end + 1)
        if rest > 0 { memmove(input.baseAddress!, input.baseAddress! + end + 1, rest) }
        clients[index].inputCount = rest
        return result
    }

    /// Objects client `index` lost to a full buffer since it connected.
    public func lost(_ index: Int) -> Int { clients[index].lost }
}
