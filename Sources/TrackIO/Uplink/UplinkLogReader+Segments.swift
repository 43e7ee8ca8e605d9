import CLinux
import TrackCore

extension UplinkLogReader {
    /// The current segment's path, e.g. "/var/lib/trackd/log/0000000003.tlog" (error paths).
    var segmentPath: String { LogSegmentName.path(directory, LogSegmentName.name(segment)) }

    /// Makes the current segment's file open: the first segment once there is one, and past
    /// segments deleted before they were read (the quota). False when there is nothing to read
    /// yet. With no segment (an empty log when the reader was made) the directory is listed
    /// only once the writer has one (`durableEnd`).
    mutating func ensureFile(_ durableEnd: LogDurableEnd?) throws(UplinkLogError) -> Bool {
        while file == nil {
            if segment == 0 {
                guard durableEnd != nil else { return false }
                var files = PosixLogFiles()
                guard let first = (try? LogReader<PosixLogFiles>.segmentNumbers(in: directory, files: &files))?.first else {
                    return false
                }
                segment = first
            }
            if try openSegmentFile() { return true }
            guard let next = nextSegmentNumber() else { return false }
            if let target = seek, target.segment == segment { loseSeek(missing: 1) } else { counters.missingSegments += 1 }
            enter(next)
        }
        return true
    }

    /// Opens the current segment's file; false when it does not exist.
    mutating func openSegmentFile() throws(UplinkLogError) -> Bool {
        writeDigits(segment)
        let fd = path.withUnsafeBufferPointer { clinux_open($0.baseAddress!, O_RDONLY | O_CLOEXEC, 0) }
        guard fd >= 0 else {
            let error = Errno.current
            if error == .noSuchFile { return false }
            throw .segmentUnreadable(path: segmentPath, error)
        }
        file = FileDescriptor(rawValue: fd)
        windowStart = 0
        windowCount = 0
        return true
    }

    /// Writes `number`'s ten digits into `path`.
    mutating func writeDigits(_ number: UInt64) {
        var rest = number
        for index in stride(from: digitsStart + LogSegmentName.digitCount - 1, through: digitsStart, by: -1) {
            path[index] = CChar(bitPattern: UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
    }

    /// Starts reading segment `number` from its first byte (closing the one before).
    mutating func enter(_ number: UInt64) {
        if let file { try? file.close() }
        file = nil
        repaired = nil
        segment = number
        offset = 0
        windowStart = 0
        windowCount = 0
        // Every segment starts with a keyframe: no context carries over.
        reader = LogChunkReader()
    }

    /// The bytes of the current segment that may be read: up to the durable end in the segment
    /// being written, the whole file in a closed one.
    mutating func limit(_ durableEnd: LogDurableEnd?) throws(UplinkLogError) -> Int {
        guard let file else { return 0 }
        let size = clinux_descriptor_size(file.rawValue)
        guard size >= 0 else { throw .segmentUnreadable(path: segmentPath, Errno.current) }
        if let end = durableEnd, end.segment == segment { return min(Int(size), end.byteCount) }
        return Int(size)
    }

    /// True when nothing more is written to the current segment: the writer is on a newer
    /// one, or (without a writer's word) a newer one exists.
    mutating func isClosed(_ durableEnd: LogDurableEnd?) -> Bool {
        if let end = durableEnd { return segment < end.segment }
        return nextSegmentNumber() != nil
    }

    /// Goes on to the next segment; false when there is none yet. A start cursor not reached
    /// in this segment does not fit the log.
    mutating func moveToNextSegment() throws(UplinkLogError) -> Bool {
        if let target = seek, target.segment == segment {
            throw .cursorNotInLog(UplinkCursor(chunk: target, records: skip))
        }
        guard let next = nextSegmentNumber() else { return false }
        if next > segment + 1 { counters.missingSegments += Int(next - segment - 1) }
        enter(next)
        return true
    }

    /// The number of the segment after the current one: the next number when its file exists
    /// (the usual case: no listing, nothing allocated), else the smallest listed number above it.
    mutating func nextSegmentNumber() -> UInt64? {
        writeDigits(segment + 1)
        let exists = path.withUnsafeBufferPointer { access($0.baseAddress!, F_OK) } == 0
        writeDigits(segment)
        if exists { return segment + 1 }
        var files = PosixLogFiles()
        guard let numbers = try? LogReader<PosixLogFiles>.segmentNumbers(in: directory, files: &files) else { return nil }
        return numbers.first { $0 > segment }
    }
}
