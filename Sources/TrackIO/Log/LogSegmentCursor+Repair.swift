import TrackCore

extension LogSegmentCursor {
    /// Repairs the damage that made the chunk at `start` fail, from the parity chunk of its
    /// group (docs/log-format.md, "Parity chunks"); true when the chunk now passes its checks
    /// with `context`, the reader as it was before the chunk.
    ///
    /// The chunks before `start` passed their CRCs, so the damage begins at or after it. The
    /// group's syndrome (its parity XOR its bytes as they are) is the damage folded onto the
    /// stripe width W: for each place from `start` on where a damaged stretch of up to W bytes
    /// can begin (a byte whose stripe is damaged), the syndrome is applied to the W bytes there,
    /// and kept when the chunk then opens (its check matches) and so does the chunk after it;
    /// otherwise undone. The damage
    /// begins inside the failing chunk, so only the places before `start` + the longest chunk
    /// are tried (a damaged byte: at most 1,025), and a segment gets `repairTries` in all, so
    /// bytes made to cost the most (every stripe damaged, a false keyframe every few bytes) end
    /// in seconds, not hours.
    mutating func repair(at start: Int, context: LogChunkReader) -> Bool {
        guard let parity = parityChunk(after: start), parity.groupStart <= start else { return false }
        let width = parity.width
        let groupStart = parity.groupStart
        // The same group's syndrome for every failing chunk in it, unless a repair changed it.
        if syndrome?.parityOffset != parity.offset {
            var computed = [UInt8](repeating: 0, count: width)
            for index in 0..<width { computed[index] = bytes[parity.parityOffset + index] }
            for index in groupStart..<parity.offset { computed[(index - groupStart) % width] ^= bytes[index] }
            syndrome = (parity.offset, computed)
        }
        guard let syndrome = syndrome?.bytes, syndrome.contains(where: { $0 != 0 }) else { return false }
        var candidate = start
        let last = min(parity.offset, start + LogSegmentCursor.longestChunk)
        while candidate < last, repairTries > 0 {
            defer { candidate += 1 }
            guard syndrome[(candidate - groupStart) % width] != 0 else { continue }
            repairTries -= 1
            let end = min(candidate + width, parity.offset)
            apply(syndrome, candidate..<end, groupStart)
            if opensWithTheNext(at: start, context: context, before: parity.offset) {
                // Repaired bytes may make chunks good that a search found bad.
                paritySearch = nil
                keyframeSearch = nil
                self.syndrome = nil
                return true
            }
            apply(syndrome, candidate..<end, groupStart)
        }
        return false
    }

    /// True when the chunk at `start` opens with `context`, its records read, and the chunk
    /// after it opens too (at the latest, the group's parity chunk at `parityOffset`).
    ///
    /// A wrong candidate makes bytes that the damaged chunk's decoding reads (a damaged chunk
    /// can decode far past its real end), and a version-5 data chunk's check of 16 to 23 bits
    /// passes about once in 2^18 tries (2^-16 to 2^-23 by its width): with one try per
    /// candidate, up to 75 for a damaged byte, wrong repairs would come about once in 3,500
    /// damaged chunks. The right repair
    /// also ends where the next good chunk starts; a wrong one would need a second chance
    /// match there.
    private func opensWithTheNext(at start: Int, context: LogChunkReader, before parityOffset: Int) -> Bool {
        var trial = context
        let span = bytes.span
        do throws(LogError) {
            let header = try trial.open(span, at: start)
            guard header.end <= parityOffset else { return false }
            while try trial.next(span) != nil {}
            _ = try trial.open(span, at: header.end)
            return true
        } catch {
            return false
        }
    }

    private mutating func apply(_ syndrome: [UInt8], _ range: Range<Int>, _ groupStart: Int) {
        for index in range { bytes[index] ^= syndrome[(index - groupStart) % syndrome.count] }
    }

    /// The longest chunk: a keyframe's header, the largest payload and the CRC.
    static var longestChunk: Int {
        LogChunkFormat.keyframeHeaderByteCount + LogChunkFormat.maximumPayloadByteCount + LogChunkFormat.crcByteCount
    }

    /// The first parity chunk after `start` that passes its checks. The cursor only moves on, so
    /// the last search is remembered: bytes full of false candidates are searched once, not once
    /// per damaged chunk.
    mutating func parityChunk(after start: Int) -> LogParityChunk? {
        if let search = paritySearch, search.from <= start, search.found.map({ start < $0.offset }) ?? true {
            return search.found
        }
        let found = LogParityChunk.next(in: bytes.span, after: start)
        paritySearch = (start, found)
        return found
    }

    /// True when a parity or keyframe chunk that passes its checks follows `start`: then a chunk
    /// at `start` that runs past the end of the bytes is damaged (e.g. a flipped length), not a
    /// torn tail, and the bytes after it are not cut. Remembered like `parityChunk`.
    mutating func goodChunk(after start: Int) -> Bool {
        if parityChunk(after: start) != nil { return true }
        if let search = keyframeSearch, search.from <= start, search.found.map({ start < $0 }) ?? true {
            return search.found != nil
        }
        var from = start + 1
        var found: Int?
        while let candidate = LogChunkFormat.nextKeyframe(in: bytes.span, from: from) {
            var fresh = LogChunkReader()
            if (try? fresh.open(bytes.span, at: candidate)) != nil {
                found = candidate
                break
            }
            from = candidate + 1
        }
        keyframeSearch = (start, found)
        return found != nil
    }

    /// Where a damaged parity chunk at `start` ends, or nil when the bytes there are not one.
    ///
    /// When the group before it (from the last parity chunk read, or the segment's start) read
    /// without damage, the cursor has its parity (`groupParity`), so its parity chunk can be
    /// made again: if at least 8 of the bytes at `start` are those of it, they are that chunk,
    /// damaged (magic, lengths and all); 8 or more of 27-odd bytes agree by chance about once in
    /// 10^12.
    func damagedParityEnd(at start: Int) -> Int? {
        guard start > parityEnd, let parity = groupParity, parity.byteCount == start - parityEnd else { return nil }
        let length = parity.chunkByteCount
        guard start + length <= bytes.count else { return nil }
        var expected = [UInt8](repeating: 0, count: length)
        var span = expected.mutableSpan
        _ = parity.writeChunk(&span, at: 0)
        var same = 0
        for index in 0..<length where bytes[start + index] == expected[index] { same += 1 }
        return same >= 8 ? start + length : nil
    }
}
