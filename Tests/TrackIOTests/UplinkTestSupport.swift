import CLinux
import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackIO

/// Runs `path` with `arguments`, waits, and returns its exit status and output.
@discardableResult
func runProgram(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// A loopback port nobody listens on now (the kernel's choice).
func freeLoopbackPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { _ = close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            _ = bind(fd, raw, length)
            _ = getsockname(fd, raw, &length)
        }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// Waits until something accepts connections on 127.0.0.1:`port` (at most 5 s).
func waitForListener(_ port: UInt16) -> Bool {
    for _ in 0..<500 {
        if let address = ListenAddress(parsing: "127.0.0.1:\(port)"), var connection = try? TCPConnection(to: address) {
            var ready = pollfd(fd: connection.descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, 100)
            if (try? connection.finishConnecting()) != nil, !connection.isConnecting { return true }
        }
        usleep(10_000)
    }
    return false
}

/// A test's side of a `TCPConnection`: waits with poll (never longer than `timeout` ms) where the
/// uplink service will wait in the loop.
struct BlockingClient: ~Copyable {
    var connection: TCPConnection
    let timeout: Int32

    init(_ address: String, timeout: Int32 = 5_000) throws {
        let parsed = try #require(ListenAddress(parsing: address))
        var made = try TCPConnection(to: parsed)
        if made.isConnecting {
            var ready = pollfd(fd: made.descriptor.rawValue, events: made.pollEvents(wantsToSend: false), revents: 0)
            _ = poll(&ready, 1, timeout)
            try made.finishConnecting()
        }
        let connecting = made.isConnecting
        #expect(!connecting)
        self.timeout = timeout
        connection = made
    }

    /// Sends all of `bytes`, waiting for POLLOUT when the socket is full.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = try connection.send(bytes.span.extracting(offset..<bytes.count))
            offset += sent
            if sent == 0 {
                var ready = pollfd(fd: connection.descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, timeout)
            }
        }
    }

    /// What arrives next (waiting up to the timeout); empty when the peer closed.
    func receive() throws -> [UInt8] {
        var ready = pollfd(fd: connection.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, timeout)
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: 4_096, alignment: 16)
        defer { raw.deallocate() }
        guard let got = try connection.receive(into: raw) else { throw Errno.timedOut }
        return Array(raw[0..<got])
    }
}

/// One message as the uplink would publish it: its topic, retain flag and payload.
struct PublishedMessage: Equatable {
    var topic: String
    var retain: Bool
    var payload: String
}

/// The OwnTracks messages of every record in `directory`'s log, through the uplink's parts:
/// `UplinkLogReader`, `UplinkMapper` (precise), `OwnTracksJSON`; locations retained, as live.
func ownTracksMessages(_ directory: String, base: String, trackerID: String = "tb") throws -> [PublishedMessage] {
    var reader = try UplinkLogReader(directory: directory, from: .start)
    var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
    var messages: [PublishedMessage] = []
    while let entry = try reader.next(durableEnd: nil) {
        guard case .send(let mapped) = mapper.ownTracks(entry.record, disclosure: .precise) else { continue }
        var buffer = TextBuffer()
        if let location = mapped.location {
            OwnTracksJSON.writeLocation(location, trackerID: trackerID, createdAt: nil, to: &buffer)
            messages.append(PublishedMessage(topic: base, retain: true, payload: buffer.string))
        }
        if let transition = mapped.transition {
            buffer.removeAll()
            let name = Array("fence \(transition.fenceID)".utf8)
            let id = Array(String(transition.fenceID).utf8)
            OwnTracksJSON.writeTransition(transition, trackerID: trackerID, description: name.span, regionID: id.span,
                                          waypointTime: 1_750_000_000, to: &buffer)
            messages.append(PublishedMessage(topic: base + "/event", retain: false, payload: buffer.string))
        }
    }
    return messages
}

extension TextBuffer {
    /// The bytes written so far, as an array (tests).
    mutating func bytes() -> [UInt8] {
        withBytes { span in
            var bytes: [UInt8] = []
            for index in span.indices { bytes.append(span[index]) }
            return bytes
        }
    }
}
