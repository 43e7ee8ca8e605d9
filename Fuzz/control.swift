// Fuzz target `control`: bytes a client sends on trackd's control socket, through what the
// daemon runs: `ControlServer` over a real Unix socket (accept, the request line's framing and
// its refusals), `ControlRequest.parse`, and `Daemon.answer` from a daemon with a fix, a fence,
// the simulated board and tracking allowed; the reply goes back over the socket.
//
// The input is up to four requests, each sent on its own connection as trackctl does: the bytes
// up to and including an LF, then the next request from the rest. Each input starts from the
// same daemon state (permission, waypoints, the simulated button). Checks beyond "no crash":
// * the server keeps the line a plain reading of the bytes gives (up to the first LF, a last CR
//   off), and refuses exactly what is not text or longer than its 256-byte buffer;
// * every reply fits its buffer, starts with `ok` or `error KIND:`, and ends with an empty line;
// * `status json` answers one JSON document that the project's own reader parses.
import CLinux
import Glibc
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

func fuzzTarget(_ input: [UInt8]) {
    ControlFuzz.shared.reset()
    var rest = input[...]
    for _ in 0..<4 where !rest.isEmpty {
        let end = rest.firstIndex(of: 0x0A).map { $0 + 1 } ?? rest.endIndex
        ControlFuzz.shared.exchange(Array(rest[..<end]))
        rest = rest[end...]
    }
}

final class ControlFuzz {
    nonisolated(unsafe) static let shared = ControlFuzz()

    var daemon: FuzzDaemon
    var server: ControlServer
    let socketPath: String
    let reply = ReplyBuffer(capacity: ControlServer.replyCapacity)
    let now = MonotonicTime.seconds(61)
    /// The permission every input starts from.
    let permission = Permission(state: .always)

    init() {
        let directory = fuzzDirectory("control")
        var config = TrackdConfig()
        config.log.directory = directory + "/log"
        config.state.file = directory + "/state"
        config.control.socket = directory + "/control"
        config.board.simulated = true
        socketPath = config.control.socket
        do {
            server = try ControlServer(path: socketPath, mode: 0o600)
        } catch {
            fatalError("control socket \(socketPath): \(error.message)")
        }
        let fences = (try? FenceFile.parse(ControlFuzz.fence, settings: config.fences.settings)) ?? FenceSet()
        // One good fix a second before the requests, so `where`, `mark` and status have one.
        daemon = .fuzzing(config, directory: directory, fences: fences, permission: permission, sentences: ControlFuzz.sentences)
    }

    /// The state every input starts from.
    func reset() {
        daemon.state.permission = permission
        daemon.state.changed = false
        daemon.waypoints = StatusModel.WaypointFacts()
    }

    /// One connection: `bytes` sent, the server's reading of them, the daemon's answer, the reply
    /// read back.
    func exchange(_ bytes: [UInt8]) {
        let client = socketPath.withCString { clinux_unix_connect($0) }
        check(client >= 0, "cannot connect to the control socket")
        defer { _ = close(client) }
        let sent = bytes.withUnsafeBytes { clinux_send(client, $0.baseAddress, $0.count) }
        check(sent == bytes.count, "sent \(sent) of \(bytes.count) bytes")
        _ = shutdown(client, Int32(SHUT_WR))
        server.acceptClients(now: now)
        check(server.descriptor(of: 0) != nil, "the server did not take the connection")

        var line: ControlLine?
        for _ in 0..<4 where line == nil && server.descriptor(of: 0) != nil {
            line = server.receive(0, now: now)
        }
        let expected = ControlFuzz.framing(bytes)
        var answered: ControlRequest?
        if let line {
            let got = line.withSpan { span in (0..<span.count).map { span[$0] } }
            check(expected == .line(got), "the server read \(got) from \(bytes), expected \(expected)")
            var buffer = reply
            buffer.removeAll()
            let request = line.withSpan { ControlRequest.parse($0) }
            ControlFuzz.answer(request, &daemon, now: now, reply: &buffer)
            check(!buffer.overflowed, "the reply to \(got) overflows its \(ControlServer.replyCapacity) bytes")
            server.reply(0, buffer, now: now)
            answered = request
        }
        if server.descriptor(of: 0) != nil { server.disconnect(0) }
        let received = ControlFuzz.readAll(client)
        switch expected {
        case .line:
            check(line != nil, "no request line from \(bytes)")
            ControlFuzz.checkReply(received, to: answered)
        case .refused:
            check(startsWithBytes(String(decoding: received, as: UTF8.self), "error protocol: "),
                  "\(bytes) refused with \(received)")
        case .incomplete:
            check(received.isEmpty, "an incomplete request was answered: \(received)")
        }
        if case .button = answered { releaseButton() }
    }

