import TrackCore
import TrackIO

/// `trackctl leds [--watch]` and `trackctl button short|long`: the simulated board seen and
/// pressed from a terminal. These run on a person's command, so plain Strings are fine here.
extension ClientCommands {
    static let ledsUsage = "usage: trackctl leds [--watch] [--socket PATH]\n"

    /// `trackctl button short|long`: presses the simulated board's button.
    static func button(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        guard arguments == ["short"] || arguments == ["long"] else {
            return usage("usage: trackctl button short|long [--socket PATH]\n")
        }
        return run("button " + arguments[0], path: path)
    }

    /// `trackctl leds`: the LEDs once; `--watch`: redrawn 20 times a second with the status
    /// below, `b` presses the simulated button briefly, `l` holds it (long press), `q` quits.
    static func leds(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        guard arguments.isEmpty || arguments == ["--watch"] else { return usage(ledsUsage) }
        guard arguments == ["--watch"] else { return run("leds", path: path) }
        var view: LiveView
        do { view = try LiveView(separated: true) } catch {
            try? FileDescriptor.standardError.writeAll("trackctl: signals: \(error.message)\n")
            return 1
        }
        var frame = 0
        var status = ""
        var message = ""
        while true {
            // The status changes slowly; the LEDs are sampled every 50 ms, shorter than any flash.
            if frame % 20 == 0 { status = (try? ControlClient.request("status", path: path)).map(body) ?? "" }
            frame += 1
            let leds: String
            do {
                leds = body(of: try ControlClient.request("leds", path: path))
            } catch {
                leds = "trackctl: \(error.description)\n"
            }
            let keys = "keys: b = short press (waypoint), l = long press (private mode), q = quit\n"
            guard view.show("LEDs      " + leds + keys + message + "\n" + status) else { return 0 }
            switch view.wait(milliseconds: 50) {
            case .stop: return 0
            case .timeout, .resize: continue
            case .key(let key):
                switch key {
                case UInt8(ascii: "q"): return 0
                case UInt8(ascii: "b"), UInt8(ascii: " "): message = press("short", path: path)
                case UInt8(ascii: "l"): message = press("long", path: path)
                default: continue
                }
            }
        }
    }

    /// Sends `button KIND`; the reply's line for the view, e.g. `button pressed (short)`.
    static func press(_ kind: String, path: String) -> String {
        do {
            let reply = try ControlClient.request("button " + kind, path: path)
            var text = body(of: reply)
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        } catch {
            return "trackctl: \(error.description)"
        }
    }
}
