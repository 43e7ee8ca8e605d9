import TrackCore

/// Appends records to the track log directory: chunks sealed and fdatasync'ed at every sync,
/// segments rotated by size and age, the oldest deleted for the quota, the torn tail of the last
/// segment cut on open. Every buffer is sized at start: appending a fix allocates nothing.
///
/// An error from write or fdatasync is never retried into the same segment: the writer cuts
/// the segment back to what was synced, closes it, and writes the chunk's records again as the
/// keyframe of a new segment, with the same sequence number (a reader keeps the first copy it
/// reads). If that fails too, those records are dropped and counted. A full or read-only file
/// system (`LogBlockedReason`) deletes nothing: the synced segments stay, `status.blocked` says
/// why nothing is written, each sync tries again (a full one once space is free) and the first
/// chunk after it starts with a gap record over the fixes that could not be written. Any other
/// failure raises `status.flashSuspect` for good. Example:
///
///     var log = try LogWriter(settings: LogWriterSettings(directory: dir), files: PosixLogFiles(),
///                             now: now)
///     log.append(.fix(fix), now: now)          // held in memory
///     log.sync(now: now)                       // written and fdatasync'ed: survives a power cut
public struct LogWriter<Files: LogFileLayer> {
    /// The settings it was made with.
    public let settings: LogWriterSettings
    /// The file layer.
    public var files: Files
    /// Counters and the storage-error flag.
    public internal(set) var status = LogWriterStatus()
    var encoder: LogEncoder
    let chunk: LogChunkStorage
    var pending: [LogRecord]
    var handle: Files.Handle?
    var segments: [LogStoredSegment]
    var lastNumber: UInt64 = 0
    var segmentOpened = MonotonicTime(nanoseconds: 0)
    var rotateBeforeNext = false
    /// The parity group of the open segment: the bytes written since its last parity chunk.
    var parity = LogParity()
    /// True when the last failed chunk was cut off its segment (it cannot be on disk), so its
    /// sequence number may be used again.
    var failedChunkRemoved = false
    /// The first and last fix dropped while blocked, for the gap record after it.
    var unwrittenFrom: UTCTime?
    var unwrittenTo: UTCTime?
    /// The path of the segment being opened or deleted, rebuilt in place so that a rotation
    /// or a deletion for the quota allocates nothing (a path built by `+` allocates each time).
    var pathScratch = ""

    /// Opens the log in `settings.directory` (creating it), cuts a torn tail off its last
    /// segment and continues that segment's sequence numbers. Throws only when the directory
    /// cannot be created or listed; other trouble is in `status`.
    public init(settings: LogWriterSettings, files: Files, now: MonotonicTime) throws(LogStoreError) {
        self.settings = settings
        self.files = files
        encoder = LogEncoder(sequence: 0, keyframeIntervalMilliseconds: settings.keyframeIntervalMilliseconds)
        chunk = LogChunkStorage(byteCount: LogChunkFormat.keyframeHeaderByteCount
                                + LogChunkFormat.maximumPayloadByteCount + LogChunkFormat.crcByteCount)
        pending = []
        pending.reserveCapacity(settings.recordCapacity)
        segments = []
        pathScratch.reserveCapacity(settings.directory.utf8.count + 1 + LogSegmentName.digitCount
                                    + LogSegmentName.suffix.utf8.count)
        do {
            try self.files.makeDirectory(settings.directory)
        } catch {
            throw .directoryUnreadable(path: settings.directory, error)
        }
        try recover(now: now)
    }

    /// Holds `record` for the next sync; syncs at once when the hold or the chunk is full, and
    /// first when `record` is a sync interval (of record time) after the first record held.
    public mutating func append(_ record: LogRecord, now: MonotonicTime) {
        syncIfSpanReached(before: record.time, now: now)
        if encoder.isEmpty {
            if handle != nil, now.milliseconds(since: segmentOpened) >= settings.segmentAgeLimitMilliseconds {
                rotateBeforeNext = true
            }
            // A chunk that goes to a new segment must be a keyframe.
            if handle == nil || rotateBeforeNext { encoder.startKeyframe() }
        }
        let storage = chunk
        var span = storage.bytes.mutableSpan
        if encoder.append(record, to: &span) == .full {
            sync(now: now)
            var again = storage.bytes.mutableSpan
            if encoder.isEmpty, handle == nil || rotateBeforeNext { encoder.startKeyframe() }
            guard encoder.append(record, to: &again) == .appended else {
                status.droppedRecordCount += 1
                return
            }
        }
        pending.append(record)
        status.pendingRecordCount = pending.count
        if pending.count >= settings.recordCapacity { sync(now: now) }
    }

