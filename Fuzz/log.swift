// Fuzz target `log`: bytes as a track log segment on disk, read as `trackctl log verify` and
// `trackctl log export` read it (`LogReader` over `PosixLogFiles`: chunk framing, CRC32C, the
// arithmetic-coded records, resynchronisation), then exported in one of the formats.
//
// The first input byte is a mode: bit 0 set first writes the right CRC32C (or version-5 data
// check) after every chunk the reader can frame (so mutated chunks reach the record decoder
// instead of failing the CRC);
// bits 1–2 choose the export format, bit 3 adds `--simplify 5`, bits 4–5 the datum. Checks
// beyond "no crash":
// * the problems lie inside the segment and skip no more bytes than it has;
// * the segment's summary counts the records that were returned;
// * the records read re-encode, and read back unchanged;
// * no exported line is cut short.
import Glibc
import TrackCore
import TrackIO

func fuzzTarget(_ input: [UInt8]) {
    guard let mode = input.first else { return }
    var segment = Array(input.dropFirst())
    if mode & 1 == 1 { LogFuzz.repairCRCs(&segment) }
    LogFuzz.write(segment)

    var reader: LogReader<PosixLogFiles>
    do {
        reader = try LogReader(directory: LogFuzz.directory)
    } catch {
        check(false, "the log directory did not open: \(error)")
        return
    }
    let records = reader.readAll()
    check(reader.segments.count == 1, "\(reader.segments.count) segments from one file")
    let info = reader.segments[0]
    check(info.byteCount == segment.count, "summary says \(info.byteCount) bytes of \(segment.count)")
    check(info.recordCount == records.count, "summary counts \(info.recordCount) of \(records.count) records")
    var skipped = 0
    for problem in reader.problems {
        check(problem.offset >= 0 && problem.offset <= segment.count, "problem at \(problem.offset) of \(segment.count)")
        check(problem.skippedByteCount >= 0, "negative skip")
        skipped += problem.skippedByteCount
    }
    check(skipped <= segment.count, "skipped \(skipped) of \(segment.count) bytes")

    let readBack = LogRoundTrip.reencode(records)
    check(readBack.error == nil, "records read did not re-encode: \(String(describing: readBack.error))")
    check(readBack.records == records, "records read re-encode to other records")

    let options = ExportOptions(simplifyMillimetres: mode & 8 != 0 ? 5_000 : nil,
                                datum: Datum.allCases[Int(mode >> 4 & 3) % Datum.allCases.count])
    let exported: [UInt8]
    switch mode >> 1 & 3 {
    case 0: exported = ExportBytes.of(records, GPXWriter(), options)
    case 1: exported = ExportBytes.of(records, GeoJSONWriter(), options)
    case 2: exported = ExportBytes.of(records, KMLWriter(), options)
    default: exported = ExportBytes.of(records, CSVWriter(), options)
    }
    check(!exported.isEmpty, "an export wrote nothing")
}

enum LogFuzz {
    /// A directory of this process's own under $TMPDIR (scripts/fuzz removes it afterwards).
    static let directory: String = {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/trackd-fuzz-log.XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) != nil else {
            fatalError("mkdtemp under \(base) failed")
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Replaces the directory's only segment with `bytes`.
    static func write(_ bytes: [UInt8]) {
        let path = LogSegmentName.path(directory, LogSegmentName.name(1))
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        check(fd >= 0, "cannot create \(path)")
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        check(written == bytes.count, "short write to \(path)")
        close(fd)
    }

    /// Writes `crc` at `at` when the chunk at `offset` then opens; else leaves the bytes.
    static func writeCRC(_ crc: UInt32, _ at: Int, _ bytes: inout [UInt8], _ offset: Int, _ reader: LogChunkReader) -> Bool {
        let saved = Array(bytes[at..<at + 4])
        for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
        var trial = reader
        if (try? trial.open(bytes.span, at: offset)) != nil { return true }
        for index in 0..<4 { bytes[at + index] = saved[index] }
        return false
    }

    /// Writes a version-5 data check after a code ending in byte `at` (one of its 8 possible
    /// ends) when the chunk at `offset` then opens; else leaves the bytes.
    static func writeDataCheck(_ at: Int, _ bytes: inout [UInt8], _ offset: Int, _ reader: LogChunkReader) -> Bool {
        let saved = bytes
        for rest in 0..<8 {
            let codeBits = (at - offset) * 8 + rest
            guard codeBits > 0, offset + LogDataCheck.chunkByteCount(afterCode: codeBits) <= bytes.count else { continue }
            let check = LogDataCheck.value(bytes.span, start: offset, codeBitCount: codeBits)
            var span = bytes.mutableSpan
            LogDataCheck.store(check, &span, start: offset, codeBitCount: codeBits)
            var trial = reader
            if (try? trial.open(bytes.span, at: offset)) != nil { return true }
            bytes = saved
        }
        return false
    }

    /// Writes the computed CRC32C over every CRC that mismatches, chunk by chunk, as a writer
    /// would have; skips what cannot be framed to the next keyframe magic.
    static func repairCRCs(_ bytes: inout [UInt8]) {
        var reader = LogChunkReader()
        var offset = 0
        var repairs = 0
        while offset < bytes.count {
            let before = reader
            do throws(LogError) {
                let header = try reader.open(bytes.span, at: offset)
                while try reader.next(bytes.span) != nil {}
                offset = header.end
            } catch {
                if case .crcMismatch(let computed, _, let at) = error, repairs < 256 {
                    repairs += 1
                    // A whole CRC32C (keyframe, parity and version-3/4 data chunks) at `at`, or a
                    // version-5 data chunk's check from a bit in byte `at` on.
                    if at + 4 <= bytes.count, writeCRC(computed, at, &bytes, offset, before) { reader = before; continue }
                    if writeDataCheck(at, &bytes, offset, before) { reader = before; continue }
                }
                if case .truncated = error { return }
                reader = LogChunkReader()
                offset = LogChunkFormat.nextKeyframe(in: bytes.span, from: offset + 1) ?? bytes.count
            }
        }
    }
}
