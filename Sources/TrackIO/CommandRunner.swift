import CLinux

/// Runs event commands (a fence's `command`) as child processes without waiting for them: argv
/// exec'd directly (never a shell), at most `maximum` at once, reaped when SIGCHLD arrives on
/// the daemon's signalfd. A slow or failing command never blocks the loop.
///
/// Example: `runner.start(["/usr/local/bin/alert", "--quiet"], environment: ["TRACKD_EVENT=enter"])`
/// → `.started(pid)`; with `maximum` already running → `.skipped`.
public struct CommandRunner {
    /// The most `maximum` can be.
    public static var capacity: Int { 64 }
    /// Most children running at once, 0…64 (0: commands are never run); may change on reload.
    public var maximum: Int {
        didSet { maximum = min(max(maximum, 0), Self.capacity) }
    }
    /// Process ids of the running children, the first `running` entries. Only these are
    /// reaped, so children other code started are left to it.
    var pids = InlineArray<64, Int32>(repeating: 0)
    /// Children started and not yet reaped.
    public private(set) var running = 0
    /// Commands started since start-up.
    public private(set) var started = 0
    /// Commands not started because `maximum` were running.
    public private(set) var skipped = 0
    /// Commands that could not be started (no such file, not executable), with the last errno.
    public private(set) var failedToStart = 0
    /// The last start failure.
    public private(set) var lastStartError: Errno?
    /// Children that exited with a non-zero code or were killed by a signal.
    public private(set) var failedExits = 0
    /// The exit code of the last child reaped (128 + signal for a killed one).
    public private(set) var lastExitCode: Int32?

    /// What `start` did.
    public enum Outcome: Equatable, Sendable {
        /// Running as this process id.
        case started(Int32)
        /// Not started: `maximum` commands are running.
        case skipped
        /// Not started: posix_spawn failed with this errno.
        case failed(Errno)
    }

    /// A runner allowing `maximum` children at once.
    public init(maximum: Int) {
        self.maximum = min(max(maximum, 0), Self.capacity)
    }

    /// Starts `argv[0]` (an absolute path) with `argv` and exactly `environment` (`NAME=value`
    /// strings; nothing is inherited). Allocates (the C strings): call it per event, not per fix.
    public mutating func start(_ argv: [String], environment: [String]) -> Outcome {
        guard !argv.isEmpty else { return .failed(Errno(rawValue: EINVAL)) }
        guard running < maximum else {
            skipped += 1
            return .skipped
        }
        var storage: [UInt8] = []
        var argvOffsets: [Int] = []
        var environmentOffsets: [Int] = []
        for argument in argv {
            argvOffsets.append(storage.count)
            storage.append(contentsOf: argument.utf8)
            storage.append(0)
        }
        for variable in environment {
            environmentOffsets.append(storage.count)
            storage.append(contentsOf: variable.utf8)
            storage.append(0)
        }
        let result: Int32 = storage.withUnsafeMutableBufferPointer { bytes in
            let base = UnsafeMutableRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            var argvPointers: [UnsafeMutablePointer<CChar>?] = argvOffsets.map { base + $0 }
            argvPointers.append(nil)
            var environmentPointers: [UnsafeMutablePointer<CChar>?] = environmentOffsets.map { base + $0 }
            environmentPointers.append(nil)
            return argvPointers.withUnsafeBufferPointer { argvBuffer in
                environmentPointers.withUnsafeBufferPointer { environmentBuffer in
                    clinux_spawn(base, argvBuffer.baseAddress!, environmentBuffer.baseAddress!)
                }
            }
        }
        guard result > 0 else {
            let error = Errno.current
            failedToStart += 1
            lastStartError = error
            return .failed(error)
        }
        pids[running] = result
        running += 1
        started += 1
        return .started(result)
    }

    /// Reaps every finished child (call on SIGCHLD); returns how many.
    @discardableResult
    public mutating func reap() -> Int {
        var reaped = 0
        var slot = 0
        while slot < running {
            var status: Int32 = 0
            let result = clinux_reap(pids[slot], &status)
            guard result != 0 else {
                slot += 1
                continue
            }
            // Finished (or, -1, no longer ours to wait for): forget it.
            running -= 1
            pids[slot] = pids[running]
            guard result > 0 else { continue }
            reaped += 1
            let code = clinux_exit_code(status)
            lastExitCode = code
            if code != 0 { failedExits += 1 }
        }
        return reaped
    }
}
