import TrackCore
import TrackIO

/// The board's lines of `trackctl status` (text and JSON).
extension StatusModel {
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
        appendLEDs(&line, gpio.leds)
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
        line.appendFixed(privacy.odometerMillimetres, decimals: 3)
        line.append(",\"gpio\":{\"board\":\"")
        line.append(gpio.board == .none ? "none" : gpio.board == .hardware ? "hardware" : "simulated")
        line.append(gpio.isActive ? "\",\"active\":true" : "\",\"active\":false")
        if let problem = gpio.problem {
            line.append(",\"problem\":")
            line.appendJSONString(problem)
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

/// `● fix  ○ status  ○ fence  ○ log`.
func appendLEDs(_ line: inout TextBuffer, _ levels: LEDLevels) {
    for led in LEDLine.allCases {
        if led != .fix { line.append("  ") }
        line.append(levels[led] ? "● " : "○ ")
        line.append(ledShortName(led))
    }
}
