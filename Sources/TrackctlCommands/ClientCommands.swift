import TrackCore
import TrackIO

/// `trackctl status|where|mark|doctor`: the client side of the control socket. These run on
/// a person's command, so plain Strings are fine here.
enum ClientCommands {
    static let defaultSocket = "/run/trackd/control.sock"

    /// Pulls `--socket PATH` out of `arguments` (default: the daemon's default path).
    static func socketPath(_ arguments: inout [String]) -> String {
        guard let index = arguments.firstIndex(of: "--socket"), index + 1 < arguments.count else {
            return environment("TRACKD_SOCKET") ?? defaultSocket
        }
        let path = arguments[index + 1]
        arguments.removeSubrange(index...(index + 1))
        return path
    }

    static func status(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        let json = arguments.contains("--json")
        let watch = arguments.contains("--watch")
        for argument in arguments where argument != "--json" && argument != "--watch" {
            return usage("trackctl status: unknown option '\(argument)'\nusage: trackctl status [--watch] [--json] [--socket PATH]\n")
        }
        let request = json ? "status json" : "status"
        guard watch else { return run(request, path: path) }
        var view: LiveView
        do { view = try LiveView(separated: !json) } catch {
            try? FileDescriptor.standardError.writeAll("trackctl: signals: \(error.message)\n")
            return 1
        }
        while true {
            let frame: String
            do {
                frame = body(of: try ControlClient.request(request, path: path))
            } catch {
                frame = "trackctl: \(error.description)\n"
            }
            guard view.show(frame) else { return 0 }
            switch view.wait(milliseconds: 1000) {
            case .stop, .key(UInt8(ascii: "q")): return 0
            case .timeout, .resize, .key: continue
            }
        }
    }

    static func `where`(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        let plain = arguments == ["--plain"]
        guard arguments.isEmpty || plain else {
            return usage("usage: trackctl where [--plain] [--socket PATH]\n")
        }
        return run(plain ? "where plain" : "where", path: path)
    }

    static func mark(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        let label = arguments.joined(separator: " ")
        guard label.utf8.count <= 64, !label.utf8.contains(UInt8(ascii: "\n")) else {
            return usage("trackctl mark: a label is one line of at most 64 bytes\n")
        }
        return run(label.isEmpty ? "mark" : "mark " + label, path: path)
    }

    /// `trackctl privacy [allow always|allow when-in-use|deny|approximate|precise [--for D]]`.
    static func privacy(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        return run(arguments.isEmpty ? "privacy" : "privacy " + arguments.joined(separator: " "), path: path)
    }

    /// `trackctl fence list`: every fence's state and since when, from the running trackd.
    static func fenceList(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        guard arguments.isEmpty else { return usage("usage: trackctl fence list [--socket PATH]\n") }
        return run("fence list", path: path)
    }

    static func doctor(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let path = socketPath(&arguments)
        do {
            let reply = try ControlClient.request("doctor", path: path)
            try? FileDescriptor.standardOutput.writeAll(body(of: reply))
            // 0 only when every link works: `wait` (just started) is not all well yet either.
            return hasErrorLine(reply) || reply.split(separator: "\n").contains { $0.hasPrefix("wait ") } ? 1 : 0
        } catch {
            // The first link is the daemon itself.
            try? FileDescriptor.standardOutput.writeAll("error daemon: \(error.description)\n")
            try? FileDescriptor.standardOutput.writeAll(
                "start it with `systemctl start trackd` and see `journalctl -u trackd` for why it stopped\n")
            return 1
        }
    }

    /// Sends `request`, prints the reply's body; exit 0 on `ok`, 1 on `error`.
    static func run(_ request: String, path: String) -> Int32 {
        do {
            let reply = try ControlClient.request(request, path: path)
            if reply.hasPrefix("ok") {
                try? FileDescriptor.standardOutput.writeAll(body(of: reply))
                return 0
            }
            try? FileDescriptor.standardError.writeAll("trackctl: " + reply)
            return 1
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl: \(error.description)\n")
            return 1
        }
    }

    /// True when a line of `reply` starts with `error` (doctor's broken link).
    static func hasErrorLine(_ reply: String) -> Bool {
        var atLineStart = true
        var matched = 0
        let word: [UInt8] = Array("error".utf8)
        for byte in reply.utf8 {
            if atLineStart || matched > 0 {
                if byte == word[matched] {
                    matched += 1
                    atLineStart = false
                    if matched == word.count { return true }
                    continue
                }
                matched = 0
            }
            atLineStart = byte == UInt8(ascii: "\n")
        }
        return false
    }

    /// The reply without its `ok` line.
    static func body(of reply: String) -> String {
        guard reply.hasPrefix("ok\n") else { return reply }
        return String(reply.dropFirst(3))
    }

    static func usage(_ text: String) -> Int32 {
        try? FileDescriptor.standardError.writeAll(text)
        return 2
    }
}
