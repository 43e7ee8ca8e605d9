import TrackCore
import TrackIO

/// The GPIO backends `trackd` runs on, as one type so the daemon is compiled once: the
/// board's lines through libgpiod, or the demo's simulated board (`[board] simulated = yes`).
/// Both are stored (the unused one is empty and never opens anything) and each call goes to
/// the one in use, in place: neither's tables are copied. Tests use the fake backend directly.
struct TrackdGPIO: GPIOBackend {
    var hardware = LibgpiodBackend()
    var simulated = FakeGPIOBackend(chips: [])
    let usesSimulated: Bool

    /// The board's lines through libgpiod.
    static func libgpiod() -> TrackdGPIO { TrackdGPIO(usesSimulated: false) }

    /// The simulated board's one chip (the demo), keeping only the last level of each line.
    static func simulatedBoard(_ chip: FakeGPIOBackend.Chip) -> TrackdGPIO {
        var gpio = TrackdGPIO(usesSimulated: true)
        gpio.simulated = FakeGPIOBackend(chips: [chip])
        gpio.simulated.keepsWaveform = false
        return gpio
    }

    mutating func openChip(_ selector: GPIOChipSelector) throws(GPIOError) -> GPIOChip {
        if usesSimulated { return try simulated.openChip(selector) } else { return try hardware.openChip(selector) }
    }

    mutating func findLine(named name: String, on chip: GPIOChip) throws(GPIOError) -> GPIOLine {
        if usesSimulated { return try simulated.findLine(named: name, on: chip) } else { return try hardware.findLine(named: name, on: chip) }
    }

    mutating func line(offset: Int, on chip: GPIOChip) throws(GPIOError) -> GPIOLine {
        if usesSimulated { return try simulated.line(offset: offset, on: chip) } else { return try hardware.line(offset: offset, on: chip) }
    }

    mutating func requestOutput(_ line: GPIOLine, initial: GPIOLevel) throws(GPIOError) {
        if usesSimulated { try simulated.requestOutput(line, initial: initial) } else { try hardware.requestOutput(line, initial: initial) }
    }

    mutating func set(_ line: GPIOLine, to level: GPIOLevel) throws(GPIOError) {
        if usesSimulated { try simulated.set(line, to: level) } else { try hardware.set(line, to: level) }
    }

    mutating func requestInput(_ line: GPIOLine) throws(GPIOError) -> GPIOInputRequest {
        if usesSimulated { return try simulated.requestInput(line) } else { return try hardware.requestInput(line) }
    }

    mutating func readEvent(_ line: GPIOLine) throws(GPIOError) -> GPIOEdgeEvent? {
        if usesSimulated { return try simulated.readEvent(line) } else { return try hardware.readEvent(line) }
    }

    mutating func level(of line: GPIOLine) throws(GPIOError) -> GPIOLevel {
        if usesSimulated { return try simulated.level(of: line) } else { return try hardware.level(of: line) }
    }

    mutating func releaseAll() {
        if usesSimulated { simulated.releaseAll() } else { hardware.releaseAll() }
    }

    mutating func simulate(_ edge: GPIOEdge, on line: GPIOLine, at time: MonotonicTime) -> Bool {
        if usesSimulated { return simulated.simulate(edge, on: line, at: time) } else { return hardware.simulate(edge, on: line, at: time) }
    }
}
