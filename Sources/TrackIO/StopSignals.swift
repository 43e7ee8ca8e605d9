import CLinux

/// SIGINT and SIGTERM delivered as input on a descriptor (signalfd) instead of to a handler,
/// so a poll loop sees "stop" like any other event, e.g. Ctrl-C ending `trackctl simulate`.
public struct StopSignals: ~Copyable {
    /// The signalfd to poll; readable once a stop signal is pending.
    public let descriptor: FileDescriptor

    /// Blocks SIGINT and SIGTERM for this thread and opens a signalfd for them.
    public init() throws(Errno) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        let status = pthread_sigmask(SIG_BLOCK, &set, nil)
        guard status == 0 else { throw Errno(rawValue: status) }
        let fd = try syscall { signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// Consumes pending stop signals; returns true if there was one.
    public func takePending() -> Bool {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        var received = false
        while true {
            let count = withUnsafeMutableBytes(of: &info) { bytes in
                try? syscall { CLinux.read(descriptor.rawValue, bytes.baseAddress, size) }
            }
            guard let count, count == size else { return received }
            received = true
        }
    }
}
