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
        var configPath = ConfigLoader.defaultPath
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
        let config: TrackdConfig
        switch ConfigLoader.load(options.configPath, explicit: options.explicitConfig) {
        case .success(let loaded): config = loaded
        case .failure(let error):
            try? FileDescriptor.standardError.writeAll("trackd: \(error.description)\n")
            return 1
        }
        let board: BoardMap
        switch ConfigLoader.loadBoard(config) {
        case .success(let loaded): board = loaded
        case .failure(let error):
            try? FileDescriptor.standardError.writeAll("trackd: \(error.description)\n")
            return 1
        }
        var fences = FenceMonitor(fences: FenceSet(), settings: config.fences.settings)
        var fencesError: String?
        switch ConfigLoader.fences(config) {
        case .success(let loaded): fences = loaded
        case .failure(let error): fencesError = error.description
        }
        if options.check { return check(options, config, fences: fences, fencesError: fencesError) }
        if let fencesError {
            // A tracker that does not track after a reboot is worse than one without fences.
            try? FileDescriptor.standardError.writeAll(
                "trackd: fences: \(fencesError)\ntrackd: STARTING WITHOUT FENCES: fix the file (trackctl fence validate) and send SIGHUP\n")
        }
        var receiver = config.receiver
        // The board file names the UART when trackd.conf does not.
        if !receiver.deviceIsSet, let device = board.receiverDevice { receiver.device = device }
        if let replay = options.replay {
            let pacing: ReplaySource.Pacing = options.speed == 0
                ? .asFastAsPossible : .receiverTime(speedFactor: Double(options.speed))
            return serve(source: ReplaySource(path: replay, pacing: pacing), config: config, board: board,
                         fences: fences, fencesError: fencesError, options: options)
        }
        return serve(source: SerialPort(serialConfiguration(receiver)), config: config, board: board,
                     fences: fences, fencesError: fencesError, options: options)
    }

    static func serialConfiguration(_ receiver: TrackdConfig.Receiver) -> SerialPort.Configuration {
        let baud: Int?
        switch receiver.baud {
        case .auto: baud = nil
        case .fixed(let bitsPerSecond): baud = Int(bitsPerSecond)
        }
        return SerialPort.Configuration(
            path: receiver.device, baud: baud,
            reopenMinimumMilliseconds: receiver.reopenMinMilliseconds,
            reopenMaximumMilliseconds: receiver.reopenMaxMilliseconds)
    }

    /// Picks the GPIO backend: the fake one for the simulated board, libgpiod otherwise.
    static func serve<Source: ReceiverSource & ~Copyable>(
        source: consuming Source, config: TrackdConfig, board: BoardMap, fences: FenceMonitor, fencesError: String?,
        options: Options
    ) -> Int32 {
        if config.board.simulated {
            #if hasFeature(Embedded)
            // The firmware drives GPIO lines only. The simulated board is the demo's, on the host
            // build; leaving it out of the firmware halves the daemon's specialised code (the
            // loop is generic over the GPIO backend), which keeps the aarch64 binary in budget.
            try? FileDescriptor.standardError.writeAll(
                "trackd: \(options.configPath): [board] simulated = yes needs the host build; this firmware build drives GPIO lines only\n")
            return 2
            #else
            var fake = FakeGPIOBackend(chips: [ConfigLoader.simulatedChip])
            fake.keepsWaveform = false
            return serve(source: source, config: config, board: board, gpio: fake, fences: fences, fencesError: fencesError,
                         options: options)
            #endif
        }
        return serve(source: source, config: config, board: board, gpio: LibgpiodBackend(), fences: fences,
                     fencesError: fencesError, options: options)
    }

    static func serve<Source: ReceiverSource & ~Copyable, GPIO: GPIOBackend>(
        source: consuming Source, config: TrackdConfig, board map: BoardMap, gpio: GPIO, fences: FenceMonitor,
        fencesError: String?, options: Options
    ) -> Int32 {
        let signals: SignalDescriptor
        let control: ControlServer
        do {
            signals = try SignalDescriptor()
        } catch {
            try? FileDescriptor.standardError.writeAll("trackd: signals: \(error.message)\n")
            return 1
        }
        do {
            control = try ControlServer(path: config.control.socket, mode: 0o660)
        } catch {
            try? FileDescriptor.standardError.writeAll(
                "trackd: control socket \(config.control.socket): \(error.message)\n")
            return 1
        }
        do {
            try control.setGroup(config.control.group)
        } catch {
            // Without the group only root can use trackctl; say so and carry on.
            try? FileDescriptor.standardError.writeAll(
                "trackd: control socket group '\(config.control.group)': \(error.message); only root can use trackctl\n")
        }
        var pipeline = ConfigLoader.pipeline(config)
        ConfigLoader.install(fences, config, into: &pipeline.status)
        pipeline.status.fencesLoadError = fencesError
        var stateFile = StateFile(path: config.state.file, storage: PosixStateFileStorage())
        let (persisted, problem) = stateFile.loadOrDefault()
        pipeline.status.permission = Permission.atStartUp(stored: persisted.permission,
                                                           configRestricts: config.privacy.restricted)
        pipeline.status.odometer = Odometer(totalMillimetres: persisted.odometerMillimetres,
                                            maxSpeedMillimetresPerSecond: Int64(config.filter.maxSpeedMillimetresPerSecond))
        var driver = BoardDriver(board: BoardGPIO(backend: gpio), settings: BoardSettings(config))
        driver.open(map, simulated: config.board.simulated, status: &pipeline.status.gpio)
        pipeline.status.statePath = config.state.file
        if let problem {
            // A damaged state file must not stop tracking: the safe default is used and shown.
            pipeline.status.stateProblem = problem.message
            try? FileDescriptor.standardError.writeAll("trackd: \(problem.message); starting as not-determined\n")
        }
        pipeline.status.configPath = options.configPath
        pipeline.status.controlPath = config.control.socket
        pipeline.status.logDirectory = config.log.directory
        pipeline.status.logQuotaBytes = Int(config.log.quotaBytes)
        var logWriter: LogWriter<PosixLogFiles>?
        do {
            logWriter = try LogWriter(settings: LogWriterSettings(config.log), files: PosixLogFiles(),
                                      now: SystemClock.monotonic())
        } catch {
            // Without a log the receiver, LEDs and fences still work; status and doctor say why.
            pipeline.status.logOpenError = error.description
            try? FileDescriptor.standardError.writeAll("trackd: track log: " + error.description + "; not logging\n")
        }
        pipeline.status.logFileSystem = FileSystemInfo.of(config.log.directory)
        if let status = logWriter?.status {
            pipeline.status.log = status
            if let problem = status.lastError {
                try? FileDescriptor.standardError.writeAll("trackd: track log: " + problem.description + "\n")
            }
        }
        var daemon = Daemon(
            source: source, pipeline: pipeline, signals: signals, control: control,
            stateFile: stateFile, persisted: persisted, logWriter: logWriter, driver: driver, config: config,
            configSource: ConfigSource(path: options.configPath, explicit: options.explicitConfig), boardMap: map)
        if config.log.announceSyncs { daemon.announcedSyncCount = daemon.logWriter?.status.syncCount ?? 0 }
        try? FileDescriptor.standardError.writeAll("trackd: running; control socket \(config.control.socket)\n")
        return daemon.run()
    }

    /// `trackd --check`: what a start would use, said plainly; exit 1 when the fences file is
    /// bad (a start would go on without fences).
    static func check(_ options: Options, _ config: TrackdConfig, fences: FenceMonitor, fencesError: String?) -> Int32 {
        var lines = ""
        if !options.explicitConfig && !FileDescriptor.exists(options.configPath) {
            lines += "trackd: no configuration file at \(options.configPath): the defaults apply\n"
        } else {
            lines += "trackd: \(options.configPath): ok\n"
        }
        if let fencesError {
            try? FileDescriptor.standardOutput.writeAll(lines)
            try? FileDescriptor.standardError.writeAll(
                "trackd: fences: \(fencesError)\ntrackd: a start would go on WITHOUT FENCES\n")
            return 1
        }
        if !FileDescriptor.exists(config.fences.file) {
            lines += "trackd: no fences file at \(config.fences.file): no fences\n"
        } else {
            lines += "trackd: \(fences.fences.count) fences from \(config.fences.file)\n"
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
            switch arguments[index] {
            case "-h", "--help":
                try? FileDescriptor.standardOutput.writeAll(usage)
                return .exit(0)
            case "--config":
                guard let path = value() else { return fail("--config needs a path") }
                options.configPath = path
                options.explicitConfig = true
            case "--check":
                options.check = true
            case "--replay":
                guard let path = value() else { return fail("--replay needs a file") }
                options.replay = path
            case "--speed":
                guard let text = value(), let speed = Int(text), speed >= 0 else {
                    return fail("--speed needs a whole number ≥ 0")
                }
                options.speed = speed
            default:
                return fail("unknown argument '\(arguments[index])'")
            }
            index += 1
        }
        return .run(options)
    }

    static func fail(_ message: String) -> Parsed {
        try? FileDescriptor.standardError.writeAll("trackd: \(message)\n")
        try? FileDescriptor.standardError.writeAll(usage)
        return .exit(2)
    }
}
