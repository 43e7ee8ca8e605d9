import TrackCore
import TrackIO

/// `trackctl receiver info|rate HZ|baud N|sentences LIST|sleep|wake`: receiver control of the
/// running trackd (docs/receiver-control.md). These run on a person's command, so plain Strings
/// are fine here; trackd checks the values again.
extension ClientCommands {
    static let receiverUsage = """
        usage: trackctl receiver info | rate 1|2|5|10 | baud N | sentences LIST | sleep | wake [--socket PATH]
          info            what the receiver is, what trackd told it and what it answered, its sleep
          rate HZ         fixes per second
          baud N          move the receiver and the port to N baud (4800 … 921600)
          sentences LIST  e.g. rmc gga gsa gst gsv/5: these sentences (/N every N-th epoch), the others off
          sleep, wake     put the receiver to sleep now, or wake it (it then stays up for [receiver] power-save-after)

        """

    /// Checks the subcommand's shape and sends it; a change is kept until trackd reloads.
    static func receiver(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        guard let verb = arguments.first else { return usage(receiverUsage) }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "info", "sleep", "wake":
            guard rest.isEmpty else { return usage(receiverUsage) }
        case "rate", "baud":
            guard rest.count == 1, Int(rest[0]) != nil else { return usage(receiverUsage) }
        case "sentences":
            guard !rest.isEmpty else { return usage(receiverUsage) }
            do {
                _ = try SentenceRates(parsing: rest.joined(separator: " ").utf8)
            } catch {
                return usage("trackctl receiver sentences: " + error.description + "\n")
            }
        case "-h", "--help", "help":
            try? FileDescriptor.standardOutput.writeAll(receiverUsage)
            return 0
        default:
            return usage(receiverUsage)
        }
        return run((["receiver"] + arguments).joined(separator: " "), path: path)
    }
}
