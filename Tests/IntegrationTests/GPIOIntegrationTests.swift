import Foundation
import Glibc
import TestData
import Testing

/// The real trackd with LEDs and a button: the simulated board, a board whose chip is missing
/// (this machine has no /dev/gpiochip*, so libgpiod answers ENOENT as a Pi with a wrong label
/// would), the restricted permission and a broken board file.
@Suite("trackd's LEDs, button and board, end to end", .serialized)
struct GPIOIntegrationTests {
    static let capture = DaemonIntegrationTests.capture

    static func gpio(_ json: [String: Any]) -> [String: Any] { json["gpio"] as? [String: Any] ?? [:] }

    @Test("the simulated board: LEDs over the control socket, short press marks, long press toggles private mode",
          .needsShared("gpsd-regress"))
    func simulatedBoard() throws {
        let bytes = try DaemonHarness.capture(Self.capture)
        let harness = try DaemonHarness(extraConfig: "\n[board]\nsimulated = yes\nlong-press = 1s\n")
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.feed(bytes)
        let fixed = try harness.waitForStatus { json in
            ((json["filter"] as? [String: Any])?["accepted"] as? Int ?? 0) > 10
        }
        #expect(fixed != nil)
        // A 3D fix and `always`: led-fix and led-status solid.
        let leds = try harness.trackctl(["leds"])
        #expect(leds.status == 0)
        #expect(leds.output.hasPrefix("● fix  ● status  ○ fence  ○ log"), "\(leds.output)")
        #expect(try harness.trackctl(["status"]).output.contains("gpio      simulated board: ● fix  ● status"))

        #expect(try harness.trackctl(["button", "short"]).status == 0)
        let marked = try harness.waitForStatus { json in
            json["waypoints"] as? Int == 1 && Self.gpio(json)["shortPresses"] as? Int == 1
        }
        #expect(marked != nil, "a short press records one waypoint")

        #expect(try harness.trackctl(["button", "long"]).status == 0)
        let denied = try harness.waitForStatus(seconds: 4) { json in
            (json["permission"] as? [String: Any])?["state"] as? String == "denied"
        }
        #expect(denied != nil, "a long press enters private mode")
        // The simulated finger lets go 300 ms after the long-press time; a press while it is
        // still down is ignored.
        usleep(500_000)
        #expect(try harness.trackctl(["button", "long"]).status == 0)
        // A reload while the button is held: the press goes on and still toggles.
        usleep(300_000)
        if let pid = harness.daemon?.processIdentifier { kill(pid, SIGHUP) }
        let back = try harness.waitForStatus(seconds: 4) { json in
            (json["permission"] as? [String: Any])?["state"] as? String == "always"
                && Self.gpio(json)["longPresses"] as? Int == 2 && json["reloads"] as? Int == 1
        }
        #expect(back != nil, "a second long press, held through a reload, returns to always")
        #expect(try harness.trackctl(["button", "sideways"]).status == 2)
        let doctor = try harness.trackctl(["doctor"])
        #expect(doctor.output.contains("ok gpio: simulated board"))
    }

