import Testing
import TrackCore

/// The parity chunk of `group`, as the writer makes it.
private func parityChunk(of group: [UInt8]) -> [UInt8] {
    var parity = LogParity()
    parity.add(group.span)
    var buffer = [UInt8](repeating: 0, count: parity.chunkByteCount)
    var span = buffer.mutableSpan
    _ = parity.writeChunk(&span, at: 0)
    return buffer
}

/// `bytes` with a correct CRC-32C put over its last 4 bytes (for hand-made broken chunks).
private func withCRC(_ bytes: [UInt8]) -> [UInt8] {
    var fixed = Array(bytes.dropLast(4))
    let crc = CRC32C.checksum(of: fixed.span, 0..<fixed.count)
    for shift in stride(from: 0, to: 32, by: 8) { fixed.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
    return fixed
}

struct LogParityTests {
    /// 5 s chunks of a 1 Hz walk with whole-degree courses, a keyframe every 60 s.
    static let chunks: [[UInt8]] = {
        var records: [LogRecord] = []
        for second in 0..<120 {
            let position = LogPosition(latitudeE7: 481_173_000 + Int32(second * 41),
                                       longitudeE7: 115_167_000 + Int32(second * 29 % 97))
            records.append(LogSamples.fix(Int64(second), position, course: Int32(second * 300 % 36_000)))
        }
        return encodeChunks(records, recordsPerChunk: 5, keyframeInterval: 60_000)
    }()

    @Test func parityIsTheXorOfEachStripe() throws {
        let group = Self.chunks.prefix(12).flatMap { $0 }
        let bytes = group + parityChunk(of: group)
        let chunk = try LogParityChunk.read(bytes.span, at: group.count)
        #expect(chunk.width == LogParity.stripeWidth && chunk.coveredByteCount == group.count)
        #expect(chunk.groupStart == 0 && chunk.end == bytes.count)
        for stripe in 0..<chunk.width {
            var xor: UInt8 = 0
            for index in stride(from: stripe, to: group.count, by: chunk.width) { xor ^= group[index] }
            #expect(bytes[chunk.parityOffset + stripe] == xor)
        }
    }

    @Test func chunksAfterAParityChunkStillDecode() {
        // A parity chunk between two data chunks of one context is skipped; the context carries on.
        let first = Self.chunks[0] + Self.chunks[1]
        let log = first + parityChunk(of: first) + Self.chunks[2...].flatMap { $0 }
        let readout = readLog(log)
        #expect(readout.errors.isEmpty)
        #expect(readout.records.count == 120)
    }

    static let group: [UInt8] = Array(LogParityTests.chunks[0])
    static let good = group + parityChunk(of: group)
    static let at = group.count

    /// One change to a good parity chunk: the byte at `offset` (from the chunk's start, or from
    /// its end when negative) set to `value` (or its lowest bit flipped), the CRC made right
    /// again or not, or `cut` bytes taken off the end.
    struct Damage: Sendable, CustomTestStringConvertible {
        var what: String
        var offset = 0
        var value: UInt8?
        var recomputeCRC = true
        var cut = 0
        var expected: String
        var testDescription: String { what }

        func apply(_ bytes: inout [UInt8], chunkAt start: Int) {
            if cut > 0 { bytes.removeLast(cut); return }
            let index = offset >= 0 ? start + offset : bytes.count + offset
            bytes[index] = value ?? bytes[index] ^ 1
            if recomputeCRC { bytes = withCRC(bytes) }
        }
    }

    @Test(arguments: [
        Damage(what: "CRC", offset: -1, recomputeCRC: false, expected: "CRC mismatch"),
        Damage(what: "version 3", offset: 4, value: 3, expected: "unsupported version 3"),
        Damage(what: "version 7", offset: 4, value: 7, expected: "unsupported version 7"),
        Damage(what: "width 0", offset: 5, value: 0, expected: "value out of range"),
        Damage(what: "group before the bytes", offset: 6, value: 0x7F, expected: "value out of range"),
        Damage(what: "cut short", cut: 3, expected: "truncated"),
        Damage(what: "bad magic", offset: 3, value: 0x51, recomputeCRC: false, expected: "bad magic"),
    ])
    func brokenParityChunksAreErrors(_ damage: Damage) {
        var bytes = Self.good
        damage.apply(&bytes, chunkAt: Self.at)
        do throws(LogError) {
            _ = try LogParityChunk.read(bytes.span, at: Self.at)
            Issue.record("\(damage.what): read")
        } catch {
            #expect(error.description.hasPrefix(damage.expected), "\(damage.what): \(error.description)")
        }
        #expect(LogParityChunk.next(in: bytes.span, after: 0) == nil, "\(damage.what)")
    }

    @Test func nextSkipsFalseCandidates() throws {
        // Parity magic inside other bytes is no parity chunk: only one that passes its CRC counts.
        let decoy: [UInt8] = [0x89, 0x54, 0x4C, 0x50, 0x04, 0x20, 0x05, 0x00]
        let bytes = decoy + Self.good
        let next = LogParityChunk.next(in: bytes.span, after: 0)
        let found = try #require(next)
        #expect(found.offset == decoy.count + Self.at)
        #expect(LogParityChunk.next(in: bytes.span, after: found.offset) == nil)
    }
}

struct LogCourseTests {
    /// The records back from encoding `courses` as the courses of 1 Hz fixes.
    func roundTrip(_ courses: [Int32?]) -> (records: [LogRecord], decoded: [LogRecord], bytes: Int) {
        let records = courses.enumerated().map { LogSamples.fix(Int64($0.offset), course: $0.element) }
        let chunks = encodeChunks(records, recordsPerChunk: 5)
        return (records, readLog(chunks.flatMap { $0 }).records, chunks.reduce(0) { $0 + $1.count })
    }

    @Test(arguments: [
        [0, 100, 35_900, 0, 200] as [Int32?],          // whole degrees, across north both ways
        [8_440, 8_441, nil, 8_400, 35_999],             // fractions of a degree: centidegree steps
        [-100, 36_000, .min, .max, 0, 17_950],           // outside 0…35,999: any value round-trips
        [35_900, 100, 18_000, 0, 18_100, 35_900],         // steps of exactly ±180°
    ])
    func everyCourseRoundTrips(_ courses: [Int32?]) {
        let (records, decoded, _) = roundTrip(courses)
        #expect(decoded == records)
    }

    @Test func wholeDegreesCostLessThanCentidegrees() {
        // The daemon logs whole degrees: steps in degrees, a few bits less per fix than the same
        // course one centidegree off.
        let turning = (0..<200).map { Int32($0 * 700 % 36_000) }
        let whole = roundTrip(turning)
        let fractional = roundTrip(turning.map { $0 + 1 })
        #expect(whole.decoded == whole.records && fractional.decoded == fractional.records)
        #expect(whole.bytes * 100 < fractional.bytes * 90, "\(whole.bytes) vs \(fractional.bytes) bytes")
    }
}
