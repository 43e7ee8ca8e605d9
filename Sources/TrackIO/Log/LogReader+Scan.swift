import TrackCore

extension LogReader {
    /// Skips the segments numbered below `number` (a pull that has them already); call it
    /// before the first `next()` or `nextSegmentScan()`.
    public mutating func skipSegments(before number: UInt64) {
        while index < segmentNumbers.count, segmentNumbers[index] < number { index += 1 }
    }

    /// The next segment read to its end, with the span of every chunk that passed its checks;
    /// nil after the last. Sequence numbers, duplicates and problems are followed across
    /// segments as `next()` does; use one or the other on a reader, not both. An unreadable
    /// segment comes back with no bytes and no chunks (its problem in `problems`).
    ///
    /// Example: `while let scan = reader.nextSegmentScan() { for chunk in scan.chunks { … } }`.
    public mutating func nextSegmentScan() -> LogSegmentScan? {
        guard index < segmentNumbers.count else { return nil }
        let number = segmentNumbers[index]
        index += 1
        let name = LogSegmentName.name(number)
        var current: LogSegmentCursor
        do throws(Errno) {
            current = LogSegmentCursor(bytes: try files.readAll(LogSegmentName.path(directory, name)), name: name, number: number)
        } catch {
            var info = LogSegmentInfo(name: name, number: number)
            info.problemCount = 1
            segments.append(info)
            problems.append(LogProblem(segment: name, offset: 0, skippedByteCount: 0, kind: .unreadable(error)))
            return LogSegmentScan(info: info, bytes: [], chunks: [])
        }
        current.spans = []
        while current.next(lastSequence: &lastSequence) != nil {}
        finish(current)
        return LogSegmentScan(info: current.info, bytes: current.bytes, chunks: current.spans ?? [])
    }
}
