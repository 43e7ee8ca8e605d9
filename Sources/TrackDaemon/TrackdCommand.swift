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
            try? FileDescriptor.standardError.writeAll("trackd: \(error.description)\n")
            return 1
        }
        let board: BoardMap
        switch ConfigFiles.loadBoard(config) {
        case .success(let loaded): board = loaded
        case .failure(let error):
            try? FileDescriptor.standardError.writeAll("trackd: \(error.description)\n")
            return 1
        }
        var fences = FenceMonitor(fences: FenceSet(), settings: config.fences.settings)
        var fencesError: String?
        var fencesNote: String?
        switch loadFences(config, configPath: options.configPath, check: options.check) {
        case .success(let loaded):
            fences = loaded.monitor
            fencesNote = loaded.note
        case .failure(let error): fencesError = error.description
        }
        if options.check { return check(options, config, fencesNote: fencesNote, fencesError: fencesError) }
        if let fencesNote { try? FileDescriptor.standardError.writeAll("trackd: fences: " + fencesNote + "\n") }
        if let fencesError {
            // A tracker that does not track after a reboot is worse than one without fences.
            try? FileDescriptor.standardError.writeAll(
                "trackd: fences: \(fencesError)\ntrackd: STARTING WITHOUT FENCES: fix the file (trackctl fence validate) and send SIGHUP\n")
        }
        var receiver = config.receiver
        // The board file names the UART when trackd.conf does not.
        if !receiver.deviceIsSet, let device = board.receiverDevice { receiver.device = device }
        let source: TrackdSource
        if let replay = options.replay {
            let pacing: ReplaySource.Pacing = options.speed == 0
                ? .asFastAsPossible : .receiverTime(speedFactor: Double(options.speed))
            source = .replay(ReplaySource(path: replay, pacing: pacing))
        } else {
            source = .serial(SerialPort(serialConfiguration(receiver)))
        }
        let gpio = config.board.simulated ? TrackdGPIO.simulatedBoard(ConfigFiles.simulatedChip) : TrackdGPIO.libgpiod()
        return serve(source: source, config: config, board: board, gpio: gpio, fences: fences,
                     fencesError: fencesError, options: options)
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

    /// Builds the services and runs the daemon: one specialisation for every source and board.
    static func serve(
        source: consuming TrackdSource, config: TrackdConfig, board map: BoardMap, gpio: TrackdGPIO, fences: FenceMonitor,
        fencesError: String?, options: Options
    ) -> Int32 {
        let signals: SignalDescriptor
        let server: ControlServer
        do {
            signals = try SignalDescriptor()
        } catch {
            try? FileDescriptor.standardError.writeAll("trackd: signals: \(error.message)\n")
            return 1
        }
        do {
            server = try ControlServer(path: config.control.socket, mode: 0o660)
        } catch {
            try? FileDescriptor.standardError.writeAll(
                "trackd: control socket \(config.control.socket): \(error.message)\n")
            return 1
        }
        do {
            try server.setGroup(config.control.group)
        } catch {
            // Without the group only root can use trackctl; say so and carry on.
            try? FileDescriptor.standardError.writeAll(
                "trackd: control socket group '\(config.control.group)': \(error.message); only root can use trackctl\n")
        }
        let state = StateService(file: StateFile(path: config.state.file, storage: PosixStateFileStorage()),
                                 restricted: config.privacy.restricted,
                                 maxSpeedMillimetresPerSecond: Int64(config.filter.maxSpeedMillimetresPerSecond))
        if let problem = state.problem {
            // A damaged state file must not stop tracking: the safe default is used and shown.
            try? FileDescriptor.standardError.writeAll("trackd: \(problem); starting as not-determined\n")
        }
        let gpsd = gpsdService(config, devicePath: options.replay ?? receiverPath(config, map))
        var board = BoardService(backend: gpio, settings: BoardSettings(config))
        board.open(map, simulated: config.board.simulated)
        var daemon = Daemon(
            receiver: ReceiverService(source: source), state: state,
            trackLog: TrackLogService(config.log, now: SystemClock.monotonic()),
            fences: FenceService(fences, config, loadError: fencesError), places: PlaceService(config.places),
            // A replay's times are history: chrony must never take them for the present.
            time: TimeService(config.time, live: options.replay == nil), board: board,
            control: ControlService(server, path: config.control.socket), signals: signals, config: config,
            configSource: ConfigSource(path: options.configPath, explicit: options.explicitConfig), boardMap: map,
            gpsd: gpsd)
        try? FileDescriptor.standardError.writeAll("trackd: running; control socket \(config.control.socket)\n")
        return daemon.run()
    }

    /// The receiver's device: trackd.conf's, else the board file's.
    static func receiverPath(_ config: TrackdConfig, _ map: BoardMap) -> String {
        if !config.receiver.deviceIsSet, let device = map.receiverDevice { return device }
        return config.receiver.device
    }

    /// gpsd's service on `[gpsd] listen`, nil when the list is empty. An address that cannot
    /// be bound (a gpsd already on the port) is reported and skipped: tracking matters more.
    static func gpsdService(_ config: TrackdConfig, devicePath: String) -> GpsdService? {
        guard !config.gpsd.listen.isEmpty else { return nil }
        let server = GpsdServer(addresses: config.gpsd.listen, capacity: config.gpsd.maxClients)
        for failure in server.failures {
            var text = TextBuffer()
            failure.address.write(to: &text)
            try? FileDescriptor.standardError.writeAll(
                "trackd: gpsd: cannot listen on \(text.string): \(failure.error.message); skipped\n")
        }
        if server.listenerCount == 0 { return nil }
        return GpsdService(server, devicePath: devicePath)
    }

    /// `trackd --check`: what a start would use, said plainly; exit 1 when the fences file is
    /// bad (a start would go on without fences).
    /// The fences for a start (mapped from their image, compiled first when stale) or for a
    /// check (`trackctl fence validate`, which writes nothing).
    static func loadFences(_ config: TrackdConfig, configPath: String, check: Bool = false)
        -> Result<ConfigFiles.FenceLoad, ConfigFiles.FenceLoadError> {
        var compiler = [FenceImageFile.compilerPath(), "fence", check ? "validate" : "compile"]
        if FileDescriptor.exists(configPath) { compiler += ["--config", configPath] }
        guard check else {
            return FenceImageFile.load(config, image: FenceImageFile.path(besideState: config.state.file), compiler: compiler)
        }
        guard FileDescriptor.exists(config.fences.file) else {
            return .success(ConfigFiles.FenceLoad(monitor: FenceMonitor(fences: FenceSet(), settings: config.fences.settings)))
        }
        let validated = FenceImageFile.run(compiler + [config.fences.file])
        if let problem = validated.problem { return .failure(ConfigFiles.FenceLoadError(description: problem)) }
        return .success(ConfigFiles.FenceLoad(monitor: FenceMonitor(fences: FenceSet(), settings: config.fences.settings),
                                              note: validated.output))
    }

    static func check(_ options: Options, _ config: TrackdConfig, fencesNote: String?, fencesError: String?) -> Int32 {
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
                return fail("unknown argument '\(argument)'")
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
