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
    /// The daemon of `config` (its log and state under `directory`) with `fences` and the
    /// process parts `parts` (gpsd's sockets for the gpsd target), built as trackd builds it
    /// and started at 0 s; tracking allowed by `permission` and the fixes of `sentences`
    /// handled a second apart from 58 s, so the requests find a recent fix.
    static func fuzzing(_ config: TrackdConfig, directory: String, fences: FenceSet, parts: DaemonBuilder.Parts = [],
                        permission: Permission, sentences: String) -> FuzzDaemon {
        var builder = DaemonBuilder(config: config, configSource: ConfigSource(path: directory + "/trackd.conf", explicit: false),
                                    boardMap: ConfigFiles.simulatedBoardMap)
        builder.fences = FenceMonitor(fences: fences, settings: config.fences.settings)
        builder.parts = parts
        builder.gpsdDevice = "/dev/serial0"
        builder.liveTime = false
        var daemon: FuzzDaemon
        do {
            daemon = try builder.build(source: SilentSource(), gpio: TrackdGPIO.simulatedBoard(ConfigFiles.simulatedChip),
                                       now: .seconds(0))
        } catch {
            fatalError("the fuzz daemon: \(error.description)")
        }
        daemon.start(now: .seconds(0), bootTime: UTCTime(millisecondsSinceEpoch: 1_735_750_000_000))
        var receiver = NMEAReceiver()
        var fixes: [Fix] = []
        Array(sentences.utf8).withUnsafeBytes { raw in receiver.consume(raw) { fixes.append(copy $0) } }
        receiver.finish { fixes.append(copy $0) }
        daemon.state.permission = permission
        for (index, fix) in fixes.enumerated() {
            var wake = daemon.wake(.seconds(58 + Int64(index)))
            daemon.handle(fix, &wake)
        }
        return daemon
    }
}
