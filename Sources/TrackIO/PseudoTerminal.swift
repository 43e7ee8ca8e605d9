import CLinux
import TrackCore

/// Why a pseudo-terminal could not be set up.
public enum PseudoTerminalError: Error, Equatable, Sendable {
    /// Creating the pair failed at `step` (`posix_openpt`, `unlockpt`, …).
    case create(step: StaticString, Errno)
    /// The symbolic link could not be made.
    case link(path: String, Errno)
    /// Something other than a symbolic link is at the requested link path; it is left alone.
    case linkOccupied(path: String)

    /// Equal when they name the same step, path and errno.
    public static func == (lhs: PseudoTerminalError, rhs: PseudoTerminalError) -> Bool {
        switch (lhs, rhs) {
        case (.create(let a, let e), .create(let b, let f)): a.description == b.description && e == f
        case (.link(let a, let e), .link(let b, let f)): a == b && e == f
        case (.linkOccupied(let a), .linkOccupied(let b)): a == b
        default: false
        }
    }

    /// One line, e.g. `"/tmp/gps: cannot make the link: Permission denied"`.
    public var description: String {
        switch self {
        case .create(let step, let errno): String(joining: "pseudo-terminal: ", "\(step)", ": ", errno.message)
        case .link(let path, let errno): String(joining: path, ": cannot make the link: ", errno.message)
        case .linkOccupied(let path): String(joining: path, ": exists and is not a symbolic link; not replacing it")
        }
    }
}

/// A pseudo-terminal pair standing in for a UART: a simulated receiver writes NMEA to `master`,
/// and trackd opens `slavePath` (or `linkPath`) with `SerialPort` as if it were the real device.
///
/// The pair keeps one slave descriptor of its own, set raw: without it the slave would echo
/// what the master writes back to the master (a new pty starts in canonical mode with ECHO),
/// and the master would report a hang-up whenever trackd closes the port to reopen it. Closing
/// the pair (or letting it go) closes the master: an open slave then reads EOF, as a UART does
/// when its USB adapter is unplugged, and the slave path disappears.
public struct PseudoTerminal: ~Copyable {
    /// The receiver's side, non-blocking: writes fail with EAGAIN when nobody reads for a while
    /// (about 16 KiB are buffered), like bytes lost on a UART nobody listens to.
    public let master: FileDescriptor
    /// The device path trackd opens, e.g. `/dev/pts/3`.
    public let slavePath: String
    /// The symbolic link to `slavePath`, when one was asked for.
    public let linkPath: String?
    /// Held open so the pair stays raw and the master never sees a hang-up.
    let slave: FileDescriptor

    /// Creates a pair; with `linkPath`, also a symbolic link there to the slave, replacing an
    /// older link (a previous simulator's) but never a file or device.
    public init(linkPath: String? = nil) throws(PseudoTerminalError) {
        let master: Int32
        do {
            master = try syscall { clinux_posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK) }
        } catch {
            throw .create(step: "posix_openpt", error)
        }
        let masterDescriptor = FileDescriptor(rawValue: master)
        var slaveDescriptor: FileDescriptor?
        do throws(PseudoTerminalError) {
            try Self.step("grantpt") { clinux_grantpt(master) }
            try Self.step("unlockpt") { clinux_unlockpt(master) }
            let path = try Self.slaveName(of: masterDescriptor)
            let slave = try Self.openSlave(path)
            slaveDescriptor = slave
            if let linkPath { try Self.link(linkPath, to: path) }
            self.master = masterDescriptor
            self.slave = slave
            self.slavePath = path
            self.linkPath = linkPath
        } catch {
            try? slaveDescriptor?.close()
            try? masterDescriptor.close()
            throw error
        }
    }

    deinit {
        if let linkPath, Self.linkTarget(linkPath) == slavePath {
            _ = linkPath.withCString { unlink($0) }
        }
        try? slave.close()
        try? master.close()
    }

    /// Closes the pair and removes the link: the slave reads EOF, as on a USB unplug.
    public consuming func close() {}

    static func step(_ name: StaticString, _ call: () -> Int32) throws(PseudoTerminalError) {
        do {
            _ = try syscall(call)
        } catch {
            throw .create(step: name, error)
        }
    }

    static func slaveName(of master: FileDescriptor) throws(PseudoTerminalError) -> String {
        let name = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer -> String? in
            guard let base = buffer.baseAddress, clinux_ptsname_r(master.rawValue, base, buffer.count) == 0 else {
                return nil
            }
            return String(cString: base)
        }
        guard let name else { throw .create(step: "ptsname_r", Errno.current) }
        return name
    }

    static func openSlave(_ path: String) throws(PseudoTerminalError) -> FileDescriptor {
        let slave: FileDescriptor
        do {
            slave = FileDescriptor(rawValue: try syscall {
                path.withCString { clinux_open($0, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK, 0) }
            })
        } catch {
            throw .create(step: "open slave", error)
        }
        do {
            var settings = termios()
            _ = try syscall { tcgetattr(slave.rawValue, &settings) }
            cfmakeraw(&settings)
            _ = try syscall { tcsetattr(slave.rawValue, TCSANOW, &settings) }
        } catch {
            try? slave.close()
            throw .create(step: "tcsetattr", error)
        }
        return slave
    }

    static func link(_ linkPath: String, to target: String) throws(PseudoTerminalError) {
        if linkTarget(linkPath) != nil {
            _ = linkPath.withCString { unlink($0) }
        } else if linkPath.withCString({ access($0, F_OK) }) == 0 {
            throw .linkOccupied(path: linkPath)
        }
        do {
            _ = try syscall { target.withCString { t in linkPath.withCString { symlink(t, $0) } } }
        } catch {
            throw .link(path: linkPath, error)
        }
    }

    /// Where the symbolic link at `path` points; nil when `path` is not a symbolic link.
    static func linkTarget(_ path: String) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            let count = path.withCString { readlink($0, base, buffer.count) }
            guard count >= 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
        }
    }
}
