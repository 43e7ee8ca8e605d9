import CLinux
import TrackCore

/// A segment read whole after damage was met in it: its bytes as `LogSegmentCursor` left them
/// (what the parity mends, mended) up to `limit`, and the problems it found, which say where
/// the reader goes on after damage it could not mend.
struct UplinkRepairedSegment {
    var bytes: [UInt8]
    var problems: [LogProblem]
    var limit: Int
}

/// What opening the chunk at `offset` came to.
enum UplinkChunkOpening {
    /// A chunk passed its checks; its records follow.
    case opened
    /// Damage: `offset` moved past it.
    case skipped
    /// The bytes up to the limit end inside the chunk.
    case endOfBytes
}

extension UplinkLogReader {
    /// Opens the chunk at `offset`, filling the window first so it holds the whole chunk.
    mutating func openChunk(limit: Int) throws(UplinkLogError) -> UplinkChunkOpening {
        if repaired == nil { try fillWindow(limit: limit) }
        chunkContext = reader
        let base = sourceBase
        let data = source
        let bytes = data.span.extracting(0..<sourceCount(limit: limit))
        // A parity chunk checks that its group lies before it in the segment, which a window
        // does not hold: read with its place in the file. It has no records and keeps the
        // context (as `LogChunkReader.open` does).
        if LogChunkFormat.isParity(bytes, at: offset - base),
           let parity = try? LogParityChunk.read(bytes, at: offset - base, fileOffset: offset) {
            chunkEnd = base + parity.end
            chunkOpen = true
            chunkRecords = 0
            return .opened
        }
        let header: LogChunkHeader
        do throws(LogError) {
            header = try reader.open(bytes, at: offset - base)
        } catch {
            if case .truncated = error, base + bytes.count >= limit { return .endOfBytes }
            try damaged(limit: limit)
            return .skipped
        }
        chunkEnd = base + header.end
        chunkOpen = true
        chunkRecords = 0
        if header.isParity { return .opened }
        if let keyframe = header.sequence {
            if let last = lastSequence, Int32(bitPattern: keyframe &- last) > 1, seek == nil {
                counters.missingChunks += Int(keyframe &- last &- 1)
            }
            sequence = keyframe
        } else {
            sequence = sequence.map { $0 &+ 1 }
        }
        let current = sequence ?? 0
        if seekLost {
            // The start cursor's segment is gone: its records to pass over are in this chunk
            // only if this chunk is the one right after the cursor's.
            if let last = lastSequence, current != last &+ 1 { skip = 0 }
            seekLost = false
        }
        if let last = lastSequence, Int32(bitPattern: current &- last) <= 0 {
            if header.isKeyframe && seek == nil { counters.duplicateChunks += 1 }
            suppressing = true
        } else {
            suppressing = false
            lastSequence = current
        }
        return .opened
    }

    /// The open chunk's next record, nil after its last; damage mid-chunk is handled here.
    mutating func readRecord() throws(UplinkLogError) -> LogRecord? {
        let data = source
        let limit = repaired?.limit ?? (windowStart + windowCount)
        do throws(LogError) {
            return try reader.next(data.span.extracting(0..<sourceCount(limit: limit)))
        } catch {
            try damaged(limit: limit)
            return nil
        }
    }

    /// The open chunk's records are read: its end is the last good chunk end.
    mutating func finishChunk() throws(UplinkLogError) {
        chunkOpen = false
        let end = chunkEnd
        before = LogCursor(segment: segment, offset: end, sequence: lastSequence, crc: crc(before: end))
        returned = 0
        offset = end
        if let target = seek, target.segment == segment {
            guard end <= target.offset else { throw .cursorNotInLog(UplinkCursor(chunk: target, records: skip)) }
            if end == target.offset {
                guard before.crc == target.crc else { throw .cursorNotInLog(UplinkCursor(chunk: target, records: skip)) }
                seek = nil
            }
        }
        if let done = repaired, offset >= done.limit { repaired = nil }
    }

