import TrackCore
import TrackIO

/// `trackctl simulate ROUTE.gpx`: a GPS receiver driven along a GPX route, on a pseudo-terminal
/// trackd can open as its UART (in real time), or on standard output as fast as possible.
enum SimulateCommand {
    static let usage: StaticString = """
        usage: trackctl simulate ROUTE.gpx [--speed X] [--rate 1|5|10] [--noise M]
                                 [--cold-start SECONDS] [--seed N] [--loop] [--clock now|route]
                                 [--receiver MODEL [--baud N] [--keep-baud]] [--pty PATH | --stdout]

        Writes the NMEA a receiver moving along ROUTE.gpx would send (RMC, VTG, GGA, GSA, GSV, GLL).
        Without --stdout it opens a pseudo-terminal, prints its device path and writes in real time
        until the end of the route (or Ctrl-C); point trackd's port at that path.

          --speed X           move X times faster than the route's times (default 1)
          --rate 1|5|10       epochs per second (default 1)
          --noise M           position noise, 1 sigma per axis, in metres (default 0)
          --cold-start S      seconds without a fix before the first one (default 0)
          --seed N            seed of the noise and the satellites (default 1)
          --loop              start the route again at its end
          --clock now|route   the receiver's clock: `now` starts it at the system's time, as a
                              receiver would (the default on a pseudo-terminal); `route` sends
                              the route's own times (the default with --stdout)
          --receiver MODEL    answer what is written to the pseudo-terminal as this receiver:
                              ublox-m8, ublox-m10, mediatek, quectel (LC29H, PAIR) or silent
                              (ignores everything); it changes baud, rate, sentences, sleeps and
                              wakes when told, and sends noise while the line's baud is not its own
          --baud N            the receiver's baud at start (ublox-m8, mediatek, silent 9600;
                              ublox-m10 38400; quectel 115200)
          --keep-baud         the receiver takes baud commands but stays at its baud (a baud
                              switch that loses the receiver)
          --pty PATH          also make PATH a symbolic link to the pseudo-terminal
          --stdout            write to standard output as fast as possible instead

        """

    /// The parsed command line.
    struct Options: Equatable {
        var route = ""
        var simulation = NMEASimulator.Configuration()
        var linkPath: String?
        var toStandardOutput = false
        /// `--clock`: true for now, false for the route's times, nil for the mode's default.
        var clockNow: Bool?
        /// `--receiver`: the receiver to answer as; nil ignores what is written (as before).
        var receiver: SimulatedReceiver.Model?
        /// `--baud`: the receiver's baud at start; nil for the model's default.
        var receiverBaud: Int?
        /// `--keep-baud`: the receiver stays at its baud whatever it is told.
        var keepsBaud = false

        /// The receiver to answer as, at its starting baud.
        var simulatedReceiver: SimulatedReceiver? {
            guard let receiver else { return nil }
            var simulated = SimulatedReceiver(receiver, baud: receiverBaud ?? SimulateCommand.defaultBaud(receiver))
            simulated.keepsBaud = keepsBaud
            return simulated
        }

        /// Whether the receiver's clock starts at the system's time.
        var startsNow: Bool { clockNow ?? !toStandardOutput }
    }

