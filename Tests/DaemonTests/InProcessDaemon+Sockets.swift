import Foundation
import Glibc
import CLinux
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// The in-process daemon's sockets as their clients use them: trackctl's one request per
/// connection on the control socket, gpsd's clients on TCP. The loop is stepped at the
/// current time between the client's steps, as the real poll would wake for them.
extension InProcessDaemon {
    /// Asks `request` on the control socket as trackctl does (connect, one line, read until
    /// the server closes), stepping the loop at the current time until the reply is in.
    func ask(_ request: String) throws -> String {
        let path = daemon.process.config.control.socket
        let client = path.withCString { clinux_unix_connect($0) }
        guard client >= 0 else { throw SocketError.connect(errno) }
        defer { _ = close(client) }
        let line = Array((request + "\n").utf8)
        let sent = line.withUnsafeBytes { clinux_send(client, $0.baseAddress, $0.count) }
        guard sent == line.count else { throw SocketError.send(errno) }
        var reply: [UInt8] = []
        for _ in 0..<16 {
            step(at: nowMilliseconds)
            let (bytes, closed) = Self.receive(client)
            reply += bytes
            if closed { break }
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// A gpsd client connected to the daemon's first gpsd listener, greeted.
    func gpsdClient() throws -> Int32 {
        guard let address = daemon.process.config.gpsd.listen.first else { throw SocketError.connect(ENOENT) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = address.port.bigEndian
        target.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw SocketError.connect(errno) }
        return fd
    }

    /// Sends `text` from gpsd client `fd`, steps the loop, and returns what the client
    /// received since it last read (whole lines).
    func gpsd(_ fd: Int32, send text: String = "") -> [String] {
        if !text.isEmpty {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { clinux_send(fd, $0.baseAddress, $0.count) }
        }
        step(at: nowMilliseconds)
        return Self.lines(fd)
    }

    /// What client `fd` received, as lines without their CRLF. The server's socket holds a
    /// small object back until the client's stack acknowledges the one before (Nagle's rule,
    /// up to the client's delayed-ACK time), so this reads until 100 ms bring nothing more.
    static func lines(_ fd: Int32) -> [String] {
        var bytes: [UInt8] = []
        while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { break }
            let (more, closed) = receive(fd)
            bytes += more
            if closed || more.isEmpty { break }
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
    }

    /// What `fd` has now, without waiting, and whether the other side closed.
    static func receive(_ fd: Int32) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got == 0 { return (bytes, true) }
            if got < 0 { return (bytes, false) }
            bytes += chunk[0..<got]
        }
    }

    /// A loopback port nobody listens on now.
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { _ = close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(fd, raw, length)
                _ = getsockname(fd, raw, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    enum SocketError: Error {
        case connect(Int32)
        case send(Int32)
    }
}
