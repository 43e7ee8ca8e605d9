import Foundation
import Glibc
import TestData
import Testing

/// A plain TCP connection to trackd's gpsd port, for the clients that misbehave on purpose.
final class LoopbackConnection {
    let fd: Int32

    init?(port: UInt16, receiveBuffer: Int32? = nil) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 { close(fd); return nil }
        var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What arrives within `seconds`; `closed` when trackd closed the connection.
    func receive(seconds: Double) -> (text: String, closed: Bool) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let got = recv(fd, &buffer, buffer.count, 0)
            if got == 0 { return (String(decoding: data, as: UTF8.self), true) }
            if got > 0 { data += buffer[0..<got] }
        }
        return (String(decoding: data, as: UTF8.self), false)
    }
}

/// About 75 s on 2 shared cores, most of it the 1,000 connections to a debug trackd.
@Suite("gpsd clients that misbehave", .serialized, .needsShared("gpsd-regress"))
struct GpsdClientLimitsTests {
    static func gpsdStatus(_ harness: DaemonHarness) throws -> [String: Any] {
        let reply = try harness.trackctl(["status", "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(reply.output.utf8)) as? [String: Any]
        return json?["gpsd"] as? [String: Any] ?? [:]
    }

    @Test("garbage is skipped, an overlong request is answered with an ERROR, a flood of garbage is closed")
    func garbageAndOverlong() throws {
        let (harness, process, port) = try GpsdIntegrationTests.start(speed: 4, privacy: [])
        defer { process.terminate(); process.waitUntilExit(); _ = harness }
        let client = try #require(LoopbackConnection(port: port))
        #expect(client.receive(seconds: 0.5).text.hasPrefix("{\"class\":\"VERSION\""))
        client.send("hello garbage\n?WATCH={\"enable\":true" + String(repeating: "x", count: 100) + "};?VERSION;\n?FOO;\n")
        let answer = client.receive(seconds: 1).text
        let lines = answer.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines == [
            "{\"class\":\"ERROR\",\"message\":\"Request too long\"}",
            "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}",
            "{\"class\":\"ERROR\",\"message\":\"Unrecognized request '?FOO'\"}",
        ], "\(answer)")
        // Without a terminator, an overlong request is refused as soon as it is too long.
        client.send("?" + String(repeating: "W", count: 200))
        #expect(client.receive(seconds: 1).text == "{\"class\":\"ERROR\",\"message\":\"Request too long\"}\r\n")
        client.send(";?VERSION;")
        #expect(client.receive(seconds: 1).text.hasPrefix("{\"class\":\"VERSION\""))
        let flood = try #require(LoopbackConnection(port: port))
        _ = flood.receive(seconds: 0.3)
        for _ in 0..<10 { flood.send(String(repeating: "garbage ", count: 100)) }
        #expect(flood.receive(seconds: 2).closed, "a client sending only garbage is closed")
        #expect((try Self.gpsdStatus(harness)["dropped"] as? Int ?? 0) >= 1)
    }

    @Test("a client that stops reading loses objects, counted, and is dropped; the others and the log go on",
          .needsProgram(GpsdIntegrationTests.gpspipe, package: "gpsd-clients"))
    func slowReader() throws {
        // 40 × ublox-8.log at 100× receiver time: 2,920 epochs in about 30 s.
        let (harness, process, port) = try GpsdIntegrationTests.start(speed: 100, privacy: [["allow", "always"]], repeats: 40)
        defer { process.terminate(); process.waitUntilExit(); _ = harness }
        let slow = try #require(LoopbackConnection(port: port, receiveBuffer: 2_048))
        slow.send("?WATCH={\"enable\":true,\"json\":true,\"nmea\":true};")
        let reader = try GpsdIntegrationTests.run(GpsdIntegrationTests.gpspipe, ["-w", "-n", "400", "127.0.0.1:\(port)"], seconds: 25)
        #expect(GpsdIntegrationTests.lines(reader).count == 400, "a reading client gets everything")
        // Until it is dropped or the replay has ended (about 4 MB for the slow client by then,
        // far more than its 64 KiB and the kernel's buffers; a loaded machine replays slower).
        var gpsd: [String: Any] = [:]
        for _ in 0..<600 {
            gpsd = try Self.gpsdStatus(harness)
            if (gpsd["dropped"] as? Int ?? 0) >= 1 || !process.isRunning { break }
            let status = try harness.trackctl(["status", "--json"]).output
            if status.contains("\"open\":false") { gpsd = try Self.gpsdStatus(harness); break }
            usleep(100_000)
        }
        #expect((gpsd["lostObjects"] as? Int ?? 0) >= 64, "\(gpsd)")
        #expect((gpsd["dropped"] as? Int ?? 0) >= 1, "\(gpsd)")
        let text = try harness.trackctl(["status"]).output
        #expect(text.contains("objects lost to slow readers"), "\(text)")
    }

    @Test("1,000 connects and disconnects leave no descriptor behind")
    func churn() throws {
        let (harness, process, port) = try GpsdIntegrationTests.start(speed: 1, privacy: [])
        defer { process.terminate(); process.waitUntilExit(); _ = harness }
        let fds = "/proc/\(process.processIdentifier)/fd"
        _ = try harness.trackctl(["status"])
        // Sockets only: the log writer opens and closes its files as it pleases.
        func sockets() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: fds).filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0))?.hasPrefix("socket:") == true
            }.count
        }
        let before = try sockets()
        for round in 0..<1_000 {
            guard let client = LoopbackConnection(port: port) else { continue }
            if round % 3 == 1 { client.send("?WATCH={\"enable\":true,\"json\":true};") }
            if round % 3 == 2 { client.send("?WATCH={\"ena") }
        }
        var gpsd: [String: Any] = [:]
        for _ in 0..<50 {
            gpsd = try Self.gpsdStatus(harness)
            if gpsd["clients"] as? Int == 0 { break }
            usleep(100_000)
        }
        #expect(gpsd["clients"] as? Int == 0, "\(gpsd)")
        #expect((gpsd["accepted"] as? Int ?? 0) + (gpsd["refused"] as? Int ?? 0) >= 1_000, "\(gpsd)")
        let after = try sockets()
        #expect(after == before, "sockets before \(before), after \(after)")
        let still = try #require(LoopbackConnection(port: port))
        #expect(still.receive(seconds: 1).text.hasPrefix("{\"class\":\"VERSION\""))
    }
}
