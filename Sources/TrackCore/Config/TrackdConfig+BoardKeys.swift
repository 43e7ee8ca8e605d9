// The keys of [privacy], [board] and [leds]: what the owner allows, where the LEDs and the
// button are, and what the LEDs show.

let privacySection = ConfigSection("privacy", "What the owner of the device allows.", [
    ConfigKey("restricted", .choice(["no", "yes"]), default: "no", example: "yes",
              """
              `yes`: tracking is forbidden on this device (permission `restricted`): nothing is \
              logged, no fence is evaluated, and neither `trackctl privacy` nor the button can \
              change it; only this file can, read at start-up.
              """) { $0.privacy.restricted = $1.number == 1 },
])

let boardSection = ConfigSection("board", """
    LEDs and the button: a board's pin map, and any of its lines overridden. A line is a name \
    as `gpioinfo` shows it (`GPIO17`) or an offset on the chip (`17`).
    """, [
    ConfigKey("file", .path(maxBytes: 4095, optional: true), default: "", example: "/etc/trackd/board.conf",
              """
              Pin map of the board (GPIO chip and line names of the LEDs and the button), e.g. a \
              copy of the repository's `board/pi4.conf`. Empty: no LEDs and no button, unless \
              the keys below name lines.
              """) { $0.board.file = $1.text.isEmpty ? nil : $1.text },
    ConfigKey("simulated", .choice(["no", "yes"]), default: "no", example: "yes",
              """
              `yes`: a simulated board instead of GPIO (the demo): LEDs that `trackctl leds` \
              draws and a button `trackctl button short|long` presses. The pin map is not used.
              """) { $0.board.simulated = $1.number == 1 },
    ConfigKey("chip", .gpioChip, default: nil, example: "pinctrl-bcm2711",
              "GPIO chip by label or device path, instead of the board file's.") {
        $0.board.overrides.chip = $1.text
    },
] + BoardRole.allCases.map { role in
    ConfigKey(role.key, .gpioLine, default: nil, example: role == .inUse ? "25" : "GPIO17",
              String(joining: "Line of `", role.key, "`, instead of the board file's.")) { config, value in
        config.board.overrides[role] = try? BoardLine(parsing: value.text)
    }
} + [
    ConfigKey("in-use-active", .choice(["low", "high"]), default: "low", example: "high",
              "Level at which the `in-use` input means \"in use\" (low: a switch to ground, like the button).") {
        $0.board.inUseActiveHigh = $1.number == 1
    },
    ConfigKey("debounce", .duration(1...1_000), default: "30ms", example: "50ms",
              "How long the button or the in-use input must hold a level before it counts.") {
        $0.board.debounceMilliseconds = $1.number
    },
    ConfigKey("long-press", .duration(500...30_000), default: "3s", example: "2s",
              "How long the button is held to toggle private mode; a shorter press marks a waypoint.") {
        $0.board.longPressMilliseconds = $1.number
    },
])

let ledsSection = ConfigSection("leds", """
    The LED patterns: `solid`, `off`, or up to 8 steps of `on MS` / `off MS` (1 … 60000 ms \
    each), e.g. `on 100 off 900`. A slot keeps its priority and whether it repeats or plays once.
    """, LEDPatternName.allCases.map { name in
    let key = name.key.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    return ConfigKey(key, .ledPattern, default: LEDTable.defaultPattern(for: name).text,
                     example: "on 200 off 800", ledSummary(name)) { config, value in
        try? config.leds.override(name, with: value.text)
    }
})

/// What an `[leds]` slot shows, for docs/config.md.
private func ledSummary(_ name: LEDPatternName) -> String {
    switch name {
    case .fixSilent: "led-fix while the receiver sends nothing."
    case .fixNoFix: "led-fix while sentences arrive but no usable fix (1 Hz blink)."
    case .fix2D: "led-fix with a usable 2D fix (double flash)."
    case .fix3D: "led-fix with a usable 3D fix."
    case .fixPortError: "led-fix while the receiver's port has failed (5 Hz blink)."
    case .fixAsleep: "led-fix while the receiver sleeps (power save) because the tracker stands still."
    case .statusAlways: "led-status in permission `always`."
    case .statusInUse: "led-status in `when-in-use` while in use (input active or on a trip)."
    case .statusIdle: "led-status in `when-in-use` while idle."
    case .statusNotDetermined: "led-status before anyone allowed tracking."
    case .statusDenied: "led-status in private mode."
    case .statusRestricted: "led-status when `[privacy] restricted = yes`."
    case .storageError: "led-status while the log cannot be written; pre-empts everything."
    case .waypointSaved: "led-status once when a waypoint is saved; pre-empts the state."
    case .privacyToggled: "led-status once when a long press toggles private mode."
    case .fenceOutside: "led-fence outside every fence."
    case .fenceInside: "led-fence inside a fence."
    case .fenceCrossed: "led-fence once when a fence is entered or left."
    case .logIdle: "led-log between syncs."
    case .logSynced: "led-log once per sync of the track log to flash."
    }
}
