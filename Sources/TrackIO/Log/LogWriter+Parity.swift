import TrackCore

extension LogWriter {
    /// Puts the parity chunk of the group written so far right before the chunk in the chunk
    /// buffer and starts the next group; returns its length (0 when the group is empty).
    mutating func prependParity() -> Int {
        let length = parity.chunkByteCount
        guard length > 0, length <= LogChunkStorage.headroom else { return 0 }
        let storage = chunk
        var whole = storage.whole.mutableSpan
        _ = parity.writeChunk(&whole, at: LogChunkStorage.headroom - length)
        parity = LogParity()
        return length
    }

    /// Writes and fdatasyncs the parity chunk of the open segment's last group (before the
    /// segment is closed: rotation, SIGTERM). A failure is recorded like any failed write and
    /// what it wrote is cut off again; the records are durable already, only the group's repair
    /// is lost.
    mutating func writeParity(now: MonotonicTime) {
        let length = prependParity()
        guard length > 0, let current = handle, let number = status.currentSegment else { return }
        let storage = chunk
        var step = LogStoreStep.write
        do throws(Errno) {
            try files.write(storage.whole.span.extracting((LogChunkStorage.headroom - length)..<LogChunkStorage.headroom),
                            to: current)
            step = .sync
            try files.sync(current)
        } catch {
            failed(LogSegmentName.path(settings.directory, LogSegmentName.name(number)), step, error, now: now)
            removeFailedChunk(number, now: now)
            return
        }
        if let last = segments.indices.last { segments[last].byteCount += length }
        status.byteCount += length
    }

    /// After opening the last segment for appending: its bytes since its last parity chunk
    /// (`from`) up to `end` become the start of the group, so the parity written before the
    /// next keyframe also covers what was written before the restart.
    mutating func resumeParity(_ bytes: [UInt8], from start: Int, to end: Int) {
        parity = LogParity()
        guard start < end, end <= bytes.count else { return }
        parity.add(bytes.span.extracting(start..<end))
    }
}
