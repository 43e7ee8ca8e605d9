import TrackCore
import TrackIO

/// `trackctl log prune --through CURSOR [--log DIR | --config FILE]`: deletes the closed
/// segments wholly at or before CURSOR (what `trackctl pull` verified and recorded), oldest
/// first, for `trackctl pull --prune`. Never the newest segment (the one trackd writes), never
/// a byte after the cursor, and nothing at all when the cursor does not fit this log (it was
/// reset or rewritten since that pull): a stale cursor must not delete what nobody pulled.
///
/// Exit 0 when done (also when there was nothing to delete); 1 when the log cannot be read or
/// a segment cannot be deleted; 2 for bad arguments; 3 when the cursor does not fit the log.
enum LogPrune {
    static let usage: StaticString = """
        usage: trackctl log prune --through CURSOR [--log DIR | --config FILE]

        Deletes the closed segments wholly at or before CURSOR (pull.cursor of a verified copy),
        never the segment trackd is writing. Refuses, deleting nothing, when CURSOR does not fit
        this log.

        """

    /// What a prune deleted, e.g. 3 segments of 12,288 bytes; `kept` is the oldest left.
    struct Pruned: Equatable {
        var segments: [UInt64] = []
        var byteCount = 0
        var kept: UInt64?

        /// E.g. "pruned 3 segments (12288 bytes) through 5:4096:80:9f3a11c2; oldest kept 0000000006.tlog".
        func line(_ cursor: LogCursor) -> String {
            "pruned " + String(segments.count) + " segments (" + String(byteCount) + " bytes) through " + cursor.text
                + "; oldest kept " + (kept.map { LogSegmentName.name($0) } ?? "none")
        }
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            try? FileDescriptor.standardOutput.writeAll(usage)
            return 0
        }
        var rest = arguments
        guard let directory = LogCommand.directory(&rest) else { return 1 }
        guard rest.count == 2, rest[0] == "--through" else {
            return refuse(rest.isEmpty ? "--through CURSOR is required" : "unknown arguments '" + rest.joined(separator: " ") + "'", status: 2)
        }
        guard let cursor = LogCursor(text: rest[1]) else {
            return refuse("--through: '" + rest[1] + "' is not a cursor (SEGMENT:OFFSET:SEQUENCE:CRC)", status: 2)
        }
        return run(directory: directory, through: cursor)
    }

    /// Prunes `directory` through `cursor`, saying what it did on standard output.
    static func run(directory: String, through cursor: LogCursor) -> Int32 {
        var files = PosixLogFiles()
        do throws(LogPruneError) {
            let pruned = try prune(&files, directory: directory, through: cursor)
            try? FileDescriptor.standardOutput.writeAll(pruned.line(cursor) + "\n")
            return 0
        } catch {
            return refuse(error.description, status: error.isMismatch ? LogSend.cursorMismatch : 1)
        }
    }

    /// Deletes the closed segments of `directory` wholly at or before `cursor`.
    static func prune<Files: LogFileLayer>(
        _ files: inout Files, directory: String, through cursor: LogCursor
    ) throws(LogPruneError) -> Pruned {
        var reader: LogReader<Files>
        do throws(LogStoreError) {
            reader = try LogReader(directory: directory, files: files)
        } catch {
            throw .log(error)
        }
        let numbers = reader.segmentNumbers
        var pruned = Pruned(kept: numbers.first)
        guard !cursor.isStart, let newest = numbers.last else { return pruned }
        guard newest >= cursor.segment else { throw .mismatch(.reset(newest: newest, cursor: cursor)) }
        var lastWhole = cursor.segment - 1
        if numbers.contains(cursor.segment) {
            reader.skipSegments(before: cursor.segment)
            guard let scan = reader.nextSegmentScan(), LogSend.fits(cursor, scan) else {
                throw .mismatch(.rewritten(cursor: cursor))
            }
            if scan.bytes.count == cursor.offset { lastWhole = cursor.segment }
        } else if let oldest = numbers.first, oldest < cursor.segment {
            // Older segments without the cursor's own: not the log that pull read.
            throw .mismatch(.rewritten(cursor: cursor))
        }
        for number in numbers where number <= lastWhole && number != newest {
            let path = LogSegmentName.path(directory, LogSegmentName.name(number))
            do throws(Errno) {
                let size = try files.byteCount(of: path)
                try files.remove(path)
                pruned.byteCount += size
                pruned.segments.append(number)
            } catch {
                throw .remove(path: path, error)
            }
        }
        pruned.kept = numbers.first { !pruned.segments.contains($0) }
        if !pruned.segments.isEmpty {
            do throws(Errno) { try files.syncDirectory(directory) } catch { throw .remove(path: directory, error) }
        }
        return pruned
    }

    static func refuse(_ text: String, status: Int32) -> Int32 {
        try? FileDescriptor.standardError.writeAll("trackctl log prune: " + text + "\n")
        if status == 2 { try? FileDescriptor.standardError.writeAll(usage) }
        return status
    }
}

/// Why `trackctl log prune` deleted nothing (or stopped): the log cannot be read, the cursor
/// does not fit it, or a segment could not be deleted.
enum LogPruneError: Error, Equatable {
    case log(LogStoreError)
    case mismatch(LogSendError)
    case remove(path: String, Errno)

    /// True when the cursor does not fit (exit 3).
    var isMismatch: Bool {
        if case .mismatch = self { return true }
        return false
    }

    /// One line, e.g. "0000000004.tlog: Permission denied".
    var description: String {
        switch self {
        case .log(let error): return error.description
        case .mismatch(let error): return error.description + "; nothing deleted"
        case .remove(let path, let error): return path + ": " + error.message
        }
    }
}