    /// Answers `request` as the control service does, with the daemon as its host.
    static func answer(_ request: ControlRequest, _ daemon: inout FuzzDaemon, now: MonotonicTime, reply: inout ReplyBuffer) {
        var wake = daemon.wake(now)
        ControlAnswer.answer(request, host: &daemon, wake: wake, reply: &reply)
        daemon.commitPermission(&wake)
    }

    /// The simulated finger lets go and the loop's wake-up reads the edges, as the release
    /// timer would; the permission a long press toggled is reset by the next input.
    func releaseButton() {
        daemon.loop.cancel(TimerID.simulatedRelease)
        daemon.board.driver.releaseSimulated(now: now)
        guard let button = daemon.board.driver.board.button else { return }
        while (try? daemon.board.driver.board.backend.simulated.readEvent(button)) != nil {}
    }

    /// What the server's reading of `bytes` should be.
    enum Framing: Equatable {
        case line([UInt8])
        case refused
        case incomplete
    }

    static func framing(_ bytes: [UInt8]) -> Framing {
        let window = bytes.prefix(ControlServer.requestCapacity)
        for (offset, byte) in window.enumerated() {
            if byte == 0x0A {
                var line = Array(window[..<offset])
                if line.last == 0x0D { line.removeLast() }
                return .line(line)
            }
            if byte != 0x0D && byte != 0x09 && (byte < 0x20 || byte == 0x7F) { return .refused }
        }
        return window.count == ControlServer.requestCapacity ? .refused : .incomplete
    }

    static func checkReply(_ reply: [UInt8], to request: ControlRequest?) {
        let text = String(decoding: reply, as: UTF8.self)
        check(startsWithBytes(text, "ok") || startsWithBytes(text, "error "), "a reply starting \(text.prefix(40))")
        if startsWithBytes(text, "error ") {
            let kind = reply.prefix(while: { $0 != 0x0A }).dropFirst(6)
            check(kind.contains(UInt8(ascii: ":")), "an error without its kind: \(text.prefix(80))")
        }
        check(reply.count >= 2 && reply.suffix(2) == [0x0A, 0x0A], "a reply without its empty line: \(text.suffix(80))")
        guard case .status(json: true) = request, startsWithBytes(text, "ok\n") else { return }
        let body = Array(reply.dropFirst(3).dropLast(1))
        do {
            _ = try JSONDocument.parse(body)
        } catch {
            check(false, "status json is not JSON (\(error)): \(String(decoding: body, as: UTF8.self))")
        }
    }

    /// Everything the server sent before it closed the connection.
    static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { break }
            bytes += chunk[0..<got]
        }
        return bytes
    }

    /// A 1 Hz receiver's two epochs; the second is the fix in force.
    static let sentences = [
        "GNRMC,173000.00,A,3351.6500,S,15112.7400,E,10.0,180.0,010125,,,A",
        "GNGGA,173000.00,3351.6500,S,15112.7400,E,2,11,0.8,58.0,M,22.5,M,,",
        "GNRMC,173001.00,A,3351.6550,S,15112.7400,E,10.0,180.0,010125,,,A",
        "GNGGA,173001.00,3351.6550,S,15112.7400,E,2,11,0.8,58.1,M,22.5,M,,",
    ].map { body in
        let sum = body.utf8.reduce(UInt8(0), ^)
        let digits = Array("0123456789ABCDEF".utf8)
        return "$" + body + "*" + String(decoding: [digits[Int(sum >> 4)], digits[Int(sum & 0xF)]], as: UTF8.self) + "\r\n"
    }.joined()

    /// One fence around the fix, with a name that needs escaping.
    static let fence = Array("""
        {"type":"FeatureCollection","features":[{"type":"Feature",
        "properties":{"id":"harbour \\"north\\"","name":"Harbour"},"geometry":{"type":"Polygon","coordinates":
        [[[151.20,-33.87],[151.23,-33.87],[151.23,-33.85],[151.20,-33.85],[151.20,-33.87]]]}}]}
        """.utf8)
}
