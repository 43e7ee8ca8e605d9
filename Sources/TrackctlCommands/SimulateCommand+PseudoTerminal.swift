import TrackCore
import TrackIO

extension SimulateCommand {
    /// Writes one epoch every epoch interval of the monotonic clock to a new pseudo-terminal
    /// until the route ends or SIGINT/SIGTERM arrives. The loop waits in poll on the signalfd
    /// and the master with the time to the next epoch as timeout; what trackd writes to its
    /// "receiver" (configuration commands) is answered by `receiver` (`SimulatedLine`), or
    /// read and dropped without one, as a receiver that ignores it.
    static func runOnPseudoTerminal(_ simulator: inout NMEASimulator, linkPath: String?,
                                    receiver: SimulatedReceiver? = nil) -> Int32 {
        do {
            let terminal = try PseudoTerminal(linkPath: linkPath)
            do {
                let signals = try SignalDescriptor(stopOnly: true)
                var line = SimulatedLine(receiver)
                return run(&simulator, on: terminal, line: &line, stoppingOn: signals)
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
        _ simulator: inout NMEASimulator, on terminal: borrowing PseudoTerminal, line: inout SimulatedLine,
        stoppingOn signals: borrowing SignalDescriptor
    ) -> Int32 {
        try? FileDescriptor.standardOutput.writeAll(terminal.slavePath + "\n")
        var note = "trackctl simulate: writing to " + terminal.slavePath
        if let linkPath = terminal.linkPath { note += " (linked from " + linkPath + ")" }
        note += ", \(simulator.configuration.rateHertz) Hz"
        if let receiver = line.receiver { note += ", answering as \(receiver.model.rawValue) at \(receiver.baud) baud" }
        note += "; Ctrl-C stops\n"
        try? FileDescriptor.standardError.writeAll(note)

        var next = SystemClock.monotonic()
        if simulator.configuration.clockStart != nil {
            // On the system's clock each epoch goes out when that clock reaches its time, as
            // from a receiver (whose sentences follow the epoch they describe).
            let ahead = simulator.nextEpochTime.millisecondsSinceEpoch * 1_000_000 - SystemClock.realtimeNanoseconds()
            if ahead > 0 { next = next.adding(nanoseconds: ahead) }
        }
        var epoch = TextBuffer()
        var dropped = 0
        do throws(Errno) {
            try line.start(on: terminal)
            while true {
                let now = SystemClock.monotonic()
                // Read the receiver's interval each time: a command may have changed it.
                let interval = simulator.epochIntervalMilliseconds * 1_000_000
                if now >= next {
                    epoch.removeAll()
                    // Asleep, the receiver sends nothing; its clock runs on.
                    if line.isSending {
                        guard simulator.writeEpoch(to: &epoch) else { break }
                        // Nobody has read for a while: the bytes are lost, as on a real UART.
                        if try !line.send(&epoch, on: terminal) { dropped += 1 }
                    }
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
                if poll.isReady(1) { try line.takeInput(from: terminal, &simulator) }
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
