import TrackCore

/// Walks the chunks of one segment's bytes and yields their records, turning every failure into
/// a `LogProblem` and resynchronising at the next keyframe that passes its CRC.
///
/// Shared by `LogReader` (records in order), `LogWriter` (where the valid bytes end, and the
/// next sequence number) and `trackctl log verify`.
struct LogSegmentCursor {
    /// The segment's bytes, with any damage the parity repaired put right.
    var bytes: [UInt8]
    var info: LogSegmentInfo
    var problems: [LogProblem] = []
    var offset = 0
    var reader = LogChunkReader()
    var chunk: LogChunkHeader?
    /// Sequence of the chunk being read (data chunks: the keyframe's plus their position).
    var sequence: UInt32?
    /// True while the open chunk is a duplicate whose records are decoded but not returned.
    var suppressing = false
    /// Where the first problem starts (the end of the valid prefix), nil while there is none.
    var firstProblemOffset: Int?
    /// True when a keyframe or a parity chunk passed its checks after the first problem: the
    /// problem is damage, not a torn tail.
    var keyframeAfterProblem = false
    /// The end of the last parity chunk read (0 before the first): where the bytes no parity
    /// covers yet begin.
    var parityEnd = 0
    /// The last searches for a good parity or keyframe chunk after damage: where each started
    /// and what it found (`LogSegmentCursor+Repair`).
    var paritySearch: (from: Int, found: LogParityChunk?)?
    var keyframeSearch: (from: Int, found: Int?)?
    /// The parity of the chunks read since `parityEnd`, nil once damage was skipped since: what
    /// a damaged parity chunk there is compared with.
    var groupParity: LogParity? = LogParity()
    /// The syndrome last computed, and the offset of the parity chunk it is for.
    var syndrome: (parityOffset: Int, bytes: [UInt8])?
    /// Repair tries left for this segment: 100,000, about a hundred damaged places beyond repair
    /// (real damage is repaired at the first or second try).
    var repairTries = 100_000
    /// The chunks that passed their checks, in file order, when a caller asked for them (nil:
    /// not recorded): `LogReader.nextSegmentScan`.
    var spans: [LogChunkSpan]?
    /// The records of the chunk being read, for its span.
    var spanRecords = LogTransferSummary()

    init(bytes: [UInt8], name: String, number: UInt64) {
        self.bytes = bytes
        info = LogSegmentInfo(name: name, number: number)
        info.byteCount = bytes.count
    }

    /// The end of the bytes that read without a problem: where a writer appends.
    var validEnd: Int { firstProblemOffset ?? bytes.count }

    /// The next record of this segment, or nil at its end. `lastSequence` is the sequence of
    /// the last chunk whose records were returned (across segments), used to drop duplicates
    /// and report gaps.
    mutating func next(lastSequence: inout UInt32?) -> LogRecord? {
        while true {
            if chunk != nil {
                let decoded: LogRecord?
                let data = bytes
                do throws(LogError) {
                    decoded = try reader.next(data.span)
                } catch {
                    damaged(error, at: chunk?.offset ?? offset)
                    continue
                }
                guard let record = decoded else {
                    if let done = chunk, spans != nil {
                        spans?.append(LogChunkSpan(offset: done.offset, end: done.end, sequence: sequence, records: spanRecords))
                    }
                    spanRecords = LogTransferSummary()
                    if let done = chunk, var parity = groupParity {
                        let data = bytes
                        parity.add(data.span.extracting(done.offset..<done.end))
                        groupParity = parity
                    }
                    offset = chunk?.end ?? offset
                    chunk = nil
                    continue
                }
                if suppressing { continue }
                info.count(record)
                if spans != nil { spanRecords.count(record) }
                return record
            }
            guard offset < bytes.count else { return nil }
            openChunk(lastSequence: &lastSequence)
        }
    }

    private mutating func openChunk(lastSequence: inout UInt32?) {
        let header: LogChunkHeader
        let before = reader
        let opened: Result<LogChunkHeader, LogError>
        do throws(LogError) {
            let data = bytes
            opened = .success(try reader.open(data.span, at: offset))
        } catch {
            opened = .failure(error)
        }
        switch opened {
        case .success(let chunk):
            header = chunk
        case .failure(let error):
            // Damage the parity after it repairs is reported and read as if it had not happened
            // (a torn tail has no parity chunk after it, so it is never "repaired").
            if repair(at: offset, context: before) {
                reader = before
                report(.repaired(error), at: offset, skipping: 0)
                return
            }
            // A damaged parity chunk holds no records: the context carries on after it.
            if let end = damagedParityEnd(at: offset) {
                report(.damagedParity(error), at: offset, skipping: end - offset)
                reader = before
                startGroup(at: end)
                return
            }
            if case .truncated = error, !goodChunk(after: offset) {
                report(.tornTail, at: offset, skipping: bytes.count - offset)
                info.hasTornTail = true
                offset = bytes.count
            } else {
                damaged(error, at: offset)
            }
            return
        }
        if header.isParity {
            if firstProblemOffset != nil { keyframeAfterProblem = true }
            if spans != nil { spans?.append(LogChunkSpan(offset: header.offset, end: header.end, sequence: nil)) }
            startGroup(at: header.end)
            return
        }
        if let keyframeSequence = header.sequence {
            if let last = lastSequence {
                let step = Int32(bitPattern: keyframeSequence &- last)
                if step > 1 {
                    report(.missingChunks(count: UInt32(step - 1)), at: offset, skipping: 0)
                }
            }
            sequence = keyframeSequence
            if firstProblemOffset != nil { keyframeAfterProblem = true }
        } else {
            sequence = sequence.map { $0 &+ 1 }
        }
        let current = sequence ?? 0
        suppressing = false
        if let last = lastSequence, Int32(bitPattern: current &- last) <= 0 {
            if header.isKeyframe { report(.duplicateChunks(sequence: current), at: offset, skipping: 0) }
            suppressing = true
        } else {
            lastSequence = current
        }
        if info.firstSequence == nil { info.firstSequence = current }
        info.lastSequence = current
        info.chunkCount += 1
        chunk = header
    }

    /// A parity chunk (good or damaged) ends at `end`: the next group starts there.
    private mutating func startGroup(at end: Int) {
        parityEnd = end
        offset = end
        groupParity = LogParity()
    }

    /// Reports `error` and moves to the next keyframe candidate after `start` (or the end).
    private mutating func damaged(_ error: LogError, at start: Int) {
        chunk = nil
        reader = LogChunkReader()
        groupParity = nil
        spanRecords = LogTransferSummary()
        let resume = LogChunkFormat.nextKeyframe(in: bytes.span, from: start + 1) ?? bytes.count
        report(.damaged(error), at: start, skipping: resume - start)
        // A good parity chunk after it (whose group the damage was too much for) also shows
        // this is damage in the middle, not a torn tail.
        if parityChunk(after: start) != nil { keyframeAfterProblem = true }
        offset = resume
    }

    private mutating func report(_ kind: LogProblemKind, at start: Int, skipping count: Int) {
        switch kind {
        case .missingChunks, .duplicateChunks, .repaired, .damagedParity: break
        default: if firstProblemOffset == nil { firstProblemOffset = start }
        }
        // A false keyframe candidate right after damage is part of the same damaged stretch.
        if case .damaged = kind, let last = problems.last, case .damaged = last.kind,
           last.offset + last.skippedByteCount == start {
            problems[problems.count - 1].skippedByteCount += count
            return
        }
        problems.append(LogProblem(segment: info.name, offset: start, skippedByteCount: count, kind: kind))
        info.problemCount += 1
    }
}
