import TrackCore
import TrackIO

/// `trackd`: the daemon's entry point: arguments, configuration, then the loop.
public enum TrackdCommand {
    static let usage: StaticString = """
        usage: trackd [--config PATH] [--check] [--replay FILE [--speed N]]

          --config PATH   configuration file (default /etc/trackd/trackd.conf)
          --check         check the configuration and exit
          --replay FILE   read receiver output from an NMEA capture instead of the UART,
                          paced by the receiver's clock (N times faster with --speed N,
                          as fast as possible with --speed 0)

        """

    struct Options {
        var configPath = ConfigFiles.defaultPath
        var explicitConfig = false
        var check = false
        var replay: String?
        var speed = 1
    }

    /// Runs `trackd` with `arguments` (argv without the program name); returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .run(let parsed): options = parsed
        case .exit(let code): return code
        }
        ProcessMemory.mapLargeAllocations()
        let config: TrackdConfig
        do throws(ConfigFiles.LoadError) {
            config = try ConfigFiles.loadConfig(options.configPath, explicit: options.explicitConfig)
        } catch {
            try? FileDescriptor.standardError.writeAll(String(joining: "trackd: ", error.description, "\n"))
            return 1
        }
        let board: BoardMap
        switch ConfigFiles.loadBoard(config) {
        case .success(let loaded): board = loaded
        case .failure(let error):
            try? FileDescriptor.standardError.writeAll(String(joining: "trackd: ", error.description, "\n"))
            return 1
        }
        var builder = DaemonBuilder(
            config: config, configSource: ConfigSource(path: options.configPath, explicit: options.explicitConfig), boardMap: board)
        var fencesNote: String?
        switch FenceLoader.load(config, configPath: options.configPath, check: options.check) {
        case .success(let loaded):
            builder.fences = loaded.monitor
            fencesNote = loaded.note
        case .failure(let error): builder.fencesError = error.description
        }
        if options.check { return check(options, config, fencesNote: fencesNote, fencesError: builder.fencesError) }
        if let fencesNote { try? FileDescriptor.standardError.writeAll("trackd: fences: " + fencesNote + "\n") }
        if let fencesError = builder.fencesError {
            // A tracker that does not track after a reboot is worse than one without fences.
            try? FileDescriptor.standardError.writeAll(
                String(joining: "trackd: fences: ", fencesError, "\ntrackd: STARTING WITHOUT FENCES: fix the file (trackctl fence validate) and send SIGHUP\n"))
        }
        let source: TrackdSource
        if let replay = options.replay {
            let pacing: ReplaySource.Pacing = options.speed == 0
                ? .asFastAsPossible : .receiverTime(speedFactor: Double(options.speed))
            source = .replay(ReplaySource(path: replay, pacing: pacing))
            builder.gpsdDevice = replay
            // A replay's times are history: chrony must never take them for the present.
            builder.liveTime = false
        } else {
            source = .serial(SerialPort(SerialPort.Configuration(config.receiver, board: board)))
        }
        let gpio = config.board.simulated ? TrackdGPIO.simulatedBoard(ConfigFiles.simulatedChip) : TrackdGPIO.libgpiod()
        var daemon: Daemon<TrackdSource, TrackdGPIO>
        do {
            daemon = try builder.build(source: source, gpio: gpio, now: SystemClock.monotonic())
        } catch {
            try? FileDescriptor.standardError.writeAll("trackd: " + error.description + "\n")
            return 1
        }
        try? FileDescriptor.standardError.writeAll(String(joining: "trackd: running; control socket ", config.control.socket, "\n"))
        return daemon.run()
    }

    /// `trackd --check`: what a start would use, said plainly; exit 1 when the fences file is
    /// bad (a start would go on without fences).
    static func check(_ options: Options, _ config: TrackdConfig, fencesNote: String?, fencesError: String?) -> Int32 {
        var lines = ""
        if !options.explicitConfig && !FileDescriptor.exists(options.configPath) {
            lines += String(joining: "trackd: no configuration file at ", options.configPath, ": the defaults apply\n")
        } else {
            lines += String(joining: "trackd: ", options.configPath, ": ok\n")
        }
        if let fencesError {
            try? FileDescriptor.standardOutput.writeAll(lines)
            try? FileDescriptor.standardError.writeAll(
                String(joining: "trackd: fences: ", fencesError, "\ntrackd: a start would go on WITHOUT FENCES\n"))
            return 1
        }
        if !FileDescriptor.exists(config.fences.file) {
            lines += String(joining: "trackd: no fences file at ", config.fences.file, ": no fences\n")
        } else {
            lines += "trackd: fences: " + (fencesNote ?? config.fences.file) + "\n"
        }
        try? FileDescriptor.standardOutput.writeAll(lines)
        return 0
    }

    enum Parsed {
        case run(Options)
        case exit(Int32)
    }

    static func parse(_ arguments: [String]) -> Parsed {
        var options = Options()
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            // Arguments compare byte for byte (String == would link Unicode's tables).
            let argument = arguments[index]
            if argument.bytesEqual("-h") || argument.bytesEqual("--help") {
                try? FileDescriptor.standardOutput.writeAll(usage)
                return .exit(0)
            } else if argument.bytesEqual("--config") {
                guard let path = value() else { return fail("--config needs a path") }
                options.configPath = path
                options.explicitConfig = true
            } else if argument.bytesEqual("--check") {
                options.check = true
            } else if argument.bytesEqual("--replay") {
                guard let path = value() else { return fail("--replay needs a file") }
                options.replay = path
            } else if argument.bytesEqual("--speed") {
                guard let text = value(), let speed = Int(text), speed >= 0 else {
                    return fail("--speed needs a whole number ≥ 0")
                }
                options.speed = speed
            } else {
                return fail(String(joining: "unknown argument '", argument, "'"))
            }
            index += 1
        }
        return .run(options)
    }

    static func fail(_ message: String) -> Parsed {
        try? FileDescriptor.standardError.writeAll(String(joining: "trackd: ", message, "\n"))
        try? FileDescriptor.standardError.writeAll(usage)
        return .exit(2)
    }
}
