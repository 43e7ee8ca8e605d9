import CLinux

/// A program run with its standard output and error on pipes this process reads, e.g. the
/// system `ssh` for `trackctl pull`: found in PATH, this process's environment, standard input
/// /dev/null.
///
/// Example:
///
///     let child = try ChildProcess(["ssh", "tracker", "trackctl", "log", "send"])  // throws(Errno)
///     … read child.output and child.errors until both reach end of file …
///     let code = child.wait()                                                  // 0, 255, 128 + signal
public struct ChildProcess: Sendable {
    /// The child's process id.
    public let pid: Int32
    /// The reading end of its standard output.
    public let output: FileDescriptor
    /// The reading end of its standard error.
    public let errors: FileDescriptor

    /// Starts `argv[0]` (a name looked up in PATH, or a path) with `argv`.
    public init(_ argv: [String]) throws(Errno) {
        guard !argv.isEmpty else { throw Errno(rawValue: EINVAL) }
        var storage: [UInt8] = []
        var offsets: [Int] = []
        for argument in argv {
            offsets.append(storage.count)
            storage.append(contentsOf: argument.utf8)
            storage.append(0)
        }
        var outputFD: Int32 = -1
        var errorFD: Int32 = -1
        let result: Int32 = storage.withUnsafeMutableBufferPointer { bytes in
            guard let start = bytes.baseAddress else { return -1 }
            let base = UnsafeMutableRawPointer(start).assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafeMutablePointer<CChar>?] = offsets.map { base + $0 }
            pointers.append(nil)
            return pointers.withUnsafeBufferPointer { list in
                guard let first = list.baseAddress else { return -1 }
                return clinux_spawn_piped(base, first, &outputFD, &errorFD)
            }
        }
        guard result > 0 else { throw Errno.current }
        pid = result
        output = FileDescriptor(rawValue: outputFD)
        errors = FileDescriptor(rawValue: errorFD)
    }

    /// Waits for the child to exit and returns its exit code (128 + the signal for one killed
    /// by a signal, -1 when it cannot be waited for). Closes nothing: close `output` and
    /// `errors` when done reading them.
    public func wait() -> Int32 {
        var status: Int32 = 0
        guard clinux_wait(pid, &status) == pid else { return -1 }
        return clinux_exit_code(status)
    }

    /// Sends SIGTERM to the child.
    public func terminate() {
        _ = kill(pid, SIGTERM)
    }
}
