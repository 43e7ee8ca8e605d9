import TrackCore

/// Reads a track log directory: every segment in name order, every record in the order it was
/// written, optionally only those with `since ≤ time < until`. Damage never stops it: what it
/// skipped is in `problems`, what it found per segment in `segments`.
///
/// Example:
///
///     var reader = try LogReader(directory: "/var/lib/trackd/log")   // throws(LogStoreError)
///     while let record = reader.next() { … }                          // LogRecord values
///     for problem in reader.problems { print(problem.description) }   // "0000000003.tlog offset …"
///     for segment in reader.segments { … }  // complete once next() returned nil
public struct LogReader<Files: LogFileLayer> {
    /// The directory, e.g. "/var/lib/trackd/log".
    public let directory: String
    /// The file layer.
    public var files: Files
    /// Only records at or after this time (nil: from the start).
    public let since: UTCTime?
    /// Only records before this time (nil: to the end).
    public let until: UTCTime?
    /// The segment numbers found when the reader was made, oldest first, e.g. [1, 2, 3].
    public let segmentNumbers: [UInt64]
    /// Segments read so far, oldest first (all of them once `next()` returned nil).
    public internal(set) var segments: [LogSegmentInfo] = []
    /// What was skipped or noticed so far, in reading order.
    public internal(set) var problems: [LogProblem] = []
    var index = 0
    var cursor: LogSegmentCursor?
    var lastSequence: UInt32?

    /// A reader of `directory` through `files`. Throws `.directoryUnreadable` when the directory
    /// cannot be listed (an empty directory is a log with no records).
    public init(directory: String, files: Files, since: UTCTime? = nil, until: UTCTime? = nil) throws(LogStoreError) {
        self.directory = directory
        self.files = files
        self.since = since
        self.until = until
        segmentNumbers = try LogReader.segmentNumbers(in: directory, files: &self.files)
    }

    /// The numbers of the segment files in `directory`, sorted; other files are ignored.
    public static func segmentNumbers(in directory: String, files: inout Files) throws(LogStoreError) -> [UInt64] {
        let names: [String]
        do {
            names = try files.names(in: directory)
        } catch {
            throw .directoryUnreadable(path: directory, error)
        }
        var numbers: [UInt64] = []
        for name in names {
            if let number = LogSegmentName.number(name) { numbers.append(number) }
        }
        numbers.sort()
        return numbers
    }

    /// The next record in writing order that lies in `since..<until`, or nil after the last.
    public mutating func next() -> LogRecord? {
        while true {
            if var current = cursor {
                cursor = nil
                let record = current.next(lastSequence: &lastSequence)
                guard let record else {
                    finish(current)
                    continue
                }
                cursor = current
                if let since, record.time < since { continue }
                if let until, record.time >= until { continue }
                return record
            }
            guard index < segmentNumbers.count else { return nil }
            let number = segmentNumbers[index]
            index += 1
            let name = LogSegmentName.name(number)
            do throws(Errno) {
                let bytes = try files.readAll(LogSegmentName.path(directory, name))
                cursor = LogSegmentCursor(bytes: bytes, name: name, number: number)
            } catch {
                var info = LogSegmentInfo(name: name, number: number)
                info.problemCount = 1
                segments.append(info)
                problems.append(LogProblem(segment: name, offset: 0, skippedByteCount: 0, kind: .unreadable(error)))
            }
        }
    }

    /// Reads to the end (counting but not keeping records) and returns every segment's summary.
    public mutating func readToEnd() -> [LogSegmentInfo] {
        while next() != nil {}
        return segments
    }

    /// Reads to the end and returns the records in range, e.g. for an export or a test.
    public mutating func readAll() -> [LogRecord] {
        var records: [LogRecord] = []
        while let record = next() { records.append(record) }
        return records
    }

    mutating func finish(_ done: LogSegmentCursor) {
        segments.append(done.info)
        problems.append(contentsOf: done.problems)
    }
}

extension LogReader where Files == PosixLogFiles {
    /// A reader of `directory` on the real file system, e.g. "/var/lib/trackd/log".
    public init(directory: String, since: UTCTime? = nil, until: UTCTime? = nil) throws(LogStoreError) {
        try self.init(directory: directory, files: PosixLogFiles(), since: since, until: until)
    }
}
