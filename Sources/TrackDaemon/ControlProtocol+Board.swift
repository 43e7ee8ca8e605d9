import TrackCore
import TrackIO

/// `leds` and `button …` on the control socket, and the board's lines of `status`.
///
/// `leds` answers `● fix  ○ status  ○ fence  ○ log` (lit, dark) for `trackctl leds --watch`;
/// `button short|long` presses the simulated board's button (the demo's keyboard).
extension ControlProtocol {
    static func answerLEDs(status: DaemonStatus, reply: inout ReplyBuffer) {
        guard status.gpio.isActive else {
            reply.append("error gpio: no LEDs (")
            var line = TextBuffer()
            status.writeBoardState(to: &line)
            reply.append(line)
            reply.append(")\n")
            return
        }
        var line = TextBuffer()
        line.append("ok\n")
        appendLEDs(&line, status.gpio.leds)
        emit(&line, &reply)
    }

    static func answerButton(_ word: Range<Int>?, request: Span<UInt8>, status: inout DaemonStatus, reply: inout ReplyBuffer) {
        let press: GPIOStatus.SimulatedPress
        if matches(word, request, "short") {
            press = .short
        } else if matches(word, request, "long") {
            press = .long
        } else {
            reply.append("error usage: button short|long\n")
            return
        }
        guard status.gpio.board == .simulated, status.gpio.isActive, status.gpio.hasButton else {
            reply.append("error gpio: only a simulated board's button can be pressed from here ([board] simulated = yes)\n")
            return
        }
        status.gpio.simulatedPress = press
        reply.append(press == .short ? "ok\nbutton pressed (short)\n" : "ok\nbutton held (long)\n")
    }

    /// `● fix  ○ status  ○ fence  ○ log`.
    static func appendLEDs(_ line: inout TextBuffer, _ levels: LEDLevels) {
        for led in LEDLine.allCases {
            if led != .fix { line.append("  ") }
            line.append(levels[led] ? "● " : "○ ")
            line.append(ledShortName(led))
        }
    }
}

/// The LED's name without `led-`, e.g. `fix`.
func ledShortName(_ led: LEDLine) -> StaticString {
    switch led {
    case .fix: "fix"
    case .status: "status"
    case .fence: "fence"
    case .log: "log"
    }
}

extension DaemonStatus {
    /// `gpio      pinctrl-bcm2711: ● fix  ○ status  ○ fence  ○ log; button 2 short, 1 long`, or
    /// why there are no LEDs.
    func writeBoard(to line: inout TextBuffer) {
        line.append("gpio      ")
        guard gpio.isActive else {
            writeBoardState(to: &line)
            return
        }
        line.append(gpio.board == .simulated ? "simulated board" : "")
        if gpio.board == .hardware { line.append(string: gpio.chip) }
        line.append(": ")
        ControlProtocol.appendLEDs(&line, gpio.leds)
        if gpio.hasButton {
            line.append("; button ")
            line.append(integer: Int64(gpio.shortPresses))
            line.append(" short, ")
            line.append(integer: Int64(gpio.longPresses))
            line.append(" long")
            if let refusal = gpio.lastRefusal {
                line.append(" (last long press refused: ")
                line.append(refusal.message)
                line.append(")")
            }
        }
        if gpio.hasInUseInput { line.append(gpio.inUse ? "; in use" : "; not in use") }
        if gpio.pullUpMissing { line.append("; no pull-up (kernel < 5.5): fit a resistor") }
    }

    /// Why there are no LEDs: no board configured, or the one GPIO error.
    func writeBoardState(to line: inout TextBuffer) {
        if let problem = gpio.problem {
            line.append("off: ")
            line.append(string: problem)
            line.append("; logging goes on without LEDs and button")
        } else {
            line.append("none ([board] file not set)")
        }
    }

    /// `,"odometer":1234.567,"gpio":{"board":"simulated","leds":{"fix":true,…}}` (metres).
    func writeBoardJSON(to line: inout TextBuffer) {
        line.append(",\"odometer\":")
        line.appendFixed(odometer.totalMillimetres, decimals: 3)
        line.append(",\"gpio\":{\"board\":\"")
        line.append(gpio.board == .none ? "none" : gpio.board == .hardware ? "hardware" : "simulated")
        line.append(gpio.isActive ? "\",\"active\":true" : "\",\"active\":false")
        if let problem = gpio.problem {
            line.append(",\"problem\":")
            appendJSONString(&line, problem)
        }
        line.append(",\"leds\":{")
        for led in LEDLine.allCases {
            line.append(led == .fix ? "\"" : ",\"")
            line.append(ledShortName(led))
            line.append(gpio.leds[led] ? "\":true" : "\":false")
        }
        line.append("},\"shortPresses\":")
        line.append(integer: Int64(gpio.shortPresses))
        line.append(",\"longPresses\":")
        line.append(integer: Int64(gpio.longPresses))
        line.append(gpio.inUse ? ",\"inUse\":true}" : ",\"inUse\":false}")
    }
}

/// `12.345 km`, or `850 m` below a kilometre.
func appendDistance(_ line: inout TextBuffer, millimetres: Int64) {
    if millimetres < 1_000_000 {
        line.append(integer: millimetres / 1000)
        line.append(" m")
    } else {
        line.appendFixed(millimetres / 1000, decimals: 3)
        line.append(" km")
    }
}
