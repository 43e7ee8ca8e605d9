import TrackCore
import TrackIO

/// `trackd`: the daemon's entry point.
public enum TrackdCommand {
    static let usage: StaticString = """
        usage: trackd [--config PATH]

        """

    /// Runs `trackd` with `arguments` (argv without the program name); returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h" {
            try? FileDescriptor.standardOutput.writeAll(usage)
            return 0
        }
        try? FileDescriptor.standardError.writeAll("trackd: the daemon loop is not built yet\n")
        return 1
    }
}