    @Test("a missing GPIO chip is one clear error; trackd logs on and status and doctor say so",
          .needsShared("gpsd-regress"))
    func missingChip() throws {
        let bytes = try DaemonHarness.capture(Self.capture)
        let harness = try DaemonHarness()
        let board = harness.directory.appendingPathComponent("board.conf")
        try "[gpio]\nchip = pinctrl-trackd-missing\nled-fix = GPIO17\nbutton = GPIO24\n"
            .write(to: board, atomically: true, encoding: .utf8)
        try harness.writeConfig(device: harness.slavePath, extra: "\n[board]\nfile = \(board.path)\n")
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.feed(bytes)
        let json = try #require(try harness.waitForStatus { json in
            ((json["filter"] as? [String: Any])?["accepted"] as? Int ?? 0) > 10
        }, "trackd must go on logging without GPIO")
        #expect((json["sampling"] as? [String: Any])?["recorded"] as? Int ?? 0 > 0)
        let gpio = Self.gpio(json)
        #expect(gpio["active"] as? Bool == false)
        #expect(gpio["problem"] as? String
            == "GPIO chip pinctrl-trackd-missing: no such chip (ENOENT: is this a board with GPIO, and the label right?)")
        let status = try harness.trackctl(["status"])
        #expect(status.output.contains("gpio      off: GPIO chip pinctrl-trackd-missing: no such chip"))
        let doctor = try harness.trackctl(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.output.hasPrefix("error gpio: GPIO chip pinctrl-trackd-missing: no such chip"))
        #expect(try harness.trackctl(["leds"]).status == 1)
        #expect(try harness.trackctl(["button", "short"]).status == 1)
        harness.stop()
        let log = harness.daemonOutput
        #expect(log.components(separatedBy: "GPIO chip pinctrl-trackd-missing").count == 2, "one message: \(log)")
    }

    @Test("restricted: privacy commands and the long press are refused and the state stays")
    func restricted() throws {
        let harness = try DaemonHarness(extraConfig: "\n[privacy]\nrestricted = yes\n[board]\nsimulated = yes\nlong-press = 1s\n")
        try harness.start()
        let allow = try harness.trackctl(["privacy", "allow", "always"])
        #expect(allow.status == 1)
        #expect(allow.output.contains("error privacy: restricted by the configuration ([privacy] restricted = yes)"))
        #expect(try harness.trackctl(["privacy"]).output.hasPrefix("restricted, precise (nothing is logged)"))
        #expect(try harness.trackctl(["button", "long"]).status == 0)
        let refused = try harness.waitForStatus(seconds: 4) { json in Self.gpio(json)["longPresses"] as? Int == 1 }
        #expect(refused != nil)
        #expect(try harness.trackctl(["status"]).output.contains("(last long press refused: restricted by the configuration"))
        #expect(try harness.trackctl(["privacy"]).output.hasPrefix("restricted"))
    }

    @Test("a broken board file stops trackd at start with file, line and key")
    func brokenBoardFile() throws {
        let harness = try DaemonHarness()
        let board = harness.directory.appendingPathComponent("board.conf")
        try "[gpio]\nchip = pinctrl-bcm2711\n\nled-fix = GPIO 17\n".write(to: board, atomically: true, encoding: .utf8)
        try harness.writeConfig(device: harness.slavePath, extra: "\n[board]\nfile = \(board.path)\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackd"))
        process.arguments = ["--config", harness.configPath, "--check"]
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(output.contains("\(board.path):4: gpio.led-fix: \"GPIO 17\" is not a line name"), "\(output)")
    }
}

/// The odometer on a moving receiver: it grows, it is in the state file after SIGTERM, and a
/// restart starts from it.
@Suite("trackd's odometer, end to end", .serialized)
struct OdometerIntegrationTests {
    /// The demo route as a receiver would send it, ten times faster, as fast as it is made.
    static func route() throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackctl"))
        process.arguments = ["simulate", DaemonHarness.root.appendingPathComponent("board/demo-route.gpx").path,
                             "--stdout", "--speed", "10", "--seed", "7"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    static func odometer(_ json: [String: Any]?) -> Double { json?["odometer"] as? Double ?? 0 }

    @Test("grows along the route, is saved at exit and restored at start")
    func persists() throws {
        let bytes = try Self.route()
        #expect(bytes.count > 10_000)
        let harness = try DaemonHarness()
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.feed(bytes)
        let moved = try harness.waitForStatus(seconds: 10) { json in
            (json["sampling"] as? [String: Any])?["recorded"] as? Int ?? 0 > 5 && Self.odometer(json) > 100
        }
        #expect(moved != nil, "the odometer did not grow along the route")
        // Let the last fixes arrive, then read the total.
        usleep(500_000)
        let before = Self.odometer(try harness.waitForStatus { _ in true })
        #expect(try harness.trackctl(["status"]).output.contains("odometer  "))
        harness.stop()
        try harness.start()
        let after = Self.odometer(try harness.waitForStatus { _ in true })
        #expect(after == before, "restarted at \(after) m, had \(before) m")
        #expect(after > 100)
    }
}