    /// Writes the held records as one chunk and fdatasyncs it; true when they are durable (or
    /// there were none). On failure see the type's description.
    @discardableResult
    public mutating func sync(now: MonotonicTime) -> Bool {
        guard !pending.isEmpty else { return true }
        let sequence = encoder.sequence
        if status.blocked != nil {
            // Full or read-only: try only when it may work, never delete anything for it.
            guard mayRetryBlocked() else {
                drop(sequence: sequence)
                return false
            }
            prependGapAfterOutage(sequence: sequence)
        }
        if handle == nil || rotateBeforeNext, !encoder.isKeyframe {
            reencode(sequence: sequence)
        }
        if writeChunk(now: now) { return true }
        // Never retried into the same segment: a new one, the same records, the same sequence.
        reencode(sequence: sequence)
        if writeChunk(now: now) { return true }
        // A chunk cut off its segment is not on disk: its number is free again.
        drop(sequence: failedChunkRemoved ? sequence : sequence &+ 1)
        return false
    }

    /// A final sync and the parity of the last group, then closes the segment (SIGTERM, the end
    /// of an import).
    public mutating func close(now: MonotonicTime) {
        sync(now: now)
        writeParity(now: now)
        closeSegment()
    }

    /// Seals the chunk, opens a segment when needed, writes and syncs. On failure closes the
    /// segment and records the error; the encoder has moved on (the caller re-encodes).
    mutating func writeChunk(now: MonotonicTime) -> Bool {
        let storage = chunk
        var span = storage.bytes.mutableSpan
        let keyframe = encoder.isKeyframe
        let length = encoder.sealChunk(&span)
        if handle == nil || rotateBeforeNext {
            writeParity(now: now)
            closeSegment()
            guard openSegment(now: now) else { return false }
            parity = LogParity()
        }
        guard let current = handle, let number = status.currentSegment else { return false }
        // A keyframe starts a new parity group: the last one's parity goes first, in the same write.
        let prefix = keyframe ? prependParity() : 0
        var step = LogStoreStep.write
        do throws(Errno) {
            try files.write(storage.whole.span.extracting((LogChunkStorage.headroom - prefix)..<(LogChunkStorage.headroom + length)),
                            to: current)
            step = .sync
            try files.sync(current)
        } catch {
            failed(LogSegmentName.path(settings.directory, LogSegmentName.name(number)), step, error, now: now)
            removeFailedChunk(number, now: now)
            closeSegment()
            return false
        }
        if status.blocked != nil { unblock() }
        parity.add(storage.bytes.span.extracting(0..<length))
        if let last = segments.indices.last { segments[last].byteCount += prefix + length }
        status.byteCount += prefix + length
        status.durableRecordCount += pending.count
        for record in pending {
            if case .fix(let fix) = record { status.lastDurableFixTime = fix.time }
        }
        status.syncCount += 1
        status.lastSync = now
        pending.removeAll(keepingCapacity: true)
        status.pendingRecordCount = 0
        if let last = segments.last, last.byteCount >= settings.segmentByteLimit { rotateBeforeNext = true }
        if now.milliseconds(since: segmentOpened) >= settings.segmentAgeLimitMilliseconds { rotateBeforeNext = true }
        return true
    }

    /// Starts the chunk again as a keyframe with `sequence` holding the same records.
    mutating func reencode(sequence: UInt32) {
        encoder.reset(sequence: sequence)
        var kept = 0
        let storage = chunk
        for index in pending.indices {
            var span = storage.bytes.mutableSpan
            guard encoder.append(pending[index], to: &span) == .appended else { break }
            kept += 1
        }
        if kept < pending.count {
            status.droppedRecordCount += pending.count - kept
            pending.removeLast(pending.count - kept)
        }
    }

    /// Records a failure: a full or read-only file system blocks the log until a sync works
    /// again (counted once, not at every retry); anything else marks the flash suspect.
    mutating func failed(_ path: String, _ step: LogStoreStep, _ error: Errno, now: MonotonicTime) {
        if let reason = LogBlockedReason(error) {
            if status.blocked != reason {
                status.storageErrorCount += 1
                status.blockedSince = now
            }
            status.blocked = reason
        } else {
            status.storageErrorCount += 1
            status.flashSuspect = true
        }
        status.lastError = .segmentFailed(path: path, step: step, error)
        status.storageError = status.flashSuspect || status.blocked != nil
    }
}

/// The writer's chunk buffer, allocated once at start and freed with the writer: `bytes` for
/// the encoder, after `headroom` bytes where a parity chunk is put in front of a keyframe chunk
/// so that both go out in one write.
final class LogChunkStorage {
    /// Room for the largest parity chunk: 10 bytes, the group's length (a varint, at most 10
    /// bytes) and the parity (16).
    static var headroom: Int { 64 }
    let whole: UnsafeMutableBufferPointer<UInt8>
    let bytes: UnsafeMutableBufferPointer<UInt8>

    init(byteCount: Int) {
        whole = .allocate(capacity: LogChunkStorage.headroom + byteCount)
        whole.initialize(repeating: 0)
        bytes = UnsafeMutableBufferPointer(rebasing: whole[LogChunkStorage.headroom...])
    }

    deinit { whole.deallocate() }
}

/// A segment file the writer knows: its number and size.
struct LogStoredSegment: Equatable {
    var number: UInt64
    var byteCount: Int
}
