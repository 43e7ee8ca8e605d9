import Foundation
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// The real daemon in this process: its loop and every service, on a scripted source, the
/// simulated board's fake GPIO backend, a track log and state file in a temporary directory,
/// and loop times the test chooses. `run(until:)` steps the loop from one deadline to the next
/// exactly as `Daemon.run` would wake, without reading the clock or sleeping.
final class InProcessDaemon {
    typealias TestDaemon = Daemon<ScriptedSource, FakeGPIOBackend>

    let directory: URL
    var daemon: TestDaemon
    /// The loop time of the last wake-up, in ms.
    private(set) var nowMilliseconds: Int64 = 0
    /// Every wake-up's time, in ms.
    private(set) var wakeUps: [Int64] = []
    /// The instants the log was synced at, in ms: syncs at one instant show as one flash.
    private(set) var syncInstants: Set<Int64> = []

    /// The system clock the loop reads at each wake-up, as ns since 1970 from the loop's ms;
    /// nil leaves it at 0.
    var realtime: ((Int64) -> Int64)?

    /// `configure` edits the configuration (log, state and socket paths are the test's own).
    /// `timeBaseKey`: the NTP unit keys of the test's own (the time service is off without).
    /// `parts`: the control socket (in the test's directory) and gpsd's sockets, when the test
    /// talks to them as trackctl and gpsd's clients would.
    init(_ source: consuming ScriptedSource, permission: PermissionRequest? = .allowAlways,
         configure: (inout TrackdConfig) -> Void = { _ in }, fences: String? = nil, timeBaseKey: Int32? = nil,
         realtime: ((Int64) -> Int64)? = nil, parts: DaemonBuilder.Parts = []) throws {
        self.realtime = realtime
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-ip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var config = TrackdConfig()
        config.log.directory = directory.appendingPathComponent("log").path
        config.log.syncIntervalMilliseconds = 1_000
        config.state.file = directory.appendingPathComponent("state").path
        config.board.simulated = true
        config.control.socket = directory.appendingPathComponent("control.sock").path
        // The NTP units are the machine's: a test that shares time gives keys of its own.
        config.time.shm = .unit(2)
        var monitor = FenceMonitor(fences: FenceSet(), settings: config.fences.settings)
        if let fences {
            let path = directory.appendingPathComponent("fences.geojson")
            try fences.write(to: path, atomically: true, encoding: .utf8)
            config.fences.file = path.path
        }
        configure(&config)
        if timeBaseKey == nil { config.time.shm = .off }
        if fences != nil, case .success(let loaded) = ConfigFiles.fences(config) { monitor = loaded }
        var builder = DaemonBuilder(
            config: config, configSource: ConfigSource(path: directory.appendingPathComponent("trackd.conf").path, explicit: false),
            boardMap: ConfigFiles.simulatedBoardMap)
        builder.fences = monitor
        builder.parts = parts
        builder.timeBaseKey = timeBaseKey ?? NTPSharedMemory.baseKey
        daemon = try builder.build(source: source, gpio: FakeGPIOBackend(chips: [ConfigFiles.simulatedChip]), now: .milliseconds(0))
        if let permission { try? daemon.state.apply(permission, now: .milliseconds(0)) }
        daemon.start(now: .milliseconds(0), bootTime: UTCTime(millisecondsSinceEpoch: Self.bootMilliseconds))
        step(at: 0)
    }

    /// The system clock at start-up, ms since 1970 (2026-12-01).
    static var bootMilliseconds: Int64 { 1_796_040_000_000 }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// One wake-up at `milliseconds`, and another at once while a descriptor is ready (the
    /// fake GPIO's pipes: a press written by the loop itself), as the real poll would return.
    func step(at milliseconds: Int64) {
        nowMilliseconds = milliseconds
        let now = MonotonicTime.milliseconds(milliseconds)
        daemon.board.driver.board.backend.now = now
        daemon.loop.wakeWithoutWaiting(now: now)
        // The system clock runs from the boot marker's time unless the test gives its own.
        daemon.loop.realtimeNanoseconds = realtime?(milliseconds) ?? (Self.bootMilliseconds + milliseconds) * 1_000_000
        for _ in 0..<8 {
            wakeUps.append(milliseconds)
            daemon.step(now: now)
            if let synced = daemon.trackLog.status.lastSync { syncInstants.insert(synced.nanoseconds / 1_000_000) }
            daemon.arm()
            daemon.loop.wakeWithoutWaiting(now: now)
            guard daemon.loop.anyReady else { break }
        }
        // What the services want before the next wait, as `Daemon.run` arms them (the test
        // wake-up above cleared the sources' own deadlines).
        daemon.arm()
    }

    /// Wakes at every deadline the daemon sets, up to `end` ms (inclusive); `at` are extra
    /// instants with something to do first (a press, a request), run before their wake-up.
    func run(until end: Int64, at actions: [(Int64, (InProcessDaemon) -> Void)] = []) {
        var pending = actions.sorted { $0.0 < $1.0 }
        while true {
            let deadline = daemon.loop.nextDeadline.map { max($0.nanoseconds / 1_000_000, nowMilliseconds) }
            let next = min(deadline ?? Int64.max, pending.first?.0 ?? Int64.max)
            guard next <= end else { break }
            while let action = pending.first, action.0 <= next {
                nowMilliseconds = max(nowMilliseconds, action.0)
                daemon.board.driver.board.backend.now = .milliseconds(nowMilliseconds)
                action.1(self)
                pending.removeFirst()
            }
            step(at: max(next, nowMilliseconds))
        }
        nowMilliseconds = end
    }

    /// The answer to a control request (`status json`, `where`, `mark old bridge` …), applied
    /// at the current time as the control socket would.
    func request(_ text: String) -> String {
        let reply = ReplyBuffer(capacity: ControlServer.replyCapacity)
        defer { reply.deallocate() }
        var buffer = reply
        let line = ControlLine(Array(text.utf8))
        let request = line.withSpan { ControlRequest.parse($0) }
        // The request's own wake-up, with its reading of the system clock.
        daemon.loop.realtimeNanoseconds = realtime?(nowMilliseconds) ?? (Self.bootMilliseconds + nowMilliseconds) * 1_000_000
        var wake = daemon.wake(.milliseconds(nowMilliseconds))
        ControlAnswer.answer(request, host: &daemon, wake: wake, reply: &buffer)
        daemon.commitPermission(&wake)
        return String(decoding: buffer.bytes(from: 0), as: UTF8.self)
    }

    /// The changes of `led` after its request, as `level@ms`, e.g. `["1@0", "0@500"]`.
    func edges(_ led: LEDLine) -> [String] {
        guard let line = daemon.board.driver.board.line(of: led) else { return ["no line"] }
        return daemon.board.driver.board.backend.waveform(of: line).dropFirst().map {
            "\($0.level.isHigh ? 1 : 0)@\($0.time.nanoseconds / 1_000_000)"
        }
    }

    /// Stops as SIGTERM would (a last sync), and reads the log back.
    func stopAndReadLog() throws -> (records: [LogRecord], problems: [LogProblem]) {
        daemon.finish(now: .milliseconds(nowMilliseconds))
        var reader = try LogReader(directory: daemon.trackLog.settings.directory, files: PosixLogFiles())
        return (reader.readAll(), reader.problems)
    }
}
