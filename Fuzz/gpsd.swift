// Fuzz target `gpsd`: bytes a client sends to trackd's gpsd service, through what the daemon
// runs: `GpsdServer` on a real loopback TCP socket (accept and its VERSION greeting, reading,
// gpsd's splitting of requests at `?` … `;` or line end, overlong requests, the garbage limit),
// `GpsdRequest.parse` with its `?WATCH={…}` reader, and `Daemon.answerGpsd` from a daemon with a
// fix and tracking allowed; the replies go back over the socket and are read by the client.
//
// The input is what one client sends on one connection (then it closes its sending side).
// Checks beyond "no crash":
// * every request the server hands over starts with `?`, holds no `;` or line end, and is at
//   most 80 bytes (gpsd's limit);
// * every object the client reads is one line in gpsd's framing (`{"class":"…",…}` and CRLF,
//   no `null`), and the project's own JSON reader parses it;
// * the first object is the VERSION greeting, and a request answered is answered in kind
//   (POLL with POLL, DEVICES with DEVICES, WATCH with DEVICES and WATCH or an ERROR, the rest
//   with an ERROR).
import CLinux
import Glibc
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

func fuzzTarget(_ input: [UInt8]) {
    GpsdFuzz.shared.exchange(input)
}

final class GpsdFuzz {
    nonisolated(unsafe) static let shared = GpsdFuzz()

    var daemon: FuzzDaemon
    let port: UInt16
    let now = MonotonicTime.seconds(61)

    init() {
        let directory = fuzzDirectory("gpsd")
        var config = TrackdConfig()
        config.log.directory = directory + "/log"
        config.state.file = directory + "/state"
        config.board.simulated = true
        port = GpsdFuzz.freePort()
        guard let address = ListenAddress(parsing: "127.0.0.1:\(port)") else { fatalError("no listen address for port \(port)") }
        config.gpsd.listen = [address]
        config.gpsd.maxClients = 2
        // Fixes a second apart before the requests, so POLL has an epoch to show.
        daemon = .fuzzing(config, directory: directory, fences: FenceSet(), parts: [.gpsd],
                          permission: Permission(state: .always), sentences: GpsdFuzz.sentences)
        guard daemon.gpsd.isOn else { fatalError("cannot listen on 127.0.0.1:\(port)") }
    }

