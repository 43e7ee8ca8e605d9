import TrackCore
import TrackIO

/// `trackctl`: the command-line tool; each subcommand in its own file.
public enum TrackctlCommand {
    static let usage: StaticString = """
        usage: trackctl COMMAND [ARGS]

        commands:
          status [--watch] [--json]
                          the running trackd: receiver, fix, filter, sampling, control
          where [--plain] the current position (--plain: lat,lon for scripts)
          mark [LABEL]    a waypoint at the current position
          privacy [allow always|allow when-in-use|deny|approximate|precise [--for 30m]]
                          show or change what trackd may log
          leds [--watch]  the LEDs now (--watch: live, with keys for the simulated button)
          button short|long
                          press the simulated board's button (the demo)
          doctor          the first broken link from port to filter, and what to do about it
          receiver info|rate HZ|baud N|sentences LIST|sleep|wake
                          the receiver as trackd set it up: identity, each command's answer,
                          its sleep; change its rate, baud or sentences (trackctl receiver --help)
          fence validate FILE | check [--fences FILE] LAT LON [ACCURACY_M] | list
                          check a fences file, test a position against it, or list the
                          running trackd's fences with their states (trackctl fence --help)
          decode [FILE]   read NMEA from FILE or standard input, print one JSON object per fix
          log list|verify [--log DIR]
                          the track log's segments; every chunk checked, damage named
          log import FILE.gpx|FILE.csv --to DIR
                          an existing track written into a log, as trackd writes it
          log send [--after CURSOR] [--log DIR]
                          the log's chunks after CURSOR, framed and checksummed, for trackctl pull
          log export [--format gpx|geojson|kml|csv] [--since T] [--until T] [--simplify M]
                     [--datum gcj02|bd09] [--log DIR]
                          the log as a file on standard output (trackctl log export --help)
          place LAT LON [--json]
                          the nearest place of the offline gazetteer, e.g. "2.8 km NE of
                          Tübingen, Baden-Wurttemberg, DE" (trackctl place --help)
          pull HOST... [--to DIR] [--jobs N]
                          what is new in each tracker's log, over ssh, verified, appended to
                          DIR/HOST (trackctl pull --help)
          simulate ROUTE.gpx [OPTIONS]
                          a receiver moving along ROUTE.gpx, on a pseudo-terminal or standard
                          output (trackctl simulate --help)

        status, where, mark, privacy, leds, button, doctor, receiver and fence list take --socket PATH (default /run/trackd/control.sock,
        or $TRACKD_SOCKET).

        """

    /// Runs `trackctl` with `arguments` (argv without the program name); returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            try? FileDescriptor.standardError.writeAll(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "status":
            return ClientCommands.status(rest)
        case "where":
            return ClientCommands.where(rest)
        case "mark":
            return ClientCommands.mark(rest)
        case "privacy":
            return ClientCommands.privacy(rest)
        case "doctor":
            return ClientCommands.doctor(rest)
        case "leds":
            return ClientCommands.leds(rest)
        case "button":
            return ClientCommands.button(rest)
        case "receiver":
            return ClientCommands.receiver(rest)
        case "decode":
            return DecodeCommand.run(rest)
        case "fence":
            return FenceCommand.run(rest)
        case "simulate":
            return SimulateCommand.run(rest)
        case "log":
            return LogCommand.run(rest)
        case "place":
            return PlaceCommand.run(rest)
        case "pull":
            return PullCommand.run(rest)
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
