import CLinux
import TrackCore

/// Why a control request failed.
public enum ControlError: Error, Equatable, Sendable {
    /// The socket could not be reached: trackd not running, wrong path, no permission.
    case connect(path: String, Errno)
    /// Sending or receiving failed.
    case transfer(path: String, Errno)

    /// One line for the user, with a hint, e.g. `"/run/trackd/control.sock: No such file or
    /// directory (is trackd running?)"`.
    public var description: String {
        switch self {
        case .connect(let path, let errno):
            let hint = errno == .noSuchFile || errno.rawValue == ECONNREFUSED
                ? " (is trackd running?)"
                : errno.rawValue == EACCES ? " (are you in the trackd group?)" : ""
            return String(joining: path, ": ", errno.message, hint)
        case .transfer(let path, let errno):
            return String(joining: path, ": ", errno.message)
        }
    }
}

/// The `trackctl` side of the control socket: one request line, the whole reply back.
public enum ControlClient {
    /// Sends `request` (without the newline) to the daemon at `path` and returns its reply,
    /// which ends with an empty line (stripped here).
    public static func request(_ request: String, path: String) throws(ControlError) -> String {
        let fd: Int32
        do {
            fd = try syscall { path.withCString { clinux_unix_connect($0) } }
        } catch {
            throw .connect(path: path, error)
        }
        let socket = FileDescriptor(rawValue: fd)
        defer { try? socket.close() }
        do {
            try socket.writeAll(request + "\n")
            var reply: [UInt8] = []
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
            defer { chunk.deallocate() }
            while true {
                let got = try socket.read(into: chunk)
                if got == 0 { break }
                reply.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<got]))
            }
            while reply.last == UInt8(ascii: "\n") && reply.count >= 2 && reply[reply.count - 2] == UInt8(ascii: "\n") {
                reply.removeLast()
            }
            return String(decoding: reply, as: UTF8.self)
        } catch {
            throw .transfer(path: path, error)
        }
    }
}
