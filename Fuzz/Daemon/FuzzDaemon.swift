// Compiled into every fuzz target that imports TrackDaemon (scripts/fuzz): the daemon such a
// target drives, built as trackd builds it, with a silent receiver and the simulated board.
import Glibc
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

typealias FuzzDaemon = Daemon<SilentSource, TrackdGPIO>

/// A directory of this process for target `name`'s log, state and sockets.
func fuzzDirectory(_ name: String) -> String {
    let directory = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/trackd-fuzz-\(name)-\(getpid())"
    _ = mkdir(directory, 0o700)
    return directory
}

extension Daemon where Source == SilentSource, GPIO == TrackdGPIO {
    /// The daemon of `config` (its log and state under `directory`) with `fences` and the gpsd
    /// service `gpsd`, started at 0 s; tracking allowed by `permission` and the fixes of
    /// `sentences` handled a second apart from 58 s, so the requests find a recent fix.
    static func fuzzing(_ config: TrackdConfig, directory: String, fences: FenceSet, gpsd: consuming GpsdService? = nil,
                        permission: Permission, sentences: String) -> FuzzDaemon {
        var board = BoardService(backend: TrackdGPIO.simulatedBoard(ConfigFiles.simulatedChip), settings: BoardSettings(config))
        board.open(ConfigFiles.simulatedBoardMap, simulated: true)
        var daemon = FuzzDaemon(
            receiver: ReceiverService(source: SilentSource()),
            state: StateService(file: StateFile(path: config.state.file, storage: PosixStateFileStorage()),
                                restricted: false, maxSpeedMillimetresPerSecond: 69_444),
            trackLog: TrackLogService(config.log, now: .seconds(0)),
            fences: FenceService(FenceMonitor(fences: fences, settings: config.fences.settings), config, loadError: nil),
            places: PlaceService(config.places), time: TimeService(config.time, live: false), board: board, control: nil,
            signals: nil, config: config, configSource: ConfigSource(path: directory + "/trackd.conf", explicit: false),
            boardMap: ConfigFiles.simulatedBoardMap, gpsd: gpsd)
        daemon.start(now: .seconds(0), bootTime: UTCTime(millisecondsSinceEpoch: 1_735_750_000_000))
        var receiver = NMEAReceiver()
        var fixes: [Fix] = []
        Array(sentences.utf8).withUnsafeBytes { raw in receiver.consume(raw) { fixes.append(copy $0) } }
        receiver.finish { fixes.append(copy $0) }
        daemon.state.permission = permission
        for (index, fix) in fixes.enumerated() { daemon.handle(fix, now: .seconds(58 + Int64(index))) }
        return daemon
    }
}
