import Testing
import TrackCore

struct CRCVector: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let crc: UInt32
    var testDescription: String { name }
}

// RFC 3720 appendix B.4 and the common check value of "123456789".
private let crcVectors: [CRCVector] = [
    CRCVector(name: "empty", bytes: [], crc: 0),
    CRCVector(name: "123456789", bytes: Array("123456789".utf8), crc: 0xE306_9283),
    CRCVector(name: "32 zeros", bytes: [UInt8](repeating: 0, count: 32), crc: 0x8A91_36AA),
    CRCVector(name: "32 x FF", bytes: [UInt8](repeating: 0xFF, count: 32), crc: 0x62A8_AB43),
    CRCVector(name: "0...31", bytes: (0..<32).map { UInt8($0) }, crc: 0x46DD_794E),
    CRCVector(name: "31...0", bytes: (0..<32).map { UInt8(31 - $0) }, crc: 0x113F_DB5C),
]

private let varintCases: [(UInt64, [UInt8])] = [
    (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
    (16_383, [0xFF, 0x7F]), (16_384, [0x80, 0x80, 0x01]),
    (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
]

private let zigzagCases: [(Int64, UInt64)] = [
    (0, 0), (-1, 1), (1, 2), (-2, 3), (63, 126), (-64, 127), (64, 128),
    (Int64.max, UInt64.max - 1), (Int64.min, UInt64.max),
]

private let badVarints: [([UInt8], LogError)] = [
    ([], .truncated(offset: 0)),
    ([0x80], .truncated(offset: 1)),
    ([0xFF, 0xFF, 0xFF], .truncated(offset: 3)),
    // 64 bits overflow: a 10th byte above 1.
    ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], .malformedVarint(offset: 0)),
    // Eleven bytes.
    ([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00], .malformedVarint(offset: 0)),
]

private let roundTripCases: [(String, LogRecord)] = [
    ("fix, all fields", LogSamples.fix(0)),
    ("fix, no optionals, 2D", LogSamples.fix(0, altitude: nil, speed: nil, course: nil, accuracy: nil, mode: .twoD)),
    ("fix, zero optionals are not absent", LogSamples.fix(0, altitude: 0, speed: 0, course: 0, accuracy: 0)),
    ("fix, extremes", .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: .min),
                                  position: LogPosition(latitudeE7: .min, longitudeE7: .max),
                                  altitudeDecimetres: .min, speedCentimetresPerSecond: .max,
                                  courseCentidegrees: 35_999, accuracyDecimetres: .max, mode: .noFix))),
    ("fix before 1970", .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: -1), position: LogSamples.munich, mode: .unknown))),
    ("waypoint with label", .waypoint(time: LogSamples.t0, position: LogSamples.munich, label: LogLabel("camp 2 ⛺")!)),
    ("waypoint, empty label", .waypoint(time: LogSamples.t0, position: LogSamples.munich, label: LogLabel())),
    ("waypoint, 64-byte label", .waypoint(time: LogSamples.t0, position: LogSamples.munich,
                                          label: LogLabel(String(repeating: "x", count: 64))!)),
    ("fence enter", .fenceEvent(time: LogSamples.t0, fenceID: 0, kind: .enter, position: LogSamples.munich)),
    ("fence dwell, large id", .fenceEvent(time: LogSamples.t0, fenceID: .max, kind: .dwell, position: LogSamples.munich)),
    ("permission change", .permissionChange(time: LogSamples.t0, old: .notDetermined, new: .always)),
    ("boot marker", .bootMarker(time: LogSamples.t0, bootID: 0xDEAD_BEEF_0123_4567)),
    ("gap", .gap(from: LogSamples.t0, to: UTCTime(millisecondsSinceEpoch: LogSamples.t0.millisecondsSinceEpoch + 3_600_000))),
    ("gap, backwards extreme", .gap(from: UTCTime(millisecondsSinceEpoch: .max), to: UTCTime(millisecondsSinceEpoch: .min))),
]

struct LogCodecTests {
    @Test(arguments: crcVectors)
    func crc32cVector(_ vector: CRCVector) {
        #expect(CRC32C.checksum(of: vector.bytes.span, 0..<vector.bytes.count) == vector.crc)
        // The same in two pieces.
        var crc = CRC32C()
        let half = vector.bytes.count / 2
        crc.update(vector.bytes.span, 0..<half)
        crc.update(vector.bytes.span, half..<vector.bytes.count)
        #expect(crc.value == vector.crc)
    }

