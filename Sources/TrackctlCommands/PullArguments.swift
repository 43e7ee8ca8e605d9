/// The arguments of `trackctl pull`, e.g. `["tracker-1", "pi@tracker-2", "--to", "logs",
/// "--jobs", "8"]` → two hosts, copies under "logs/", eight at once.
struct PullArguments: Equatable {
    /// The hosts as ssh takes them ("tracker-1", "pi@10.0.0.7", a `Host` of ~/.ssh/config).
    var hosts: [String] = []
    /// Where the copies go: one directory per host under it (default "trackd-logs").
    var directory = "trackd-logs"
    /// Hosts pulled at once, 1…16 (default 4).
    var jobs = 4
    /// `ssh -F FILE`, when given.
    var sshConfig: String?
    /// `ssh -o OPTION` for each, in order.
    var sshOptions: [String] = []
    /// The ssh program (default "ssh", looked up in PATH).
    var ssh = "ssh"
    /// trackctl on the trackers (default "trackctl", found in the remote PATH).
    var remoteTrackctl = "trackctl"
    /// `--log DIR` for the trackers' `log send`, when given.
    var remoteLog: String?

    /// Why the arguments were refused.
    enum Refusal: Error, Equatable {
        case missingValue(String)
        case badJobs(String)
        case unknownOption(String)
        case noHosts
        case badHost(String)

        var description: String {
            switch self {
            case .missingValue(let option): return option + " needs a value"
            case .badJobs(let value): return "--jobs: '" + value + "' is not a number from 1 to 16"
            case .unknownOption(let option): return "unknown option '" + option + "'"
            case .noHosts: return "no hosts given"
            case .badHost(let host): return "'" + host + "' is not a host name (no '/', no leading '-' or '.')"
            }
        }
    }

    init(_ arguments: [String]) throws(Refusal) {
        var index = 0
        func value(_ option: String) throws(Refusal) -> String {
            guard index + 1 < arguments.count else { throw .missingValue(option) }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--to": directory = try value(argument)
            case "--jobs":
                let text = try value(argument)
                guard let jobs = Int(text), jobs >= 1, jobs <= 16 else { throw .badJobs(text) }
                self.jobs = jobs
            case "--ssh-config": sshConfig = try value(argument)
            case "--ssh-option", "-o": sshOptions.append(try value(argument))
            case "--ssh": ssh = try value(argument)
            case "--remote-trackctl": remoteTrackctl = try value(argument)
            case "--remote-log": remoteLog = try value(argument)
            default:
                if argument.utf8.first == UInt8(ascii: "-") { throw .unknownOption(argument) }
                // The host names a directory here: nothing that could leave DIR.
                guard !argument.utf8.contains(UInt8(ascii: "/")), argument.utf8.first != UInt8(ascii: ".") else {
                    throw .badHost(argument)
                }
                hosts.append(argument)
            }
            index += 1
        }
        guard !hosts.isEmpty else { throw .noHosts }
    }

    /// The ssh command line that runs `log send` on `host` after `cursor` (the cursor's text is
    /// digits, hex, ':' and '-': nothing the remote shell interprets).
    func command(_ host: String, after cursor: String) -> [String] {
        var argv = [ssh, "-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o", "ServerAliveInterval=15",
                    "-o", "ServerAliveCountMax=2"]
        if let sshConfig { argv += ["-F", sshConfig] }
        for option in sshOptions { argv += ["-o", option] }
        argv += ["--", host, remoteTrackctl, "log", "send", "--after", cursor]
        if let remoteLog { argv += ["--log", remoteLog] }
        return argv
    }
}
