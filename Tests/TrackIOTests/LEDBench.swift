import TrackCore
@testable import TrackDaemon
import TrackIO
@testable import TrackIO

/// The daemon's LED driver on the simulated board's fake backend, run like the loop runs it:
/// wake at the deadline the driver returns (or when the test changes the status), show, repeat.
struct LEDBench {
    var driver: BoardDriver<FakeGPIOBackend>
    var status = LEDSources()
    /// The instants the loop woke, in ms.
    var wakeUps: [Int64] = []

    init(settings: BoardSettings = BoardSettings(), map: BoardMap = ConfigFiles.simulatedBoardMap,
         configure: (inout LEDSources) -> Void = { _ in }) {
        driver = BoardDriver(board: BoardGPIO(backend: FakeGPIOBackend(chips: [ConfigFiles.simulatedChip])),
                             settings: settings)
        driver.open(map, simulated: true, status: &status.gpio)
        configure(&status)
    }

    /// Runs from 0 to `until` ms; `changes` are (ms, change) applied when the clock reaches them.
    mutating func run(until: Int64, changes: [(Int64, (inout LEDSources) -> Void)] = []) {
        var pending = changes.sorted { $0.0 < $1.0 }
        var now: Int64 = 0
        while now < until {
            while let change = pending.first, change.0 <= now {
                change.1(&status)
                pending.removeFirst()
            }
            driver.board.backend.now = .milliseconds(now)
            wakeUps.append(now)
            let (inputs, changeAt) = status.inputs(now: .milliseconds(now))
            let next = driver.showLEDs(inputs, changeAt: changeAt, now: .milliseconds(now), status: &status.gpio)
                .map { $0.nanoseconds / 1_000_000 }
            now = min(next ?? Int64.max, pending.first?.0 ?? Int64.max)
        }
    }

    /// The changes of `led` after its request, as `level@ms`, e.g. `["1@0", "0@500"]`.
    func edges(_ led: LEDLine) -> [String] {
        guard let line = driver.board.line(of: led) else { return ["no line"] }
        return driver.board.backend.waveform(of: line).dropFirst().map {
            "\($0.level.isHigh ? 1 : 0)@\($0.time.nanoseconds / 1_000_000)"
        }
    }

    /// Receiver bytes (and, with `fix`, a usable fix of that mode) every second from 0 to `until`.
    static func receiver(until: Int64, fix: FixMode? = nil) -> [(Int64, (inout LEDSources) -> Void)] {
        stride(from: Int64(0), to: until, by: 1_000).map { at in
            (at, { status in
                status.source.isOpen = true
                status.lastByteAt = .milliseconds(at)
                guard let fix else { return }
                var good = Fix()
                good.mode = fix
                good.position = Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: 11_516_700_000)
                status.lastGoodFix = good
                status.lastGoodFixAt = .milliseconds(at)
            })
        }
    }
}
