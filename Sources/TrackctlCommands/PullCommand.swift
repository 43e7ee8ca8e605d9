import TrackCore
import TrackIO

/// `trackctl pull HOST... [--to DIR] [--jobs N] [--export FORMAT] [--prune]`: what is new in each tracker's log, fetched
/// over the system `ssh` (`trackctl log send --after CURSOR` there), verified (every chunk's CRC
/// and the transfer's checksum) and only then appended to `DIR/HOST/`, an ordinary log
/// directory, with the new cursor. `--export` also writes what each pull brought as a file
/// (PullExport); `--prune` then asks the tracker to delete the closed segments the recorded
/// cursor covers (`trackctl log prune --through CURSOR` there). Hosts run in parallel; one line per host as it starts and
/// as it ends, a summary at the end. Exit 0 when every host succeeded, 1 when any failed, 2 for
/// bad arguments.
enum PullCommand {
    static let usage: StaticString = """
        usage: trackctl pull HOST... [--to DIR] [--jobs N] [--export FORMAT] [--prune]
                                     [--ssh-config FILE] [-o SSH_OPTION]...
                                     [--remote-trackctl PATH] [--remote-log DIR]

        Fetches what is new in each tracker's log over ssh (your ~/.ssh/config, keys, agent and
        known_hosts apply) and appends it, verified, to DIR/HOST (default trackd-logs/HOST), a log
        directory `trackctl log export --log DIR/HOST` reads. A cut connection keeps nothing
        partial; the next pull resumes.

          --to                the directory of the copies (default trackd-logs)
          --jobs              hosts at once, 1 to 16 (default 4)
          --export            gpx, geojson, kml or csv: also write what this pull brought to
                              DIR/HOST/exports/FROM-TO.FORMAT
          --prune             once a pull is verified and recorded here, the tracker deletes its
                              closed segments up to the cursor (never the one being written)
          --ssh-config        ssh -F FILE
          -o, --ssh-option    passed to ssh as -o (repeatable)
          --remote-trackctl   trackctl on the trackers (default: trackctl in their PATH)
          --remote-log        the trackers' log directory (default: theirs)

        """

    /// One host being pulled.
    struct Job {
        var host: String
        var directory: PullDirectory
        var cursor: LogCursor
        var child: ChildProcess
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var outputOpen = true
        var errorsOpen = true
        var started: MonotonicTime
        /// The host's place in the arguments (its progress line).
        var slot = 0
        /// Set once the transfer was verified and appended, while the tracker prunes.
        var pulled: LogTransfer?
        /// What the host's line says after the transfer: the export's path.
        var notes = ""
    }

