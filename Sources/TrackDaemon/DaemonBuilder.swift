import TrackCore
import TrackIO

/// The one way a daemon is made: every service from the configuration, in one place, for
/// trackd (`TrackdCommand`), the in-process tests and the fuzz targets. What differs between
/// them is only the receiver's source, the board's GPIO backend and which of the process's
/// parts they take (`parts`): trackd takes them all; a test leaves out the signals (they are
/// the test runner's) and chooses the rest.
///
/// Adding a service is a folder of its own, its property in `Daemon` and its calls there, and
/// one line in `build`.
struct DaemonBuilder {
    /// The parts of the process a daemon can be given.
    struct Parts: OptionSet {
        let rawValue: Int
        /// SIGTERM, SIGINT, SIGHUP and SIGCHLD through a signalfd.
        static let signals = Parts(rawValue: 1)
        /// The control socket at `[control] socket`.
        static let controlSocket = Parts(rawValue: 2)
        /// gpsd's sockets at `[gpsd] listen`.
        static let gpsd = Parts(rawValue: 4)
        static let all: Parts = [.signals, .controlSocket, .gpsd]
    }

    var config: TrackdConfig
    var configSource: ConfigSource
    var boardMap: BoardMap
    /// The fences loaded for the start, and why none did (trackd then runs without fences).
    var fences: FenceMonitor
    var fencesError: String?
    var parts = Parts.all
    /// The receiver's path as gpsd's clients see it (a replay's file for a replay).
    var gpsdDevice: String
    /// False for a replay: its times are history and never go to chrony.
    var liveTime = true
    /// Unit 0's NTP shared-memory key: NTP's, or a test's own.
    var timeBaseKey = NTPSharedMemory.baseKey

    /// A builder for `config` from `configSource`, with the board file's `boardMap` and no
    /// fences; the receiver's path from trackd.conf, else the board file.
    init(config: TrackdConfig, configSource: ConfigSource, boardMap: BoardMap) {
        self.config = config
        self.configSource = configSource
        self.boardMap = boardMap
        fences = FenceMonitor(fences: FenceSet(), settings: config.fences.settings)
        gpsdDevice = SerialPort.Configuration(config.receiver, board: boardMap).path
    }

    /// Why a daemon could not be made: a part of the process that could not be had.
    enum Failure: Error {
        case signals(Errno)
        case controlSocket(path: String, Errno)

        var description: String {
            switch self {
            case .signals(let error): "signals: " + error.message
            case .controlSocket(let path, let error): "control socket " + path + ": " + error.message
            }
        }
    }

    /// The daemon over `source` and `gpio` at `now`, its services made (allocates: start-up).
    func build<Source: ReceiverSource & ~Copyable, GPIO: GPIOBackend>(
        source: consuming Source, gpio: GPIO, now: MonotonicTime
    ) throws(Failure) -> Daemon<Source, GPIO> {
        let signals: SignalDescriptor?
        do {
            signals = parts.contains(.signals) ? try SignalDescriptor() : nil
        } catch {
            throw .signals(error)
        }
        // gpsd's sockets before the control socket: a script or unit that waits for the control
        // socket (trackctl status) then finds gpsd listening too, however long the start took
        // (100,000 fences under qemu: seconds).
        let gpsd = gpsdService()
        let control = try controlService()
        let state = StateService(file: StateFile(path: config.state.file, storage: PosixStateFileStorage()),
                                 restricted: config.privacy.restricted,
                                 maxSpeedMillimetresPerSecond: Int64(config.filter.maxSpeedMillimetresPerSecond))
        if let problem = state.problem {
            // A damaged state file must not stop tracking: the safe default is used and shown.
            Journal.say(problem + "; starting as not-determined")
        }
        var board = BoardService(backend: gpio, settings: BoardSettings(config))
        board.open(boardMap, simulated: config.board.simulated)
        return Daemon(
            process: ProcessService(signals: signals, config: config, configSource: configSource, boardMap: boardMap),
            receiver: ReceiverService(source: source, controller: ReceiverControl.Settings(config.receiver)), fixes: FixPipeline(config), state: state,
            trackLog: TrackLogService(config.log, now: now),
            fences: FenceService(fences, config, loadError: fencesError), places: PlaceService(config.places),
            time: TimeService(config.time, live: liveTime, baseKey: timeBaseKey), board: board,
            control: control, gpsd: gpsd, controlFacts: (config.control.socket, 0, 0))
    }

    /// The control socket (mode 0660, group `[control] group`); without the group only root
    /// can use trackctl, which is said and tracking goes on.
    func controlService() throws(Failure) -> ControlService {
        guard parts.contains(.controlSocket) else { return ControlService(nil, path: config.control.socket) }
        let server: ControlServer
        do {
            server = try ControlServer(path: config.control.socket, mode: 0o660)
        } catch {
            throw .controlSocket(path: config.control.socket, error)
        }
        do {
            try server.setGroup(config.control.group)
        } catch {
            Journal.say("control socket group '" + config.control.group + "': " + error.message + "; only root can use trackctl")
        }
        return ControlService(server, path: config.control.socket)
    }

    /// gpsd's service on `[gpsd] listen` (off when the list is empty). An address that cannot
    /// be bound (a gpsd already on the port) is said and skipped: tracking matters more.
    func gpsdService() -> GpsdService {
        let listen = parts.contains(.gpsd) ? config.gpsd.listen : []
        let server = GpsdServer(addresses: listen, capacity: config.gpsd.maxClients)
        for failure in server.failures {
            var text = TextBuffer()
            failure.address.write(to: &text)
            Journal.say("gpsd: cannot listen on " + text.string + ": " + failure.error.message + "; skipped")
        }
        return GpsdService(server, devicePath: gpsdDevice)
    }
}