    @Test func crc32cOfLiteral() {
        #expect(CRC32C.checksum(of: "123456789") == 0xE306_9283)
    }

    @Test(arguments: varintCases)
    func varintBytes(_ value: UInt64, _ expected: [UInt8]) throws {
        var buffer = [UInt8](repeating: 0xEE, count: 12)
        var span = buffer.mutableSpan
        let end = Varint.write(value, to: &span, at: 1, limit: 12)
        #expect(end == 1 + expected.count)
        #expect(Array(buffer[1..<(1 + expected.count)]) == expected)
        #expect(Varint.byteCount(value) == expected.count)
        let (decoded, next) = try Varint.read(buffer.span, at: 1, end: 12)
        #expect(decoded == value && next == 1 + expected.count)
        // One byte short of room writes nothing.
        let shortCount = expected.count - 1
        var small = [UInt8](repeating: 0xEE, count: shortCount)
        var smallSpan = small.mutableSpan
        #expect(Varint.write(value, to: &smallSpan, at: 0, limit: shortCount) == nil)
        #expect(small.allSatisfy { $0 == 0xEE })
    }

    @Test(arguments: zigzagCases)
    func zigzag(_ value: Int64, _ encoded: UInt64) {
        #expect(Varint.zigzag(value) == encoded)
        #expect(Varint.unzigzag(encoded) == value)
    }

    @Test(arguments: badVarints)
    func varintRejects(_ bytes: [UInt8], _ error: LogError) {
        #expect(throws: error) { try Varint.read(bytes.span, at: 0, end: bytes.count) }
    }

    @Test(arguments: roundTripCases)
    func roundTripOne(_ name: String, _ record: LogRecord) throws {
        // Alone, and after a fix so that deltas from a real predictor are exercised too.
        for records in [[record], [LogSamples.fix(-1), record, record]] {
            let chunks = encodeChunks(records)
            #expect(chunks.count == 1)
            #expect(try decodeChunk(chunks[0]).get() == records)
            // And in a data chunk after a keyframe.
            let split = encodeChunks([LogSamples.fix(-2)] + records, recordsPerChunk: 1)
            #expect(readLog(split.flatMap { $0 }) == LogReadout(records: [LogSamples.fix(-2)] + records))
        }
    }

    @Test func labelLimits() {
        #expect(LogLabel(String(repeating: "é", count: 32)) != nil)
        #expect(LogLabel(String(repeating: "é", count: 32) + "x") == nil)
        #expect(LogLabel("camp 2")?.string == "camp 2")
    }

    @Test func positionFromCoordinateRounds() {
        let position = LogPosition(Coordinate(latitudeNanodegrees: 48_117_300_050, longitudeNanodegrees: -11_516_700_049))
        #expect(position == LogPosition(latitudeE7: 481_173_001, longitudeE7: -115_167_000))
        #expect(position.coordinate.latitudeNanodegrees == 48_117_300_100)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func roundTripRandomSequences(_ seed: UInt64) throws {
        var g = SplitMix64(seed: seed)
        var previous = LogFix(time: LogSamples.t0, position: LogSamples.munich, mode: .threeD)
        let records = (0..<3_000).map { _ in LogSamples.random(&g, after: &previous) }
        // A small buffer so that many chunks are sealed on "full", syncs of a few records, and
        // keyframes every 20 s of record time (the random times also jump backwards).
        let chunks = encodeChunks(records, bufferSize: LogChunkFormat.minimumBufferByteCount + Int(seed) * 97, recordsPerChunk: Int(seed) * 3,
                                  keyframeInterval: 20_000)
        #expect(chunks.count > 10)
        var reader = LogChunkReader()
        var decoded: [LogRecord] = []
        for (index, chunk) in chunks.enumerated() {
            let header = try reader.open(chunk.span, at: 0)
            #expect(header.byteCount == chunk.count)
            if header.isKeyframe { #expect(header.sequence == UInt32(index)) }
            while let record = try reader.next(chunk.span) { decoded.append(record) }
        }
        #expect(readLog(chunks.flatMap { $0 }).records == records)
        #expect(decoded == records)
    }
}
