import CLinux
import Foundation
import TestData
import Testing
import TrackCore
import TrackIO

@Suite struct ControlSocketTests {
    /// A client that sees the socket file can connect: the file appears only once the socket
    /// listens with its final mode. (Bound at the path itself, a connect between bind() and
    /// listen() was refused: a daemon test met that on a loaded machine.)
    @Test func theFileAppearsOnlyOnceTheSocketListens() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("control.sock")
        let refused = Counter()
        for _ in 0..<200 {
            let done = DispatchSemaphore(value: 0)
            Thread {
                while access(path, F_OK) != 0 {}
                var info = stat()
                if stat(path, &info) != 0 || info.st_mode & 0o777 != 0o660 { refused.add() }
                if Self.connect(path) != 0 { refused.add() }
                done.signal()
            }.start()
            usleep(200)
            let server = try ControlServer(path: path, mode: 0o660)
            done.wait()
            _ = consume server
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        #expect(refused.value == 0)
        // Nothing but the socket is left in its directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// A stale socket or a stray file at the path is replaced; the staging name is not left.
    @Test func aStaleFileIsReplaced() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("control.sock")
        try "stale".write(toFile: path, atomically: false, encoding: .utf8)
        try "stray".write(toFile: folder.file("control.soc~"), atomically: false, encoding: .utf8)
        let server = try ControlServer(path: path, mode: 0o600)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(Self.connect(path) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["control.sock"])
        _ = consume server
        // A directory at the path is an error, and the staging socket is cleaned up.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: Errno.self) { _ = try ControlServer(path: path, mode: 0o600) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["control.sock"])
    }

    /// 0 when a blocking connect to `path` succeeds, else errno.
    static func connect(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
