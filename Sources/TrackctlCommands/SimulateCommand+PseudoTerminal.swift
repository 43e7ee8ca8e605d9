import TrackCore
import TrackIO

extension SimulateCommand {
    /// Writes one epoch every epoch interval of the monotonic clock to a new pseudo-terminal
    /// until the route ends or SIGINT/SIGTERM arrives. The loop waits in poll on the signalfd
    /// and the master with the time to the next epoch as timeout; what trackd writes to its
    /// "receiver" (configuration commands) is read and dropped, as a receiver that ignores it.
    static func runOnPseudoTerminal(_ simulator: inout NMEASimulator, linkPath: String?) -> Int32 {
        do {
            let terminal = try PseudoTerminal(linkPath: linkPath)
            do {
                let signals = try SignalDescriptor(stopOnly: true)
                return run(&simulator, on: terminal, stoppingOn: signals)
            } catch {
                try? FileDescriptor.standardError.writeAll("trackctl simulate: signals: \(error.message)\n")
                return 1
            }
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl simulate: \(error.description)\n")
            return 1
        }
    }

    static func run(
        _ simulator: inout NMEASimulator, on terminal: borrowing PseudoTerminal, stoppingOn signals: borrowing SignalDescriptor
    ) -> Int32 {
        try? FileDescriptor.standardOutput.writeAll(terminal.slavePath + "\n")
        var note = "trackctl simulate: writing to " + terminal.slavePath
        if let linkPath = terminal.linkPath { note += " (linked from " + linkPath + ")" }
        note += ", \(simulator.configuration.rateHertz) Hz; Ctrl-C stops\n"
        try? FileDescriptor.standardError.writeAll(note)

        let interval = simulator.epochIntervalMilliseconds * 1_000_000
        var next = SystemClock.monotonic()
        if simulator.configuration.clockStart != nil {
            // On the system's clock each epoch goes out when that clock reaches its time, as
            // from a receiver (whose sentences follow the epoch they describe).
            let ahead = simulator.nextEpochTime.millisecondsSinceEpoch * 1_000_000 - SystemClock.realtimeNanoseconds()
            if ahead > 0 { next = next.adding(nanoseconds: ahead) }
        }
        var epoch = TextBuffer()
        var dropped = 0
        let sink = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 16)
        defer { sink.deallocate() }
        do throws(Errno) {
            while true {
                let now = SystemClock.monotonic()
                if now >= next {
                    epoch.removeAll()
                    guard simulator.writeEpoch(to: &epoch) else { break }
                    let written = try epoch.withBytes { (bytes) throws(Errno) in
                        try bytes.withUnsafeBytes { (raw) throws(Errno) in try terminal.master.writeAvailable(raw) }
                    }
                    // Nobody has read for a while: the bytes are lost, as on a real UART.
                    if written < epoch.count { dropped += 1 }
                    next = next.adding(nanoseconds: interval)
                    // Suspended or far behind: carry on from now rather than catching up.
                    if next.nanoseconds < now.nanoseconds - 1_000_000_000 { next = now.adding(nanoseconds: interval) }
                    continue
                }
                var poll = Poller()
                poll.watch(0, signals.descriptor)
                poll.watch(1, terminal.master)
                try poll.wait(until: next, now: now)
                if poll.isReady(0), (try? signals.next()) != nil {
                    try? FileDescriptor.standardError.writeAll("trackctl simulate: stopped\n")
                    return 0
                }
                if poll.isReady(1) { _ = try terminal.master.readAvailable(into: sink) }
            }
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl simulate: \(terminal.slavePath): \(error.message)\n")
            return 1
        }
        var summary = "trackctl simulate: end of route after \(simulator.epochCount) epochs"
        if dropped > 0 { summary += ", \(dropped) not read by anyone" }
        try? FileDescriptor.standardError.writeAll(summary + "\n")
        return 0
    }
}