    /// What one host ended with.
    struct Outcome {
        var transfer: LogTransfer?
        var failure: PullError?
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            try? FileDescriptor.standardOutput.writeAll(usage)
            return 0
        }
        let parsed: PullArguments
        do {
            parsed = try PullArguments(arguments)
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl pull: " + error.description + "\n")
            try? FileDescriptor.standardError.writeAll(usage)
            return 2
        }
        var files = PosixLogFiles()
        do throws(Errno) { try files.makeDirectory(parsed.directory) } catch {
            say("trackctl pull: " + parsed.directory + ": " + error.message)
            return 1
        }
        let began = SystemClock.monotonic()
        var queue = parsed.hosts[...]
        var jobs: [Job] = []
        var succeeded = 0
        var failed = 0
        var fixes = 0
        var bytes = 0
        var poller = Poller()
        var live = PullProgress(hosts: parsed.hosts)
        defer { live.clear() }
        while !queue.isEmpty || !jobs.isEmpty {
            while jobs.count < parsed.jobs, let host = queue.popFirst() {
                let slot = parsed.hosts.count - queue.count - 1
                switch start(host, parsed, &live) {
                case .success(var job):
                    job.slot = slot
                    jobs.append(job)
                    live.started(slot)
                case .failure(let failure):
                    live.ended(slot, "FAILED: " + failure.description)
                    failed += 1
                }
            }
            guard !jobs.isEmpty else { continue }
            for slot in 0..<Poller.capacity { poller.watch(slot, nil) }
            for (index, job) in jobs.enumerated() {
                poller.watch(2 * index, job.outputOpen ? job.child.output : nil)
                poller.watch(2 * index + 1, job.errorsOpen ? job.child.errors : nil)
            }
            // On a terminal the progress lines tick while nothing arrives.
            let now = SystemClock.monotonic()
            let tick = live.tickNanoseconds
            do throws(Errno) { try poller.wait(until: tick.map { now.adding(nanoseconds: $0) }, now: now) } catch {
                say("trackctl pull: poll: " + error.message)
                return 1
            }
            for index in jobs.indices {
                if jobs[index].outputOpen, poller.isReady(2 * index) {
                    jobs[index].outputOpen = drain(jobs[index].child.output, into: &jobs[index].output, limit: Int.max)
                }
                if jobs[index].errorsOpen, poller.isReady(2 * index + 1) {
                    jobs[index].errorsOpen = drain(jobs[index].child.errors, into: &jobs[index].errors, limit: 1 << 16)
                }
                if jobs[index].pulled == nil {
                    live.receiving(jobs[index].slot, byteCount: jobs[index].output.count, seconds: seconds(since: jobs[index].started))
                }
            }
            var index = 0
            while index < jobs.count {
                guard !jobs[index].outputOpen, !jobs[index].errorsOpen else {
                    index += 1
                    continue
                }
                var job = jobs.remove(at: index)
                if let transfer = job.pulled {
                    // The prune step ended: the pull itself was kept either way.
                    let code = job.child.wait()
                    let said = lastLine(job.output)
                    fixes += transfer.summary.fixCount
                    bytes += transfer.byteCount
                    if code == 0 {
                        succeeded += 1
                        live.ended(job.slot, progress(transfer, since: job.started) + job.notes + "; " + said)
                    } else {
                        failed += 1
                        live.ended(job.slot, "FAILED: " + progress(transfer, since: job.started) + job.notes + " kept; "
                            + PullError.prune(code: code, message: firstLine(job.errors)).description)
                    }
                    continue
                }
                let outcome = finish(job)
                guard let transfer = outcome.transfer else {
                    failed += 1
                    live.ended(job.slot, "FAILED: " + (outcome.failure?.description ?? "unknown"))
                    continue
                }
                if let format = parsed.export {
                    switch PullExport.write(format, copy: job.directory.path, transfer: transfer) {
                    case .success(let path): job.notes = path.map { "; export " + $0 } ?? "; nothing to export"
                    case .failure(let failure):
                        failed += 1
                        fixes += transfer.summary.fixCount
                        bytes += transfer.byteCount
                        live.ended(job.slot, "FAILED: " + progress(transfer, since: job.started) + " kept; " + failure.description)
                        continue
                    }
                }
                if parsed.prune, !transfer.cursor.isStart {
                    // Only now: the transfer verified, its segments synced, its cursor recorded.
                    do throws(Errno) {
                        job.child = try ChildProcess(parsed.pruneCommand(job.host, through: transfer.cursor.text))
                        job.pulled = transfer
                        job.output = []
                        job.errors = []
                        job.outputOpen = true
                        job.errorsOpen = true
                        jobs.insert(job, at: index)
                        index += 1
                        live.pruning(job.slot, bytes: transfer.byteCount, fixes: transfer.summary.fixCount)
                    } catch {
                        failed += 1
                        live.ended(job.slot, "FAILED: " + progress(transfer, since: job.started) + " kept; "
                            + PullError.spawn(error).description)
                    }
                    continue
                }
                succeeded += 1
                fixes += transfer.summary.fixCount
                bytes += transfer.byteCount
                live.ended(job.slot, progress(transfer, since: job.started) + job.notes)
            }
        }
        live.clear()
        say("pull: " + String(parsed.hosts.count) + " hosts, " + String(succeeded) + " ok, " + String(failed)
            + " failed; " + String(fixes) + " fixes, " + String(bytes) + " bytes in " + seconds(since: began))
        return failed == 0 ? 0 : 1
    }

    /// Starts `ssh HOST trackctl log send --after CURSOR` for `host`.
    static func start(_ host: String, _ arguments: PullArguments, _ live: inout PullProgress) -> Result<Job, PullError> {
        let directory = PullDirectory(path: LogSegmentName.path(arguments.directory, host))
        let cursor: LogCursor
        do throws(PullError) { cursor = try directory.cursor() } catch { return .failure(error) }
        live.say(host + ": pulling after " + cursor.text)
        do throws(Errno) {
            let child = try ChildProcess(arguments.command(host, after: cursor.text))
            return .success(Job(host: host, directory: directory, cursor: cursor, child: child,
                                started: SystemClock.monotonic()))
        } catch {
            return .failure(.spawn(error))
        }
    }

    /// Reads what `descriptor` has; false at end of file (or an error), when it was closed.
    static func drain(_ descriptor: FileDescriptor, into bytes: inout [UInt8], limit: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var failure: Errno?
        let count = buffer.withUnsafeMutableBytes { raw -> Int in
            do throws(Errno) { return try descriptor.read(into: raw) } catch {
                failure = error
                return 0
            }
        }
        if let failure {
            if failure == .interrupted { return true }
            try? descriptor.close()
            return false
        }
        guard count > 0 else {
            try? descriptor.close()
            return false
        }
        if bytes.count < limit { bytes.append(contentsOf: buffer[0..<min(count, limit - bytes.count)]) }
        return true
    }

    /// Waits for the job's ssh, verifies what it sent and appends it.
    static func finish(_ job: Job) -> Outcome {
        let code = job.child.wait()
        let message = lastLine(job.errors)
        if code == LogSend.cursorMismatch { return Outcome(failure: .cursorMismatch(message: message)) }
        if job.output.isEmpty && code != 0 { return Outcome(failure: .remote(code: code, message: message)) }
        let transfer: LogTransfer
        do throws(LogTransferError) {
            transfer = try LogTransfer(verifying: job.output)
        } catch {
            if code != 0, case .cut = error {
                return Outcome(failure: .remote(code: code, message: error.description + "; nothing kept"
                    + (message.isEmpty ? "" : " (" + message + ")")))
            }
            return Outcome(failure: .transfer(error))
        }
        do throws(PullError) { try job.directory.append(transfer, after: job.cursor) } catch {
            return Outcome(failure: error)
        }
        return Outcome(transfer: transfer)
    }

    /// E.g. "4,811 bytes, 1,200 fixes, 2025-06-21T12:01:29.000Z to 2025-06-21T12:21:28.000Z, 0.4 s".
    static func progress(_ transfer: LogTransfer, since started: MonotonicTime) -> String {
        let summary = transfer.summary
        var line = String(transfer.byteCount) + " bytes, " + String(summary.fixCount) + " fixes"
        if summary.recordCount == 0 {
            line += " (nothing new)"
        } else {
            line += ", " + LogCommand.time(summary.firstTime) + " to " + LogCommand.time(summary.lastTime)
        }
        return line + ", " + seconds(since: started)
    }

    /// "1.2 s" since `start`.
    static func seconds(since start: MonotonicTime) -> String {
        let milliseconds = max((SystemClock.monotonic().nanoseconds - start.nanoseconds) / 1_000_000, 0)
        return String(milliseconds / 1000) + "." + String(milliseconds % 1000 / 100) + " s"
    }

    /// The last non-empty line of `bytes`, e.g. ssh's "ssh: connect to host … Connection refused".
    static func lastLine(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
        var start = end
        while start > 0, bytes[start - 1] != 10 { start -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The first non-empty line of `bytes`, e.g. the remote trackctl's refusal before its usage.
    static func firstLine(_ bytes: [UInt8]) -> String {
        var start = 0
        while start < bytes.count, bytes[start] == 10 || bytes[start] == 13 { start += 1 }
        var end = start
        while end < bytes.count, bytes[end] != 10, bytes[end] != 13 { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    static func say(_ line: String) {
        try? FileDescriptor.standardOutput.writeAll(line + "\n")
    }
}
