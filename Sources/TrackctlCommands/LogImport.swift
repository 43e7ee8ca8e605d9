import TrackCore
import TrackIO

/// `trackctl log import FILE.gpx|FILE.csv --to DIR`: an existing track written into a log
/// directory by the daemon's encoder and writer (chunks of 5 s of record time, keyframes every
/// 300 s, the default segment size), after any segments already there.
enum LogImport {
    static func run(_ arguments: [String]) -> Int32 {
        var file: String?
        var directory: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--to", index + 1 < arguments.count {
                directory = arguments[index + 1]
                index += 2
                continue
            }
            guard file == nil, !argument.hasPrefix("-") else { return LogCommand.fail(LogCommand.usage) }
            file = argument
            index += 1
        }
        guard let file, let directory else { return LogCommand.fail(LogCommand.usage) }
        var progress = ProgressLines()
        progress.show("log import: reading " + file, force: true)
        let records: [LogRecord]
        switch parse(file, progress: &progress) {
        case .success(let parsed): records = parsed
        case .failure(let message):
            progress.clear()
            try? FileDescriptor.standardError.writeAll("trackctl log import: " + message.text + "\n")
            return 1
        }
        do throws(LogStoreError) {
            let total = ProgressLines.grouped(records.count)
            let status = try write(records, to: directory, files: PosixLogFiles()) { written in
                // The first at once: the writing has begun.
                guard written == 1 || progress.isDue() else { return }
                progress.show("log import: " + ProgressLines.grouped(written) + " of " + total + " records into " + directory,
                              force: true)
            }
            progress.clear()
            if let error = status.lastError, status.droppedRecordCount > 0 || status.storageError {
                try? FileDescriptor.standardError.writeAll("trackctl log import: " + error.description + "\n")
                return 1
            }
            LogCommand.say("imported " + String(records.count) + " records from " + file + " into " + directory)
            return 0
        } catch {
            progress.clear()
            try? FileDescriptor.standardError.writeAll("trackctl log import: " + error.description + "\n")
            return 1
        }
    }

    /// A message for the user (a struct so it can be a `Result` failure in Embedded Swift).
    struct Message: Error {
        var text: String
    }

    /// The records of a CSV or GPX file; an error names the file and line. `progress` says
    /// when the reading is done and the parsing starts.
    static func parse(_ file: String, progress: inout ProgressLines) -> Result<[LogRecord], Message> {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readWholeFile(file)
        } catch {
            return .failure(Message(text: file + ": " + error.message))
        }
        progress.show("log import: parsing " + file + " (" + ProgressLines.megabytes(bytes.count) + ")", force: true)
        return records(bytes, file: file)
    }

    /// The records of a CSV or GPX file, without progress.
    static func parse(_ file: String) -> Result<[LogRecord], Message> {
        var progress = ProgressLines(shown: false)
        return parse(file, progress: &progress)
    }

    /// The records of `bytes`, the content of `file` (its suffix says CSV or GPX; errors name it).
    static func records(_ bytes: [UInt8], file: String) -> Result<[LogRecord], Message> {
        if file.hasSuffix(".csv") {
            do throws(TrackCSVError) {
                return .success(try TrackCSV.records(bytes))
            } catch {
                return .failure(Message(text: file + ":" + String(error.line) + ": " + error.reason))
            }
        }
        guard file.hasSuffix(".gpx") else { return .failure(Message(text: file + ": not a .gpx or .csv file")) }
        let track: GPXTrack
        do throws(GPXError) {
            track = try GPXTrack(parsing: bytes)
        } catch {
            return .failure(Message(text: file + ": " + error.description))
        }
        var records: [LogRecord] = []
        records.reserveCapacity(track.points.count)
        for point in track.points {
            guard let time = point.time else {
                return .failure(Message(text: file + ":" + String(point.line) + ": track point without <time>"))
            }
            let altitude = point.elevationMillimetres.map { Int32(($0 >= 0 ? $0 + 50 : $0 - 50) / 100) }
            records.append(.fix(LogFix(time: time, position: LogPosition(point.position),
                                       altitudeDecimetres: altitude, mode: altitude == nil ? .twoD : .threeD)))
        }
        return .success(records)
    }

    /// Writes `records` as the daemon would: a sync whenever 5 s of record time has passed.
    /// `written` hears how many records are appended so far, after each.
    static func write<Files: LogFileLayer>(_ records: [LogRecord], to directory: String, files: Files,
                                           written: (Int) -> Void = { _ in }) throws(LogStoreError) -> LogWriterStatus {
        let settings = LogWriterSettings(directory: directory)
        var clock = MonotonicTime(nanoseconds: 0)
        var writer = try LogWriter(settings: settings, files: files, now: clock)
        var chunkStart: Int64?
        var count = 0
        for record in records {
            let time = record.time.millisecondsSinceEpoch
            clock = .milliseconds(max(clock.nanoseconds / 1_000_000, time))
            if let start = chunkStart, time &- start >= settings.syncIntervalMilliseconds || time < start {
                writer.sync(now: clock)
                chunkStart = nil
            }
            if chunkStart == nil { chunkStart = time }
            writer.append(record, now: clock)
            count += 1
            written(count)
        }
        writer.close(now: clock)
        return writer.status
    }
}
