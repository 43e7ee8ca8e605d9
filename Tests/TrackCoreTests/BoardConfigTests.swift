import Testing
import TrackCore

/// trackd.conf's [privacy], [board] and [leds] keys.
@Suite("Config: privacy, board and LED keys")
struct BoardConfigTests {
    /// One case per key of [privacy], [board] and [leds], for ConfigTests' `everyKey`.
    static let everyKey: [ConfigCase] = [
        ConfigCase("[privacy]\nrestricted = yes") { $0.privacy.restricted = true },
        ConfigCase("[privacy]\nrestricted = no") { $0.privacy.restricted = false },
        ConfigCase("[board]\nsimulated = yes") { $0.board.simulated = true },
        ConfigCase("[board]\nchip = /dev/gpiochip4") { $0.board.overrides.chip = "/dev/gpiochip4" },
        ConfigCase("[board]\nin-use-active = high") { $0.board.inUseActiveHigh = true },
        ConfigCase("[board]\ndebounce = 10ms") { $0.board.debounceMilliseconds = 10 },
        ConfigCase("[board]\nlong-press = 5s") { $0.board.longPressMilliseconds = 5_000 },
    ] + BoardRole.allCases.map { role in
        ConfigCase("[board]\n\(role.key) = 7") { $0.board.overrides[role] = .offset(7) }
    } + LEDPatternName.allCases.map { name in
        let key = name.key.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        return ConfigCase("[leds]\n\(key) = on 30 off 70") { config in
            config.leds[name] = LEDPattern(steps: [LEDStep(on: true, milliseconds: 30), LEDStep(on: false, milliseconds: 70)]) ?? .off
        }
    }

    @Test("defaults: not restricted, no board, DESIGN's LED table, 30 ms debounce, 3 s long press")
    func defaults() throws {
        let config = try TrackdConfig.parse("", file: "trackd.conf")
        #expect(!config.privacy.restricted)
        #expect(config.board.file == nil)
        #expect(config.board.overrides.isEmpty)
        #expect(!config.board.simulated)
        #expect(config.board.debounceMilliseconds == 30)
        #expect(config.board.longPressMilliseconds == 3_000)
        #expect(!config.board.inUseActiveHigh)
        #expect(config.leds == LEDTable())
        #expect(!config.receiver.deviceIsSet)
    }

    @Test("every key set")
    func everyKey() throws {
        let text = """
            [receiver]
            device = /dev/ttyACM0
            [privacy]
            restricted = yes
            [board]
            file = /etc/trackd/board.conf
            simulated = yes
            chip = pinctrl-rp1
            led-fix = 5
            in-use = GPIO26
            in-use-active = high
            debounce = 50ms
            long-press = 2s
            [leds]
            fix-2d = on 50 off 950
            status-waypoint = off 100 on 400 off 100
            """
        let config = try TrackdConfig.parse(text, file: "trackd.conf")
        #expect(config.receiver.deviceIsSet)
        #expect(config.privacy.restricted)
        #expect(config.board.file == "/etc/trackd/board.conf")
        #expect(config.board.simulated)
        #expect(config.board.overrides.chip == "pinctrl-rp1")
        #expect(config.board.overrides[.ledFix] == .offset(5))
        #expect(config.board.overrides[.inUse] == .name("GPIO26"))
        #expect(config.board.overrides[.button] == nil)
        #expect(config.board.inUseActiveHigh)
        #expect(config.board.debounceMilliseconds == 50)
        #expect(config.board.longPressMilliseconds == 2_000)
        #expect(config.leds[.fix2D].steps == [LEDStep(on: true, milliseconds: 50), LEDStep(on: false, milliseconds: 950)])
        // An override keeps its slot's role: the waypoint flash still plays once, above the state.
        #expect(config.leds[.waypointSaved].mode == .once)
        #expect(config.leds[.waypointSaved].priority == 2)
        #expect(config.leds[.fix3D] == LEDTable()[.fix3D])
    }

    @Test("bad values name file, line, key and the pattern's column", arguments: [
        ("[leds]\nfix-2d = on 100 of 100",
         #"trackd.conf:2: leds.fix-2d: "on 100 of 100": column 8: "of" is not on, off, solid or a number of milliseconds"#),
        ("[leds]\n\nlog-synced = on 0",
         #"trackd.conf:3: leds.log-synced: "on 0": column 4: "0" is outside 1 … 60000 ms"#),
        ("[leds]\nfix-blue = solid",
         "trackd.conf:2: leds.fix-blue: unknown key (this section has: fix-silent, fix-no-fix, fix-2d, fix-3d, "
            + "fix-port-error, fix-asleep, status-always, status-in-use, status-idle, status-not-determined, status-denied, "
            + "status-restricted, status-storage-error, status-waypoint, status-privacy, fence-outside, fence-inside, "
            + "fence-crossed, log-idle, log-synced)"),
        ("[privacy]\nrestricted = true", #"trackd.conf:2: privacy.restricted: "true" is not one of no, yes"#),
        ("[board]\nbutton = GPIO 24",
         #"trackd.conf:2: board.button: "GPIO 24" is not a line name such as GPIO17 (1 to 31 printable bytes, no spaces) or an offset"#),
        ("[board]\ndebounce = 0", #"trackd.conf:2: board.debounce: "0" is outside 1ms … 1s"#),
        ("[board]\nin-use-active = up", #"trackd.conf:2: board.in-use-active: "up" is not one of low, high"#),
    ])
    func errors(text: String, message: String) {
        do {
            _ = try TrackdConfig.parse(text, file: "trackd.conf")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("every default pattern prints in the config syntax and parses back to itself")
    func patternTextRoundTrip() throws {
        for name in LEDPatternName.allCases {
            let pattern = LEDTable.defaultPattern(for: name)
            var table = LEDTable()
            try table.override(name, with: pattern.text)
            #expect(table[name] == pattern, "\(pattern.text)")
        }
        #expect(LEDTable.defaultPattern(for: .fix2D).text == "on 100 off 100 on 100 off 700")
        #expect(LEDTable.defaultPattern(for: .fix3D).text == "solid")
        #expect(LEDTable.defaultPattern(for: .logSynced).text == "on 50")
    }
}
