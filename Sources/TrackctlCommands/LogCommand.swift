import TrackCore
import TrackIO

/// `trackctl log list|verify|import|export|send`: the track log directory from the command line.
///
///     trackctl log list [--log DIR]        one line per segment: name, first/last time, records, bytes, status
///     trackctl log verify [--log DIR]      every chunk's CRC and the sequence; exit 1 naming segment + offset
///     trackctl log import FILE.gpx|FILE.csv --to DIR
///     trackctl log send [--after CURSOR] [--log DIR]   the chunks after CURSOR, framed, for `trackctl pull`
///     trackctl log prune --through CURSOR [--log DIR]  deletes closed segments a pull verified
///     trackctl log export --format gpx|geojson|kml|csv [--log DIR] [--since T] [--until T] [--simplify M] [--datum D]
enum LogCommand {
    static let usage: StaticString = """
        usage: trackctl log list [--log DIR | --config FILE]
               trackctl log verify [--log DIR | --config FILE]
               trackctl log import FILE.gpx|FILE.csv --to DIR
               trackctl log send [--after CURSOR] [--log DIR | --config FILE] [--from-ssh-command [--allow-prune]]
               trackctl log prune --through CURSOR [--log DIR | --config FILE]
               trackctl log export [--format gpx|geojson|kml|csv] [--log DIR | --config FILE]
                                   [--since TIME] [--until TIME] [--simplify METRES] [--datum gcj02|bd09]
                                   [--trip N] [--places FILE] [--fences FILE]
               trackctl log trips [--log DIR | --config FILE] [--json]   (trackctl log trips --help)
               trackctl log plot [--trip N] [--log DIR | --config FILE] > trip.svg

        DIR defaults to the `directory` of [log] in FILE (default /etc/trackd/trackd.conf),
        /var/lib/trackd/log when that file does not exist.

        """

    /// The daemon's default log directory.
    static var defaultDirectory: String { "/var/lib/trackd/log" }

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else { return fail(usage) }
        var rest = Array(arguments.dropFirst())
        switch command {
        case "list", "verify":
            guard let directory = directory(&rest), rest.isEmpty else { return rest.isEmpty ? 1 : fail(usage) }
            return command == "list" ? list(directory) : verify(directory)
        case "import":
            return LogImport.run(rest)
        case "send":
            return LogSend.run(rest)
        case "prune":
            return LogPrune.run(rest)
        case "export":
            guard let directory = directory(&rest) else { return 1 }
            // A `--log` left without its value is export's to refuse.
            return LogExport.run(rest.contains("--log") ? rest : rest + ["--log", directory])
        case "trips", "plot":
            guard let directory = directory(&rest) else { return 1 }
            let given = rest.contains("--log") ? rest : rest + ["--log", directory]
            return command == "trips" ? LogTrips.run(given) : LogPlot.run(given)
        case "-h", "--help", "help":
            try? FileDescriptor.standardOutput.writeAll(usage)
            return 0
        default:
            return fail(usage)
        }
    }

    /// The log directory the arguments name: `--log DIR`, else the `[log] directory` of
    /// `--config FILE` (or of the default configuration, when it exists), else the default.
    /// Both options are taken out of `arguments`. Nil (the error said) when a configuration
    /// that was named or exists cannot be read.
    static func directory(_ arguments: inout [String]) -> String? {
        var log: String?
        var config: String?
        var index = 0
        while index < arguments.count {
            let option = arguments[index]
            guard option == "--log" || option == "--config", index + 1 < arguments.count else {
                index += 1
                continue
            }
            if option == "--log" { log = arguments[index + 1] } else { config = arguments[index + 1] }
            arguments.removeSubrange(index...(index + 1))
        }
        if let log { return log }
        switch ConfigFiles.load(config ?? ConfigFiles.defaultPath, explicit: config != nil) {
        case .success(let loaded): return loaded.log.directory
        case .failure(let error):
            try? FileDescriptor.standardError.writeAll("trackctl log: " + error.description + "\n")
            return nil
        }
    }

    static func fail(_ text: StaticString) -> Int32 {
        try? FileDescriptor.standardError.writeAll(text)
        return 2
    }

    static func say(_ line: String) {
        try? FileDescriptor.standardOutput.writeAll(line + "\n")
    }

    static func open(_ directory: String) -> LogReader<PosixLogFiles>? {
        do {
            return try LogReader(directory: directory)
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl log: " + error.description + "\n")
            return nil
        }
    }

    static func list(_ directory: String) -> Int32 {
        guard var reader = open(directory) else { return 1 }
        let segments = reader.readToEnd()
        say("segment          first                     last                       records      bytes  status")
        var records = 0
        var bytes = 0
        for segment in segments {
            records += segment.recordCount
            bytes += segment.byteCount
            say(segment.name + "  " + pad(time(segment.firstTime), 24) + "  " + pad(time(segment.lastTime), 24)
                + "  " + pad(String(segment.recordCount), 8, right: true)
                + "  " + pad(String(segment.byteCount), 9, right: true) + "  " + segment.status
                + systemClockNote(segment.systemClockRecords))
        }
        say(String(segments.count) + " segments, " + String(records) + " records, " + String(bytes) + " bytes")
        return 0
    }

    static func verify(_ directory: String) -> Int32 {
        guard var reader = open(directory) else { return 1 }
        let segments = reader.readToEnd()
        var chunks = 0
        var records = 0
        for segment in segments {
            chunks += segment.chunkCount
            records += segment.recordCount
        }
        for problem in reader.problems { say(problem.description) }
        let damaged = reader.problems.filter { $0.losesRecords }
        let skipped = damaged.reduce(0) { $0 + $1.skippedByteCount }
        say("verify: " + String(segments.count) + " segments, " + String(chunks) + " chunks, "
            + String(records) + " records; " + String(damaged.count) + " problems, "
            + String(skipped) + " bytes skipped")
        return damaged.isEmpty ? 0 : 1
    }

    /// `, 2 records on the system clock` for a segment with boot markers (or records before a
    /// boot's first fix), whose times are the system's, not the receiver's; "" for none.
    static func systemClockNote(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return ", " + String(count) + (count == 1 ? " record" : " records") + " on the system clock"
    }

    /// "2025-06-21T12:01:29.000Z" style text of `time`, "-" when absent.
    static func time(_ time: UTCTime?) -> String {
        guard let time else { return "-" }
        var text = TextBuffer()
        time.write(to: &text)
        return text.string
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.utf8.count
        guard count < width else { return text }
        var spaces = ""
        for _ in count..<width { spaces += " " }
        return right ? spaces + text : text + spaces
    }
}
