import Foundation
import Glibc
import Testing

/// systemd's notify protocol as trackd speaks it: a datagram socket standing in for systemd.
@Suite("sd_notify", .serialized)
struct NotifyTests {
    /// A bound Unix datagram socket at `path`.
    final class Listener {
        let fd: Int32
        let path: String

        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// Datagrams received within `seconds`, in order.
        func messages(for seconds: Double) -> [String] {
            var result: [String] = []
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 256)
            while Date() < deadline {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 50) == 1 else { continue }
                let got = recv(fd, &buffer, buffer.count, 0)
                if got > 0 { result.append(String(decoding: buffer[0..<got], as: UTF8.self)) }
            }
            return result
        }
    }

    @Test("READY at start, RELOADING and READY on SIGHUP, WATCHDOG, STOPPING on SIGTERM")
    func lifecycle() throws {
        let harness = try DaemonHarness()
        let listener = try Listener(path: harness.directory.appendingPathComponent("notify").path)
        try harness.start(environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"])
        let start = listener.messages(for: 1.5)
        #expect(start.first == "READY=1")
        // Half the watchdog interval: about fifteen in 1.5 s; a loaded machine may lose a few.
        #expect(start.filter { $0 == "WATCHDOG=1" }.count >= 5)
        kill(harness.daemon!.processIdentifier, SIGHUP)
        let reload = listener.messages(for: 1.0).filter { $0 != "WATCHDOG=1" }
        #expect(reload == ["RELOADING=1", "READY=1"])
        harness.daemon!.terminate()
        harness.daemon!.waitUntilExit()
        let stop = listener.messages(for: 0.5).filter { $0 != "WATCHDOG=1" }
        #expect(stop == ["STOPPING=1"])
    }

    @Test("without NOTIFY_SOCKET nothing is sent and nothing fails")
    func absent() throws {
        let harness = try DaemonHarness()
        try harness.start()
        #expect(harness.daemon?.isRunning == true)
        let status = try harness.trackctl(["status"])
        #expect(status.status == 0)
    }
}
