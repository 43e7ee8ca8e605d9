import TrackCore
import TrackIO

/// `trackctl`: the command-line tool; each subcommand in its own file.
public enum TrackctlCommand {
    static let usage: StaticString = """
        usage: trackctl COMMAND [ARGS]

        commands:
          decode [FILE]   read NMEA from FILE or standard input, print one JSON object per fix
          simulate ROUTE.gpx [OPTIONS]
                          a receiver moving along ROUTE.gpx, on a pseudo-terminal or standard
                          output (trackctl simulate --help)

        """

    /// Runs `trackctl` with `arguments` (argv without the program name); returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            try? FileDescriptor.standardError.writeAll(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "decode":
            return DecodeCommand.run(rest)
        case "simulate":
            return SimulateCommand.run(rest)
        case "-h", "--help", "help":
            try? FileDescriptor.standardOutput.writeAll(usage)
            return 0
        default:
            try? FileDescriptor.standardError.writeAll("trackctl: unknown command '\(command)'\n")
            try? FileDescriptor.standardError.writeAll(usage)
            return 2
        }
    }
}
