import Testing
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

private let pi4 = FakeGPIOBackend.Chip(
    label: "pinctrl-bcm2711", path: "/dev/gpiochip0", lineNames: (0..<58).map { "GPIO\($0)" }, busyOffsets: [22])

/// The button and the in-use input through the daemon's driver over injected edges, and what
/// a missing chip or a busy line does.
@Suite("Board driver: button, in-use input, failures")
struct BoardDriverTests {
    static func pi4Map(_ edit: (inout BoardMap) -> Void = { _ in }) throws -> BoardMap {
        var map = try BoardMap.parse("""
            [gpio]
            chip = pinctrl-bcm2711
            led-fix = GPIO17
            led-status = GPIO27
            led-fence = GPIO23
            led-log = GPIO18
            button = GPIO24
            in-use = GPIO25
            """, file: "pi4.conf")
        edit(&map)
        return map
    }

    /// Injects `edges` (ms, pressed) on the button and runs the driver like the loop, waking
    /// at edges and deadlines; `reloadAt` applies new settings mid-way. Returns the presses.
    static func presses(_ edges: [(Int64, Bool)], until: Int64, reloadAt: Int64? = nil) throws -> [String] {
        var status = GPIOStatus()
        var driver = BoardDriver(board: BoardGPIO(backend: FakeGPIOBackend(chips: [pi4])), settings: BoardSettings())
        driver.open(try pi4Map(), simulated: false, status: &status)
        #expect(status.problem == nil)
        let button = try #require(driver.board.button)
        var pending = edges
        var result: [String] = []
        var now: Int64 = 0
        while now <= until {
            var ready = false
            while let edge = pending.first, edge.0 <= now {
                driver.board.backend.inject(edge.1 ? .falling : .rising, on: button, at: .milliseconds(edge.0))
                pending.removeFirst()
                ready = true
            }
            if let at = reloadAt, at == now {
                var settings = BoardSettings()
                settings.debounceMilliseconds = 20
                driver.apply(settings)
            }
            driver.readEdges(buttonReady: ready, inUseReady: false, now: .milliseconds(now), status: &status)
            while let press = driver.nextPress(now: .milliseconds(now)) {
                switch press {
                case .shortPress(let at): result.append("short@\(at.nanoseconds / 1_000_000)")
                case .longPress(let at): result.append("long@\(at.nanoseconds / 1_000_000)")
                }
            }
            var next = pending.first?.0 ?? until + 1
            if let deadline = driver.button.nextDeadline { next = min(next, deadline.nanoseconds / 1_000_000) }
            if let at = reloadAt, at > now { next = min(next, at) }
            now = max(next, now + 1)
        }
        return result
    }

    @Test("bounce, short press, long press")
    func presses() throws {
        #expect(try Self.presses([(100, true), (102, false), (104, true), (300, false), (303, true), (305, false)],
                                 until: 5_000) == ["short@305"])
        #expect(try Self.presses([(100, true), (3_500, false)], until: 5_000) == ["long@3100"])
        #expect(try Self.presses([(100, true), (110, false)], until: 5_000) == [])
    }

    @Test("a long press held through a reload (SIGHUP) still toggles")
    func heldThroughReload() throws {
        #expect(try Self.presses([(100, true), (3_500, false)], until: 5_000, reloadAt: 1_000) == ["long@3100"])
    }

    @Test("the in-use input, active low by default and active high when configured")
    func inUse() throws {
        for activeHigh in [false, true] {
            var settings = BoardSettings()
            settings.inUseActiveHigh = activeHigh
            var status = GPIOStatus()
            var driver = BoardDriver(board: BoardGPIO(backend: FakeGPIOBackend(chips: [pi4])), settings: settings)
            driver.open(try Self.pi4Map(), simulated: false, status: &status)
            // The line idles high (pull-up): in use at start-up only when active high.
            #expect(status.hasInUseInput)
            #expect(status.inUse == activeHigh)
            let line = try #require(driver.board.inUse)
            driver.board.backend.inject(.falling, on: line, at: .milliseconds(1_000))
            driver.readEdges(buttonReady: false, inUseReady: true, now: .milliseconds(1_000), status: &status)
            #expect(status.inUse == activeHigh, "not before the debounce time")
            driver.readEdges(buttonReady: false, inUseReady: false, now: .milliseconds(1_030), status: &status)
            #expect(status.inUse == !activeHigh)
        }
    }

    @Test("a missing chip, a missing line or a busy line: one error, nothing left requested", arguments: [
        ("pinctrl-rp1", "GPIO22", "GPIO chip pinctrl-rp1: no such chip (ENOENT: is this a board with GPIO, and the label right?)"),
        ("pinctrl-bcm2711", "GPIO99", "GPIO99 on pinctrl-bcm2711: no line of that name"),
        // GPIO22 is held by another program (e.g. a 1-Wire overlay).
        ("pinctrl-bcm2711", "22", "offset 22 on pinctrl-bcm2711: busy (used by another program or a device-tree overlay)"),
    ])
    func failures(chip: String, fence: String, message: String) throws {
        var status = GPIOStatus()
        var driver = BoardDriver(board: BoardGPIO(backend: FakeGPIOBackend(chips: [pi4])), settings: BoardSettings())
        let map = try Self.pi4Map { map in
            map.chip = chip
            map[.ledFence] = try? BoardLine(parsing: fence)
        }
        driver.open(map, simulated: false, status: &status)
        #expect(status.problem == message)
        #expect(!status.isActive)
        #expect(driver.board.backend.requestedLines.isEmpty)
        #expect(driver.board.buttonDescriptor == nil)
        #expect(!driver.board.hasLEDs)
        // The loop then leaves the LEDs alone and asks for no wake-up.
        let (inputs, changeAt) = LEDSources().inputs(now: .milliseconds(0))
        #expect(driver.showLEDs(inputs, changeAt: changeAt, now: .milliseconds(0), status: &status) == nil)
    }

    @Test("a board with some parts only opens those")
    func partialBoard() throws {
        var status = GPIOStatus()
        var driver = BoardDriver(board: BoardGPIO(backend: FakeGPIOBackend(chips: [pi4])), settings: BoardSettings())
        var map = BoardMap()
        map.chip = "/dev/gpiochip0"
        map[.ledFix] = .offset(17)
        driver.open(map, simulated: false, status: &status)
        #expect(status.isActive)
        #expect(!status.hasButton)
        #expect(!status.hasInUseInput)
        #expect(driver.board.backend.requestedLines.map { $0.offset } == [17])
    }
}
