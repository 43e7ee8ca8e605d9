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
    /// and kept when the chunk then opens (its CRC-32C matches); otherwise undone.
    mutating func repair(at start: Int, context: LogChunkReader) -> Bool {
        guard let parity = LogParityChunk.next(in: bytes.span, after: start), parity.groupStart <= start else {
            return false
        }
        let width = parity.width
        let groupStart = parity.groupStart
        var syndrome = [UInt8](repeating: 0, count: width)
        for index in 0..<width { syndrome[index] = bytes[parity.parityOffset + index] }
        for index in groupStart..<parity.offset { syndrome[(index - groupStart) % width] ^= bytes[index] }
        guard syndrome.contains(where: { $0 != 0 }) else { return false }
        var candidate = start
        while candidate < parity.offset {
            defer { candidate += 1 }
            guard syndrome[(candidate - groupStart) % width] != 0 else { continue }
            let end = min(candidate + width, parity.offset)
            apply(syndrome, candidate..<end, groupStart)
            var trial = context
            if (try? trial.open(bytes.span, at: start)) != nil { return true }
            apply(syndrome, candidate..<end, groupStart)
        }
        return false
    }

    private mutating func apply(_ syndrome: [UInt8], _ range: Range<Int>, _ groupStart: Int) {
        for index in range { bytes[index] ^= syndrome[(index - groupStart) % syndrome.count] }
    }

    /// True when a parity or keyframe chunk that passes its checks follows `start`: then a chunk
    /// at `start` that runs past the end of the bytes is damaged (e.g. a flipped length), not a
    /// torn tail, and the bytes after it are not cut.
    func goodChunk(after start: Int) -> Bool {
        if LogParityChunk.next(in: bytes.span, after: start) != nil { return true }
        var from = start + 1
        while let candidate = LogChunkFormat.nextKeyframe(in: bytes.span, from: from) {
            var fresh = LogChunkReader()
            if (try? fresh.open(bytes.span, at: candidate)) != nil { return true }
            from = candidate + 1
        }
        return false
    }

    /// Where a damaged parity chunk at `start` ends, or nil when the bytes there are not one.
    ///
    /// The group before it (from the last parity chunk read, or the segment's start) read
    /// without damage, so its parity chunk can be made again: if at least 8 of the bytes at
    /// `start` are those of it, they are that chunk, damaged (magic, lengths and all); 8 or more
    /// of 40-odd bytes agree by chance about once in 10^11.
    func damagedParityEnd(at start: Int) -> Int? {
        guard start > parityEnd else { return nil }
        var parity = LogParity()
        parity.add(bytes.span.extracting(parityEnd..<start))
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