    /// The chunk at `offset` failed (opening it, or a record of it): the first time in this
    /// segment, the segment is read whole and repaired and the chunk tried again with the
    /// context it had (the records it gave already are passed over); then the reader goes where
    /// `LogSegmentCursor` went on after the damage it could not mend: the next keyframe, or past
    /// a damaged parity chunk with the context kept.
    mutating func damaged(limit: Int) throws(UplinkLogError) {
        let wasOpen = chunkOpen
        chunkOpen = false
        if repaired == nil {
            try readRepaired(limit: limit)
            reader = chunkContext
            replay = wasOpen ? chunkRecords : 0
            return
        }
        replay = 0
        var skipped: LogProblem?
        for problem in repaired?.problems ?? [] where problem.offset == offset {
            switch problem.kind {
            case .damaged, .damagedParity, .tornTail: skipped = problem
            default: break
            }
        }
        switch skipped?.kind {
        case .damagedParity:
            reader = chunkContext
            offset += skipped?.skippedByteCount ?? 0
        case .tornTail:
            offset = limit
        default:
            counters.damagedStretches += 1
            reader = LogChunkReader()
            if let skipped, skipped.skippedByteCount > 0 {
                offset += skipped.skippedByteCount
            } else {
                let data = source
                offset = LogChunkFormat.nextKeyframe(in: data.span.extracting(0..<sourceCount(limit: limit)), from: offset + 1) ?? limit
            }
        }
    }

    /// Reads the segment up to `limit` whole and through `LogSegmentCursor`, which mends what
    /// the parity can.
    mutating func readRepaired(limit: Int) throws(UplinkLogError) {
        var bytes: [UInt8]
        do throws(Errno) {
            bytes = try FileDescriptor.readWholeFile(segmentPath)
        } catch {
            throw .segmentUnreadable(path: segmentPath, error)
        }
        if bytes.count > limit { bytes.removeLast(bytes.count - limit) }
        var cursor = LogSegmentCursor(bytes: bytes, name: LogSegmentName.name(segment), number: segment)
        var ignored: UInt32?
        while cursor.next(lastSequence: &ignored) != nil {}
        counters.repairedSegmentReads += 1
        repaired = UplinkRepairedSegment(bytes: cursor.bytes, problems: cursor.problems, limit: min(limit, cursor.bytes.count))
    }

    /// The bytes chunks are read from: the repaired segment, or the window.
    var source: [UInt8] { repaired?.bytes ?? window }
    /// The file offset of `source`'s first byte.
    var sourceBase: Int { repaired == nil ? windowStart : 0 }

    /// How many bytes of `source` lie below `limit`.
    func sourceCount(limit: Int) -> Int {
        if let done = repaired { return min(done.limit, limit) }
        return max(0, min(windowCount, limit - windowStart))
    }

    /// The little-endian number in the 4 bytes before file offset `end` (a chunk's last 4).
    func crc(before end: Int) -> UInt32 {
        let base = sourceBase
        let data = source
        guard end - 4 >= base, end - base <= data.count else { return 0 }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(data[end - base - 4 + index]) << (8 * UInt32(index)) }
        return value
    }

    /// Makes the window hold `offset` and what a chunk from there can need, up to `limit`.
    mutating func fillWindow(limit: Int) throws(UplinkLogError) {
        let wanted = min(offset + Self.chunkSpan, limit)
        if offset >= windowStart, wanted <= windowStart + windowCount { return }
        guard let file else { return }
        let count = min(Self.windowByteCount, limit - offset)
        var got = 0
        var failure: Errno?
        let start = offset
        window.withUnsafeMutableBytes { buffer in
            while got < count {
                let read = pread(file.rawValue, buffer.baseAddress! + got, count - got, off_t(start + got))
                if read < 0 {
                    if Errno.current == .interrupted { continue }
                    failure = Errno.current
                    return
                }
                if read == 0 { return }
                got += read
            }
        }
        if let failure { throw .segmentUnreadable(path: segmentPath, failure) }
        windowStart = start
        windowCount = got
    }
}
