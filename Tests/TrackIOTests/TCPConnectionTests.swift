import CLinux
import Testing
import TestData
import TrackCore
@testable import TrackIO

@Suite struct TCPConnectionTests {
    /// A listener of the test's own on loopback: bytes both ways, then the peer's close.
    @Test(arguments: ["127.0.0.1", "[::1]"])
    func exchangesBytesWithoutBlocking(_ host: String) throws {
        let port = freeLoopbackPort()
        let address = try #require(ListenAddress(parsing: host + ":\(port)"))
        var bytes = address.bytes
        let listener = bytes.mutableSpan.withUnsafeBufferPointer { clinux_tcp_listen(address.isIPv6 ? 1 : 0, $0.baseAddress, port, 4) }
        try #require(listener >= 0, "cannot listen on \(host) (no IPv6 here?)")
        defer { _ = close(listener) }
        let client = try BlockingClient(host + ":\(port)")
        var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, 2_000)
        let server = clinux_accept(listener)
        try #require(server >= 0)
        // Nothing to read yet: nil, not a block.
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { raw.deallocate() }
        #expect(try client.connection.receive(into: raw) == nil)
        try client.send(Array("hello".utf8))
        var got = [UInt8](repeating: 0, count: 16)
        var wait = pollfd(fd: server, events: Int16(POLLIN), revents: 0)
        _ = poll(&wait, 1, 2_000)
        let count = got.withUnsafeMutableBytes { recv(server, $0.baseAddress, $0.count, 0) }
        #expect(Array(got[0..<max(count, 0)]) == Array("hello".utf8))
        let reply = Array("ok".utf8)
        _ = reply.withUnsafeBytes { clinux_send(server, $0.baseAddress, $0.count) }
        #expect(try client.receive() == reply)
        _ = close(server)
        #expect(try client.receive().isEmpty, "0 bytes: the peer closed")
    }

    /// A port nobody listens on: ECONNREFUSED, at once or when the connect finishes, never by
    /// blocking.
    @Test func aClosedPortIsRefused() throws {
        let address = try #require(ListenAddress(parsing: "127.0.0.1:\(freeLoopbackPort())"))
        do {
            var connection = try TCPConnection(to: address)
            var ready = pollfd(fd: connection.descriptor.rawValue, events: connection.pollEvents(wantsToSend: false), revents: 0)
            _ = poll(&ready, 1, 2_000)
            try connection.finishConnecting()
            Issue.record("connected to a closed port")
        } catch {
            #expect(error == .connectionRefused)
            #expect(error.message == "Connection refused")
        }
    }
}
