import Testing
import TrackCore
@testable import TrackDaemon
import TrackIO
@testable import TrackIO

/// Every LED state through the daemon's LED driver on the fake backend, with the exact times
/// each line changed (`level@ms`), and pre-emption: storage error over the waypoint
/// acknowledgement over the normal pattern.
@Suite("LED driver waveforms")
struct LEDDriverWaveformTests {
    typealias Change = (Int64, (inout LEDSources) -> Void)

    static func edges(_ led: LEDLine, until: Int64, changes: [Change] = [],
                      _ configure: @escaping (inout LEDSources) -> Void = { _ in }) -> [String] {
        var bench = LEDBench(configure: configure)
        bench.run(until: until, changes: changes)
        return bench.edges(led)
    }

    @Test("led-fix: silent, no fix, 2D, 3D, port error")
    func receiverStates() {
        #expect(Self.edges(.fix, until: 3_000) == [])
        #expect(Self.edges(.fix, until: 3_000, changes: LEDBench.receiver(until: 3_000))
            == ["1@0", "0@500", "1@1000", "0@1500", "1@2000", "0@2500"])
        #expect(Self.edges(.fix, until: 3_000, changes: LEDBench.receiver(until: 3_000, fix: .twoD))
            == ["1@0", "0@100", "1@200", "0@300", "1@1000", "0@1100", "1@1200", "0@1300",
                "1@2000", "0@2100", "1@2200", "0@2300"])
        #expect(Self.edges(.fix, until: 3_000, changes: LEDBench.receiver(until: 3_000, fix: .threeD)) == ["1@0"])
        #expect(Self.edges(.fix, until: 1_000) { status in
            status.source = SourceStatus(path: "/dev/ttyUSB0", isOpen: false, lastError: .disconnected(path: "/dev/ttyUSB0"))
        } == ["1@0", "0@100", "1@200", "0@300", "1@400", "0@500", "1@600", "0@700", "1@800", "0@900"])
        // A replay that ended is not a port error: the receiver is just silent.
        #expect(Self.edges(.fix, until: 1_000) { status in
            status.source = SourceStatus(path: "capture.nmea", isOpen: false, lastError: .endOfInput(path: "capture.nmea"))
        } == [])
    }

    @Test("led-fix follows the receiver going quiet and a fix going stale, 2.5 s later")
    func receiverTimeouts() {
        // Bytes at 0 only: slow blink until 2.5 s, then dark for good.
        #expect(Self.edges(.fix, until: 6_000, changes: LEDBench.receiver(until: 1))
            == ["1@0", "0@500", "1@1000", "0@1500", "1@2000", "0@2500"])
        // A 3D fix at 0 only, bytes every second: solid until 2.5 s, then the 1 Hz blink.
        let changes = LEDBench.receiver(until: 1, fix: .threeD) + Array(LEDBench.receiver(until: 4_000).dropFirst())
        #expect(Self.edges(.fix, until: 4_000, changes: changes) == ["1@0", "0@2500", "1@3000", "0@3500"])
    }

    @Test("led-status: every permission state")
    func permissionStates() {
        func permission(_ state: PermissionState, inUse: Bool = false, onTrip: Bool = false)
            -> (inout LEDSources) -> Void {
            { status in
                status.permission = Permission(state: state)
                status.gpio.inUse = inUse
                status.onTrip = onTrip
            }
        }
        #expect(Self.edges(.status, until: 6_000, permission(.always)) == ["1@0"])
        #expect(Self.edges(.status, until: 6_000, permission(.whenInUse, inUse: true)) == ["1@0"])
        // The simulated board has an in-use input: then only the input counts, not a trip.
        #expect(Self.edges(.status, until: 6_000, permission(.whenInUse, onTrip: true))
            == ["1@0", "0@250", "1@5000", "0@5250"])
        // A board without the input: a trip detected from speed counts as in use.
        var withoutInput = ConfigFiles.simulatedBoardMap
        withoutInput[.inUse] = nil
        var bench = LEDBench(map: withoutInput, configure: permission(.whenInUse, onTrip: true))
        bench.run(until: 6_000)
        #expect(bench.edges(.status) == ["1@0"])
        #expect(Self.edges(.status, until: 6_000, permission(.whenInUse)) == ["1@0", "0@250", "1@5000", "0@5250"])
        #expect(Self.edges(.status, until: 3_000, permission(.notDetermined))
            == ["1@0", "0@50", "1@200", "0@250", "1@2000", "0@2050", "1@2200", "0@2250"])
        #expect(Self.edges(.status, until: 6_000, permission(.denied)) == ["1@0", "0@50", "1@5000", "0@5050"])
        #expect(Self.edges(.status, until: 6_000, permission(.restricted)) == ["1@0", "0@50", "1@5000", "0@5050"])
    }

    @Test("led-status: storage error, waypoint saved, privacy toggled")
    func statusEvents() {
        #expect(Self.edges(.status, until: 500) { $0.storageError = true } == ["1@0", "0@100", "1@200", "0@300", "1@400"])
        // Three quick flashes framed by dark gaps, over the solid of `always`.
        #expect(Self.edges(.status, until: 3_000) { status in
            status.permission = Permission(state: .always)
            status.gpio.waypointSavedAt = .milliseconds(1_000)
        } == ["1@0", "0@1000", "1@1150", "0@1250", "1@1350", "0@1450", "1@1550", "0@1650", "1@1800"])
        // One 1 s flash, then the denied blip again.
        #expect(Self.edges(.status, until: 6_000) { status in
            status.permission = Permission(state: .denied)
            status.gpio.privacyToggledAt = .milliseconds(1_000)
        } == ["1@0", "0@50", "1@1250", "0@2250", "1@5000", "0@5050"])
    }

    @Test("pre-emption: storage error over the waypoint acknowledgement over the normal pattern")
    func preemption() {
        // The error hides the acknowledgement until it clears at 1.2 s; the rest of the
        // acknowledgement shows, then the solid of `always`.
        let clear: [Change] = [(1_200, { $0.storageError = false })]
        #expect(Self.edges(.status, until: 3_000, changes: clear) { status in
            status.permission = Permission(state: .always)
            status.storageError = true
            status.gpio.waypointSavedAt = .milliseconds(1_000)
        } == ["1@0", "0@100", "1@200", "0@300", "1@400", "0@500", "1@600", "0@700", "1@800", "0@900",
              "1@1000", "0@1100", "1@1200", "0@1250", "1@1350", "0@1450", "1@1550", "0@1650", "1@1800"])
        // A waypoint during the privacy flash takes the line; the privacy flash has ended by then.
        #expect(Self.edges(.status, until: 3_000) { status in
            status.permission = Permission(state: .denied)
            status.gpio.privacyToggledAt = .milliseconds(1_000)
            status.gpio.waypointSavedAt = .milliseconds(1_500)
        } == ["1@0", "0@50", "1@1250", "0@1500", "1@1650", "0@1750", "1@1850", "0@1950", "1@2050", "0@2150"])
    }

    @Test("led-fence and led-log")
    func fenceAndLog() {
        #expect(Self.edges(.fence, until: 3_000) == [])
        #expect(Self.edges(.fence, until: 3_000) { $0.insideFence = true } == ["1@0"])
        #expect(Self.edges(.fence, until: 3_000) { $0.lastFenceEventAt = .milliseconds(1_000) }
            == ["1@1150", "0@1250", "1@1350", "0@1450", "1@1550", "0@1650"])
        #expect(Self.edges(.fence, until: 3_000) { status in
            status.insideFence = true
            status.lastFenceEventAt = .milliseconds(1_000)
        } == ["1@0", "0@1000", "1@1150", "0@1250", "1@1350", "0@1450", "1@1550", "0@1650", "1@1800"])
        #expect(Self.edges(.log, until: 3_000) == [])
        let syncs: [Change] = [(1_000, { $0.lastSyncAt = .milliseconds(1_000) }), (6_000, { $0.lastSyncAt = .milliseconds(6_000) })]
        #expect(Self.edges(.log, until: 7_000, changes: syncs) == ["1@1000", "0@1050", "1@6000", "0@6050"])
    }

    @Test("the loop wakes at edges only and writes only changes")
    func wakesAtEdgesOnly() {
        var bench = LEDBench { status in
            status.permission = Permission(state: .always)
            status.source = SourceStatus(path: "/dev/ttyUSB0", isOpen: false, lastError: .disconnected(path: "/dev/ttyUSB0"))
        }
        bench.run(until: 1_000)
        #expect(bench.wakeUps == Array(stride(from: Int64(0), to: 1_000, by: 100)))
        // led-fix's ten changes and led-status going solid once.
        #expect(bench.driver.board.writes == 11)
        #expect(bench.status.gpio.leds[.status])
        #expect(!bench.status.gpio.leds[.fix])
    }

    @Test("an [leds] override drives the line")
    func override() throws {
        var settings = BoardSettings()
        try settings.ledTable.override(.fix3D, with: "on 900 off 100")
        var bench = LEDBench(settings: settings)
        bench.run(until: 2_000, changes: LEDBench.receiver(until: 2_000, fix: .threeD))
        #expect(bench.edges(.fix) == ["1@0", "0@900", "1@1000", "0@1900"])
    }
}

