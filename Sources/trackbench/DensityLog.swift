import TrackCore
import TrackIO

/// A track encoded as the daemon would log it: `LogEncoder` chunks sealed when a fix is
/// `syncMilliseconds` after the chunk's first fix, a keyframe every `keyframeMilliseconds`.
struct DensityLog {
    /// Every chunk's bytes, back to back.
    var bytes: [UInt8] = []
    var chunks = 0
    var keyframes = 0
    /// Bytes of keyframe headers and values and of CRCs.
    var framing = 0
    /// Wall time of the appends and seals.
    var nanoseconds: Int64 = 0
    /// Per keyframe interval (a parity group): its bytes, chunks and longest chunk.
    var groups: [(bytes: Int, chunks: Int, longest: Int)] = []

    /// Bytes other ways of guarding the same chunks against bit rot would add, for
    /// docs/benchmarks.md: `stripe8=… stripe16=… stripe32=…` (the version-4 parity chunk with a
    /// stripe width of 8, 16 or 32 bytes: 10 bytes, the group's length as a varint, the parity)
    /// and `chunkxor=…` (one parity chunk per group as long as its longest chunk, with the
    /// length of every chunk as a varint, a 4-byte magic and a CRC: what repairs a whole lost chunk).
    var parityAlternatives: String {
        func stripes(_ width: Int) -> Int { groups.reduce(0) { $0 + 10 + Varint.byteCount(UInt64($1.bytes)) + width } }
        let chunkXOR = groups.reduce(0) { $0 + 8 + $1.longest + $1.chunks * Varint.byteCount(UInt64($1.longest)) }
        return "stripe8=\(stripes(8)) stripe16=\(stripes(16)) stripe32=\(stripes(32)) chunkxor=\(chunkXOR)"
    }

    init(_ fixes: [LogFix], syncMilliseconds: Int64, keyframeMilliseconds: Int64) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var encoder = LogEncoder(sequence: 0, keyframeIntervalMilliseconds: keyframeMilliseconds)
        bytes.reserveCapacity(fixes.count * 16 + 4096)
        var chunkStart: Int64 = 0
        func seal() {
            var span = buffer.mutableSpan
            let keyframe = encoder.isKeyframe
            let length = encoder.sealChunk(&span)
            guard length > 0 else { return }
            bytes.append(contentsOf: buffer[0..<length])
            chunks += 1
            // A data chunk's check: its two whole bytes (the bits it has in the code's last byte
            // are counted with the code).
            framing += keyframe ? LogChunkFormat.crcByteCount : LogDataCheck.minimumBitCount / 8
            if keyframe {
                keyframes += 1
                framing += LogChunkFormat.keyframeHeaderByteCount + keyframeValueBytes(buffer)
                groups.append((0, 0, 0))
            }
            if let last = groups.indices.last {
                groups[last].bytes += length
                groups[last].chunks += 1
                groups[last].longest = max(groups[last].longest, length)
            }
        }
        let clock = ContinuousClock()
        let started = clock.now
        for fix in fixes {
            let time = fix.time.millisecondsSinceEpoch
            if !encoder.isEmpty, time &- chunkStart >= syncMilliseconds || time < chunkStart { seal() }
            if encoder.isEmpty { chunkStart = time }
            var span = buffer.mutableSpan
            if encoder.append(.fix(fix), to: &span) == .full {
                seal()
                chunkStart = time
                var again = buffer.mutableSpan
                _ = encoder.append(.fix(fix), to: &again)
            }
        }
        seal()
        let elapsed = started.duration(to: clock.now)
        nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
    }
}

/// `trackbench logencode FILE.csv ROUNDS`: the track's fixes through one `LogEncoder` ROUNDS
/// times (5 s syncs, 300 s keyframes), every chunk sealed into the same buffer and dropped, so
/// the malloc counter's difference between two ROUNDS is what appending and sealing allocate.
/// Prints `records=… bytes=…`.
func runLogEncode(_ path: String, rounds: Int) throws(Errno) {
    let fixes = try densityFixes(path)
    var buffer = [UInt8](repeating: 0, count: 4096)
    var encoder = LogEncoder(sequence: 0)
    var records = 0
    var bytes = 0
    var chunkStart: Int64 = 0
    // Each round moves the track a day on, so keyframes come as they would in one long log.
    var shift: Int64 = 0
    for _ in 0..<rounds {
        for fix in fixes {
            var moved = fix
            moved.time = UTCTime(millisecondsSinceEpoch: fix.time.millisecondsSinceEpoch &+ shift)
            let time = moved.time.millisecondsSinceEpoch
            var span = buffer.mutableSpan
            if !encoder.isEmpty, time &- chunkStart >= 5_000 || time < chunkStart { bytes += encoder.sealChunk(&span) }
            if encoder.isEmpty { chunkStart = time }
            if encoder.append(.fix(moved), to: &span) == .full {
                bytes += encoder.sealChunk(&span)
                chunkStart = time
                _ = encoder.append(.fix(moved), to: &span)
            }
            records += 1
        }
        shift &+= 86_400_000
    }
    var span = buffer.mutableSpan
    bytes += encoder.sealChunk(&span)
    print("records=\(records) bytes=\(bytes)")
}

/// Bytes of the seven keyframe values (svarints) after a keyframe chunk's 11-byte header.
func keyframeValueBytes(_ chunk: [UInt8]) -> Int {
    var offset = LogChunkFormat.keyframeHeaderByteCount
    for _ in 0..<7 {
        guard let (_, next) = try? Varint.read(chunk.span, at: offset, end: chunk.count) else { break }
        offset = next
    }
    return offset - LogChunkFormat.keyframeHeaderByteCount
}

/// True when the chunks in `log`, decoded one after another, give exactly `fixes`.
func decodesTo(_ log: [UInt8], _ fixes: [LogFix]) -> Bool {
    var decoded: [LogFix] = []
    var offset = 0
    var reader = LogChunkReader()
    do throws(LogError) {
        while offset < log.count {
            let header = try reader.open(log.span, at: offset)
            while let record = try reader.next(log.span) {
                guard case .fix(let fix) = record else { return false }
                decoded.append(fix)
            }
            offset = header.end
        }
    } catch {
        return false
    }
    return decoded == fixes
}
