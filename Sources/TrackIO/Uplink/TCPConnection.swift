import CLinux
import TrackCore

/// A TCP client connection that never blocks the loop: connect(2) is started and finished when
/// poll says the socket is writable, sends take what the socket takes now, receives return what
/// is there. Numeric addresses only (`ListenAddress`: `127.0.0.1:1883`, `[::1]:5055`); no name
/// look-up, which would block. The descriptor is closed when the value goes away. Example:
///
///     var connection = try TCPConnection(to: address)   // throws(Errno), e.g. ENETUNREACH
///     // poll(connection.descriptor, POLLOUT) while connection.isConnecting, then:
///     try connection.finishConnecting()                 // throws ECONNREFUSED …
///     let sent = try connection.send(bytes)              // 0…count, nothing blocks
///     let got = try connection.receive(into: buffer)     // nil: nothing yet; 0: closed by the peer
public struct TCPConnection: ~Copyable {
    /// The socket, for poll.
    public let descriptor: FileDescriptor
    /// True until the connection is made: wait for POLLOUT, then `finishConnecting`.
    public private(set) var isConnecting: Bool
    /// The peer.
    public let address: ListenAddress

    /// Starts a connection to `address`; throws what connect(2) said at once (ENETUNREACH,
    /// ECONNREFUSED on loopback, EMFILE …).
    public init(to address: ListenAddress) throws(Errno) {
        var bytes = address.bytes
        var inProgress: Int32 = 0
        let fd = bytes.mutableSpan.withUnsafeBufferPointer { raw in
            clinux_tcp_connect(address.isIPv6 ? 1 : 0, raw.baseAddress, address.port, &inProgress)
        }
        guard fd >= 0 else { throw Errno.current }
        descriptor = FileDescriptor(rawValue: fd)
        isConnecting = inProgress != 0
        self.address = address
    }

    deinit {
        try? descriptor.close()
    }

    /// The events to poll for: POLLOUT while connecting (or while `wantsToSend`), POLLIN once
    /// connected.
    public func pollEvents(wantsToSend: Bool) -> Int16 {
        if isConnecting { return Int16(POLLOUT) }
        return Int16(POLLIN) | (wantsToSend ? Int16(POLLOUT) : 0)
    }

    /// After poll reported the socket writable (or in error) while connecting: the connection is
    /// made, or this throws why not (ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH …). Nothing happens
    /// once connected.
    public mutating func finishConnecting() throws(Errno) {
        guard isConnecting else { return }
        let error = clinux_socket_error(descriptor.rawValue)
        if error < 0 { throw Errno.current }
        if error == EINPROGRESS || error == EALREADY { return }
        if error != 0 { throw Errno(rawValue: error) }
        isConnecting = false
    }

    /// Sends from `bytes` what the socket takes now: 0 when it would block (or while
    /// connecting). Throws EPIPE or ECONNRESET when the peer is gone; never raises SIGPIPE.
    public func send(_ bytes: Span<UInt8>) throws(Errno) -> Int {
        guard !isConnecting, bytes.count > 0 else { return 0 }
        while true {
            let sent = bytes.withUnsafeBufferPointer { clinux_send(descriptor.rawValue, $0.baseAddress, $0.count) }
            if sent >= 0 { return sent }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock { return 0 }
            throw error
        }
    }

    /// Receives what is waiting into `buffer`: the byte count, 0 when the peer closed the
    /// connection, nil when nothing is there yet (or while connecting).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        guard !isConnecting, buffer.count > 0 else { return nil }
        while true {
            let got = recv(descriptor.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if got >= 0 { return got }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock { return nil }
            throw error
        }
    }
}

extension Errno {
    /// ECONNREFUSED: nothing listens on the port.
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    /// ECONNRESET: the peer reset the connection.
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    /// EPIPE: the peer closed its side and a send went on.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// ETIMEDOUT: the connection timed out.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
}