/// A board with fewer parts: the loop wakes for the edges of the LEDs it has, and not at all
/// for a board with a button only.
@Suite("LED driver on partial boards")
struct LEDDriverPartialBoardTests {
    @Test("one LED: wakes at its edges only")
    func oneLED() {
        var map = BoardMap()
        map.chip = ConfigFiles.simulatedChip.label
        map[.ledFix] = .name("led-fix")
        // not-determined would blink led-status, which this board does not have.
        var bench = LEDBench(map: map) { status in
            status.source = SourceStatus(path: "/dev/ttyUSB0", isOpen: false, lastError: .disconnected(path: "/dev/ttyUSB0"))
        }
        bench.run(until: 1_000)
        #expect(bench.wakeUps == Array(stride(from: Int64(0), to: 1_000, by: 100)))
        #expect(bench.edges(.status) == ["no line"])
    }

    @Test("a button and no LEDs: nothing to wake for while the button rests")
    func buttonOnly() {
        var map = BoardMap()
        map.chip = ConfigFiles.simulatedChip.label
        map[.button] = .name("button")
        var bench = LEDBench(map: map) { $0.storageError = true }
        bench.run(until: 10_000, changes: LEDBench.receiver(until: 3_000, fix: .twoD))
        #expect(bench.wakeUps == [0, 1_000, 2_000])
        #expect(bench.driver.board.writes == 0)
    }
}