    /// One connection: `bytes` sent, every request the server splits out answered, the replies
    /// read back and checked.
    func exchange(_ bytes: [UInt8]) {
        let client = GpsdFuzz.connect(port)
        let sent = bytes.withUnsafeBytes { clinux_send(client, $0.baseAddress, $0.count) }
        check(sent == bytes.count, "sent \(sent) of \(bytes.count) bytes")
        _ = shutdown(client, Int32(SHUT_WR))
        daemon.gpsd.server.acceptClients(on: 0)
        check(daemon.gpsd.server.descriptor(of: 0) != nil, "the server did not take the connection")

        // As `serveGpsd` does on each wake-up the client's slot is ready, until the end of the
        // stream closes it (the input holds 128 bytes, so a long input takes several reads).
        // In order, as answered: nil for an overlong request (answered with an ERROR).
        var answered: [GpsdRequest?] = []
        for _ in 0..<(bytes.count / 16 + 8) where daemon.gpsd.server.descriptor(of: 0) != nil {
            daemon.gpsd.server.readInput(0)
            for _ in 0..<64 {
                let input = daemon.gpsd.server.nextInput(0)
                if case .nothing = input { break }
                if case .request(let line) = input {
                    let request = line.withSpan { span in
                        check(span.count <= GpsdRequest.maximumLength, "a request of \(span.count) bytes")
                        check(span.count > 0 && span[0] == UInt8(ascii: "?"), "a request not starting with ?")
                        for index in 0..<span.count {
                            check(span[index] != UInt8(ascii: ";") && span[index] != 10, "a request holding its terminator")
                        }
                        return GpsdRequest.parse(span)
                    }
                    GpsdFuzz.answer(line, &daemon, now: now)
                    answered.append(request)
                } else {
                    var reply = TextBuffer()
                    GpsdJSON.writeError("Request too long", to: &reply)
                    daemon.gpsd.server.send(0, &reply)
                    answered.append(nil)
                }
                daemon.gpsd.server.flush(0)
            }
        }
        daemon.gpsd.server.flush(0)
        // The server greeted the client when it took the connection, so there is something to
        // read. Loopback delivers what a send queued in the network stack's soft interrupt,
        // which a loaded machine defers (a CI run beside other work read nothing here once):
        // wait until the first of it is readable; the rest was queued before and comes with it.
        var ready = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, 2_000)
        // Loopback has delivered all of it. The client resets the connection (SO_LINGER 0)
        // before the server closes, so neither side keeps it in TIME_WAIT: hundreds of
        // thousands of inputs would use up the ephemeral ports.
        let received = GpsdFuzz.readAvailable(client)
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        _ = close(client)
        if daemon.gpsd.server.descriptor(of: 0) != nil { daemon.gpsd.server.disconnect(0) }
        GpsdFuzz.checkReplies(received, to: answered)
    }

    /// Answers `line` as the daemon's gpsd service does, from the daemon's own receiver and wake-up.
    static func answer(_ line: GpsdRequestLine, _ daemon: inout FuzzDaemon, now: MonotonicTime) {
        let wake = daemon.wake(now)
        daemon.gpsd.answer(line, client: 0, wake: wake, receiver: daemon.receiver)
    }

    /// The objects `received` must be: VERSION, then each request's answer in order (an
    /// overlong request's an ERROR; the server may have dropped the client for garbage: a prefix).
    static func checkReplies(_ received: [UInt8], to requests: [GpsdRequest?]) {
        var classes: [String] = []
        for line in received.split(separator: 10, omittingEmptySubsequences: false).dropLast() {
            check(line.last == 13, "an object not ended by CRLF: \(String(decoding: line, as: UTF8.self))")
            let object = Array(line.dropLast())
            let text = String(decoding: object, as: UTF8.self)
            check(startsWithBytes(text, "{\"class\":\"") && object.last == UInt8(ascii: "}"), "not gpsd's framing: \(text)")
            check(!text.contains("null"), "null in \(text)")
            do throws(JSONError) {
                _ = try JSONDocument.parse(object)
            } catch {
                fatalError("the JSON reader refuses \(text): \(error)")
            }
            let name = text.utf8.dropFirst(10).prefix { $0 != UInt8(ascii: "\"") }
            classes.append(String(decoding: name, as: UTF8.self))
        }
        check(received.isEmpty || received.last == 10, "the replies end mid-object")
        check(classes.first == "VERSION", "no VERSION greeting first: \(classes)")
        var index = 1
        for request in requests where index < classes.count {
            switch request {
            case .version: check(classes[index] == "VERSION", "?VERSION answered with \(classes[index])")
            case .poll: check(classes[index] == "POLL", "?POLL answered with \(classes[index])")
            case .devices: check(classes[index] == "DEVICES", "?DEVICES answered with \(classes[index])")
            case .watch:
                if classes[index] == "DEVICES" {
                    index += 1
                    check(index >= classes.count || classes[index] == "WATCH", "?WATCH answered with DEVICES, \(classes[index])")
                } else {
                    check(classes[index] == "ERROR", "?WATCH answered with \(classes[index])")
                }
            case .unknown, nil: check(classes[index] == "ERROR", "\(request == nil ? "an overlong" : "an unknown") request answered with \(classes[index])")
            }
            index += 1
        }
        check(classes.count <= 1 + requests.count * 2, "more objects than requests: \(classes)")
    }

    /// A loopback port nobody listens on now (the kernel's choice).
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

    /// Counts connections, to give each its own source address.
    nonisolated(unsafe) static var connections: UInt32 = 0

    /// A connection from a source address of its own in 127.0.0.0/8: when the server drops a
    /// client (garbage) it closes first and keeps that connection in TIME_WAIT for a minute;
    /// from one source address, a few thousand inputs a second would use up the ephemeral ports.
    /// A connect the kernel refuses is tried again, from the next address, a few times (once in
    /// 81,406 inputs on a loaded machine it was, with the listener open); then it fails with
    /// the error.
    static func connect(_ port: UInt16) -> Int32 {
        var error: Int32 = 0
        for attempt in 0..<5 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            check(fd >= 0, "no socket: errno \(errno)")
            connections &+= 1
            var source = sockaddr_in()
            source.sin_family = sa_family_t(AF_INET)
            // 127.1.0.1 … 127.254.255.254, never 127.0.0.1 or a .0/.255 host byte.
            let host = connections % (254 * 256 * 254)
            let octets = (1 + host / (256 * 254), (host / 254) % 256, 1 + host % 254)
            source.sin_addr.s_addr = (UInt32(127) << 24 | octets.0 << 16 | octets.1 << 8 | octets.2).bigEndian
            let bound = withUnsafePointer(to: &source) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            check(bound == 0, "cannot bind a loopback source address: errno \(errno)")
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == 0 { return fd }
            error = errno
            _ = close(fd)
            usleep(useconds_t(10_000 * (attempt + 1)))
        }
        fatalError("fuzz check failed: cannot connect to 127.0.0.1:\(port) in 5 tries: errno \(error)")
    }

    /// Everything the server has sent, up to its end of stream or what has arrived so far.
    static func readAvailable(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got <= 0 { break }
            bytes += chunk[0..<got]
        }
        return bytes
    }

    static let sentences = """
        $GPRMC,120000.00,A,4831.4270,N,00903.9810,E,0.5,90.0,010125,,,A*63
        $GPGGA,120000.00,4831.4270,N,00903.9810,E,1,08,0.9,340.0,M,47.0,M,,*6F
        $GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2*34
        $GPGSV,2,1,08,01,40,083,46,02,17,308,41,03,07,344,39,04,22,228,45*74
        $GPGSV,2,2,08,05,40,083,46,06,17,308,41,07,07,344,39,08,22,228,45*7F
        $GPRMC,120001.00,A,4831.4280,N,00903.9820,E,0.5,90.0,010125,,,A*6E
        $GPGGA,120001.00,4831.4280,N,00903.9820,E,1,08,0.9,340.0,M,47.0,M,,*62
        $GPRMC,120002.00,A,4831.4290,N,00903.9830,E,0.5,90.0,010125,,,A*6D

        """
}
