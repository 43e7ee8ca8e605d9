import TrackCore
import TrackIO

extension GPIOStatus {
    /// `gpio      pinctrl-bcm2711: ● fix  ○ status  ○ fence  ○ log; button 2 short, 1 long`, or
    /// why there are no LEDs. The JSON `"gpio":{"board":"simulated","leds":{"fix":true,…},…}`.
    func report(to report: inout StatusReport) {
        report.line("gpio")
        report.object("gpio")
        defer { report.endObject() }
        report.name("board", board == .none ? "none" : board == .hardware ? "hardware" : "simulated", shown: .json)
        report.flag("active", isActive, shown: .json)
        report.count("shortPresses", shortPresses, shown: .json)
        report.count("longPresses", longPresses, shown: .json)
        report.flag("inUse", inUse, shown: .json)
        report.member("leds") { line in
            for led in LEDLine.allCases {
                line.append(led == .fix ? "{\"" : ",\"")
                line.append(ledShortName(led))
                line.append(leds[led] ? "\":true" : "\":false")
            }
            line.append(UInt8(ascii: "}"))
        }
        guard isActive else {
            if let problem { report.string("problem", problem, shown: .json) }
            report.words { writeState(to: &$0) }
            return
        }
        report.words { line in
            line.append(board == .simulated ? "simulated board" : "")
            if board == .hardware { line.append(string: chip) }
            line.append(": ")
            appendLEDs(&line, leds)
        }
        if hasButton {
            report.count(nil, shortPresses, "; button ", " short, ")
            report.count(nil, longPresses, "", " long")
            if let lastRefusal { report.name(nil, lastRefusal.message, " (last long press refused: ", ")") }
        }
        if hasInUseInput { report.flag(nil, inUse, ifTrue: "; in use", ifFalse: "; not in use") }
        if pullUpMissing { report.words("; no pull-up (kernel < 5.5): fit a resistor") }
    }

    /// Why there are no LEDs: no board configured, or the one GPIO error.
    func writeState(to line: inout TextBuffer) {
        if let problem {
            line.append("off: ")
            line.append(string: problem)
            line.append("; logging goes on without LEDs and button")
        } else {
            line.append("none ([board] file not set)")
        }
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