    /// What the command line asks for.
    enum Parsed: Equatable {
        case run(Options)
        case help
        case usageError(String)
    }

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .help:
            try? FileDescriptor.standardOutput.writeAll(usage)
            return 0
        case .usageError(let message):
            try? FileDescriptor.standardError.writeAll("trackctl simulate: \(message)\n")
            try? FileDescriptor.standardError.writeAll(usage)
            return 2
        case .run(var parsed):
            if parsed.startsNow {
                // The first fix (after the cold start) at the system's time now, as a receiver
                // that just started would send it.
                let now = SystemClock.realtime().millisecondsSinceEpoch
                parsed.simulation.clockStart = UTCTime(
                    millisecondsSinceEpoch: now + Int64(parsed.simulation.coldStartSeconds) * 1000)
            }
            options = parsed
        }
        var simulator: NMEASimulator
        do {
            simulator = try load(options)
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl simulate: \(options.route): \(error.message)\n")
            return 1
        }
        if options.toStandardOutput { return writeToStandardOutput(&simulator) }
        return SimulateCommand.runOnPseudoTerminal(&simulator, linkPath: options.linkPath, receiver: options.simulatedReceiver)
    }

    /// A failure while loading the route, with its message.
    struct LoadError: Error {
        var message: String
    }

    static func load(_ options: Options) throws(LoadError) -> NMEASimulator {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readWholeFile(options.route)
        } catch {
            throw LoadError(message: error.message)
        }
        let track: GPXTrack
        do {
            track = try GPXTrack(parsing: bytes)
        } catch {
            throw LoadError(message: error.description)
        }
        do {
            return try NMEASimulator(track: track, configuration: options.simulation)
        } catch {
            throw LoadError(message: error.description)
        }
    }

    static func parse(_ arguments: [String]) -> Parsed {
        var options = Options()
        var route: String?
        var index = 0
        func value(_ name: String) -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help":
                return .help
            case "--speed":
                guard let text = value(argument), let speed = decimal(text), speed > 0 else {
                    return .usageError("--speed needs a number above 0, e.g. --speed 10")
                }
                options.simulation.speedFactor = speed
            case "--rate":
                guard let text = value(argument), let rate = Int(text), [1, 5, 10].contains(rate) else {
                    return .usageError("--rate takes 1, 5 or 10")
                }
                options.simulation.rateHertz = rate
            case "--noise":
                guard let text = value(argument), let noise = decimal(text) else {
                    return .usageError("--noise needs metres, e.g. --noise 2.5")
                }
                options.simulation.noiseMetres = noise
            case "--cold-start":
                guard let text = value(argument), let seconds = Int(text), seconds >= 0 else {
                    return .usageError("--cold-start needs whole seconds, e.g. --cold-start 30")
                }
                options.simulation.coldStartSeconds = seconds
            case "--seed":
                guard let text = value(argument), let seed = UInt64(text) else {
                    return .usageError("--seed needs a whole number")
                }
                options.simulation.seed = seed
            case "--loop":
                options.simulation.loops = true
            case "--clock":
                switch value(argument) {
                case "now": options.clockNow = true
                case "route": options.clockNow = false
                default: return .usageError("--clock takes now or route")
                }
            case "--pty":
                guard let path = value(argument), !path.isEmpty else { return .usageError("--pty needs a path") }
                options.linkPath = path
            case "--receiver":
                guard let text = value(argument), let model = SimulatedReceiver.Model(rawValue: text) else {
                    return .usageError("--receiver takes ublox-m8, ublox-m10, mediatek, quectel or silent")
                }
                options.receiver = model
            case "--baud":
                guard let text = value(argument), let baud = Int(text), SerialPort.supportedBaudRates.contains(baud) else {
                    return .usageError("--baud takes a rate such as 9600, 38400 or 115200")
                }
                options.receiverBaud = baud
            case "--keep-baud":
                options.keepsBaud = true
            case "--stdout":
                options.toStandardOutput = true
            default:
                guard route == nil, !argument.hasPrefix("-") else {
                    return .usageError("unexpected argument '\(argument)'")
                }
                route = argument
            }
            index += 1
        }
        guard let route else { return .usageError("which route? give a GPX file") }
        if options.toStandardOutput && options.linkPath != nil {
            return .usageError("--pty and --stdout exclude each other")
        }
        if options.toStandardOutput && options.receiver != nil {
            return .usageError("--receiver answers what is written to a pseudo-terminal: not with --stdout")
        }
        if (options.receiverBaud != nil || options.keepsBaud) && options.receiver == nil {
            return .usageError("--baud and --keep-baud are the simulated receiver's: give --receiver too")
        }
        options.route = route
        return .run(options)
    }

    /// A model's baud at power-on: u-blox M8 and MediaTek 9600, u-blox M10 38400, Quectel
    /// LC29H 115200.
    static func defaultBaud(_ model: SimulatedReceiver.Model) -> Int {
        switch model {
        case .ubloxM8, .mediatek, .silent: 9600
        case .ubloxM10: 38_400
        case .quectel: 115_200
        }
    }

    /// A non-negative decimal such as `2.5` (`DecimalText`, to the microunit: `Double("…")`
    /// does not link in Embedded Swift), e.g. `"0.25"` → 0.25; nil for `-1`, `1e3` or `""`.
    static func decimal(_ text: String) -> Double? {
        guard let micro = DecimalText.read(Array(text.utf8)[...], scale: 6), micro >= 0 else { return nil }
        return Double(micro) / 1_000_000
    }

    /// `--stdout`: every epoch at once, for tests and `| trackctl decode`.
    static func writeToStandardOutput(_ simulator: inout NMEASimulator) -> Int32 {
        var output = BufferedOutput(.standardOutput)
        var epoch = TextBuffer()
        do throws(Errno) {
            while true {
                epoch.removeAll()
                guard simulator.writeEpoch(to: &epoch) else { break }
                try epoch.withBytes { (bytes) throws(Errno) in try output.write(bytes) }
            }
            try output.flush()
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl simulate: standard output: \(error.message)\n")
            return 1
        }
        return 0
    }
}
