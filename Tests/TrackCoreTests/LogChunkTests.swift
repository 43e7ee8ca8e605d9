import Testing
@testable import TrackCore

/// A short realistic context: 1 Hz fixes with a waypoint and a fence event between them.
private let sampleRecords: [LogRecord] = [
    .bootMarker(time: LogSamples.t0, bootID: 42),
    LogSamples.fix(0), LogSamples.fix(1), LogSamples.fix(2, speed: nil),
    .waypoint(time: LogSamples.t0, position: LogSamples.munich, label: LogLabel("pin")!),
    LogSamples.fix(3, LogPosition(latitudeE7: 481_173_400, longitudeE7: 115_167_300)),
    .fenceEvent(time: LogSamples.t0, fenceID: 3, kind: .exit, position: LogSamples.munich),
    .gap(from: LogSamples.t0, to: LogSamples.t0),
]

/// A keyframe's values, all 0: seven svarints.
private let zeroKeyframe = [UInt8](repeating: 0, count: 7)

/// A walk of 1 Hz fixes with some wobble, `count` seconds long.
private func walk(_ count: Int) -> [LogRecord] {
    (0..<count).map { (second: Int) -> LogRecord in
        let north: Int32 = Int32(second * 53 + (second % 7) * 3)
        let east: Int32 = Int32(second * 37 - (second % 5))
        let position = LogPosition(latitudeE7: 481_173_000 + north, longitudeE7: 115_167_000 - east)
        return LogSamples.fix(Int64(second), position, altitude: 5454 + Int32(second / 10), speed: 514 + Int32(second % 3))
    }
}

/// A log of chunks of 5 records, a keyframe every 20 s, and which chunks are keyframes.
private let walkRecords = walk(60)
private let walkChunks = encodeChunks(walkRecords, recordsPerChunk: 5, keyframeInterval: 20_000)

struct LogChunkTests {
    @Test func headerFields() throws {
        let chunks = encodeChunks(sampleRecords, sequence: 0xFFFF_FFFF)
        var reader = LogChunkReader()
        let first = chunks[0]
        let header = try reader.open(first.span, at: 0)
        #expect(header.sequence == 0xFFFF_FFFF && header.isKeyframe)
        #expect(header.byteCount == chunks[0].count)
        #expect(Array(chunks[0][0..<5]) == [0x89, 0x54, 0x4C, 0x4B, 5])
    }

    @Test func keyframesAndDataChunks() throws {
        // 12 chunks of 5 s; a keyframe at 0, 20 and 40 s; data chunks are their code and a check
        // of 16 to 23 bits that ends on a byte boundary.
        #expect(walkChunks.count == 12)
        var reader = LogChunkReader()
        var offset = 0
        let log = walkChunks.flatMap { $0 }
        for (index, chunk) in walkChunks.enumerated() {
            let header = try reader.open(log.span, at: offset)
            #expect(header.isKeyframe == (index % 4 == 0))
            #expect(header.sequence == (index % 4 == 0 ? UInt32(index) : nil))
            #expect(header.byteCount == chunk.count)
            if header.isKeyframe {
                #expect(header.payloadByteCount == chunk.count - 15)
            } else {
                #expect((2...3).contains(chunk.count - header.payloadByteCount))
            }
            while try reader.next(log.span) != nil {}
            offset = header.end
        }
        #expect(readLog(log) == LogReadout(records: walkRecords))
    }

    @Test func steadyFixesCostAFractionOfABit() {
        // Standing still at 1 Hz: once the probabilities have adapted, each of a fix's nine
        // decisions (a fix, same flags, and "no change" for time, latitude, longitude and the
        // four optionals) costs log2(4096 / 4081) ≈ 0.005 bits: 100 more fixes, about 5 bits.
        let short = encodeChunks((0..<200).map { LogSamples.fix(Int64($0)) }, keyframeInterval: .max)[0]
        let long = encodeChunks((0..<300).map { LogSamples.fix(Int64($0)) }, keyframeInterval: .max)[0]
        #expect(long.count - short.count <= 1)
        // A fix that moves costs real bits again.
        let moved = encodeChunks((0..<300).map { LogSamples.fix(Int64($0)) } + [LogSamples.fix(300, LogPosition(
            latitudeE7: 481_174_000, longitudeE7: 115_168_000))], keyframeInterval: .max)[0]
        #expect(moved.count - long.count >= 2)
    }

    @Test func documentedExample() {
        // The example of docs/log-format.md, byte for byte: a keyframe chunk with one fix, then
        // a data chunk with the next.
        let fix = LogRecord.fix(LogFix(time: UTCTime(millisecondsSinceEpoch: 1_750_507_289_000),
                                       position: LogPosition(latitudeE7: 394_079_483, longitudeE7: -3_234_795),
                                       altitudeDecimetres: 123, mode: .threeD))
        let next = LogRecord.fix(LogFix(time: UTCTime(millisecondsSinceEpoch: 1_750_507_290_000),
                                        position: LogPosition(latitudeE7: 394_079_490, longitudeE7: -3_234_790),
                                        altitudeDecimetres: 124, mode: .threeD))
        let chunks = encodeChunks([fix, next], recordsPerChunk: 1)
        // The data chunk is 22 bits of code (`18 7B` and the low 6 bits of `30`, as version 4
        // wrote them) and 18 bits of check: the low 18 bits of the CRC-32C of `18 7B 30`, 0x21622,
        // from bit 22 on.
        #expect(chunks == [
            [0x89, 0x54, 0x4C, 0x4B, 0x05, 0x00, 0x00, 0x00, 0x00, 0x17, 0x00,
             0xD0, 0xE6, 0xEB, 0xA5, 0xF2, 0x65, 0xF6, 0xB3, 0xE9, 0xF7, 0x02, 0xD5, 0xEF, 0x8A, 0x03,
             0x00, 0x00, 0x00, 0x00,
             0x82, 0xA3, 0xDF, 0x4D, 0xCD, 0xF6, 0xB5, 0x81],
            [0x18, 0x7B, 0xB0, 0x88, 0x85],
        ])
        #expect(LogDataCheck.bitCount(afterCode: 22) == 18)
        #expect(CRC32C.checksum(of: [UInt8]([0x18, 0x7B, 0x30]).span, 0..<3) & 0x3FFFF == 0x21622)
        #expect(readLog(chunks.flatMap { $0 }) == LogReadout(records: [fix, next]))
        // The parity chunk of those two chunks (45 bytes, 16 bytes of parity), as the writer puts
        // it before the next keyframe or at the end of the segment.
        var parity = LogParity()
        for chunk in chunks { parity.add(chunk.span) }
        var buffer = [UInt8](repeating: 0, count: parity.chunkByteCount)
        var span = buffer.mutableSpan
        #expect(parity.writeChunk(&span, at: 0) == 27)
        // Magic, version 5, width 16, 43 bytes covered; parity byte 0 is bytes 0 ^ 16 ^ 32
        // (0x89 ^ 0x65 ^ 0xDF = 0x33), byte 13 is bytes 13 ^ 29 (0xEB ^ 0x00); the CRC.
        #expect(buffer == [
            0x89, 0x54, 0x4C, 0x50, 0x05, 0x10, 0x2B,
            0x33, 0xEF, 0x32, 0x54, 0x47, 0x83, 0xCD, 0x94, 0x3A, 0x9C, 0x85, 0xD0, 0xE6, 0xEB, 0x27, 0x51,
            0x69, 0x43, 0x9A, 0x4A,
        ])
        #expect(readLog(chunks.flatMap { $0 } + buffer) == LogReadout(records: [fix, next]))
    }

    @Test(arguments: [
        // Format version 4: the data chunk is its code padded to a byte and the whole CRC-32C,
        // and the parity chunk says 4 (45 bytes covered).
        (4, [
            0x89, 0x54, 0x4C, 0x4B, 0x04, 0x00, 0x00, 0x00, 0x00, 0x17, 0x00,
            0xD0, 0xE6, 0xEB, 0xA5, 0xF2, 0x65, 0xF6, 0xB3, 0xE9, 0xF7, 0x02, 0xD5, 0xEF, 0x8A, 0x03,
            0x00, 0x00, 0x00, 0x00,
            0x82, 0xA3, 0xDF, 0x4D, 0xC4, 0xB7, 0x0E, 0x94,
            0x18, 0x7B, 0x30, 0x22, 0x16, 0xDE, 0x0E,
            0x89, 0x54, 0x4C, 0x50, 0x04, 0x10, 0x2D,
            0x33, 0xEF, 0x3B, 0x15, 0xFD, 0x96, 0xCD, 0x94, 0xBA, 0x36, 0x16, 0x0E, 0xE8, 0xEB, 0x27, 0x51,
            0xA2, 0x76, 0x40, 0x5C,
        ]),
        // Format version 3: as version 4 without the parity chunk; only the keyframe's version
        // byte and so its CRC differ.
        (3, [
            0x89, 0x54, 0x4C, 0x4B, 0x03, 0x00, 0x00, 0x00, 0x00, 0x17, 0x00,
            0xD0, 0xE6, 0xEB, 0xA5, 0xF2, 0x65, 0xF6, 0xB3, 0xE9, 0xF7, 0x02, 0xD5, 0xEF, 0x8A, 0x03,
            0x00, 0x00, 0x00, 0x00,
            0x82, 0xA3, 0xDF, 0x4D, 0xFB, 0x70, 0x2E, 0xFC,
            0x18, 0x7B, 0x30, 0x22, 0x16, 0xDE, 0x0E,
        ]),
    ] as [(Int, [UInt8])])
    func olderVersionsOfTheExampleStillRead(version: Int, bytes: [UInt8]) {
        // The documented example's two fixes as trackers wrote them in earlier versions.
        let readout = readLog(bytes)
        #expect(readout.errors.isEmpty)
        #expect(readout.records.count == 2)
        #expect(readout.records.last == LogRecord.fix(LogFix(
            time: UTCTime(millisecondsSinceEpoch: 1_750_507_290_000),
            position: LogPosition(latitudeE7: 394_079_490, longitudeE7: -3_234_790), altitudeDecimetres: 124,
            mode: .threeD)))
        #expect(LogParityChunk.next(in: bytes.span, after: 0)?.coveredByteCount == (version == 4 ? 45 : nil))
    }

    @Test func sealOfEmptyChunkWritesNothing() {
        var buffer = [UInt8](repeating: 0, count: LogChunkFormat.minimumBufferByteCount)
        var encoder = LogEncoder(sequence: 5)
        var span = buffer.mutableSpan
        #expect(encoder.sealChunk(&span) == 0)
        #expect(encoder.sequence == 5 && encoder.isEmpty && encoder.isKeyframe)
    }

    @Test func startKeyframeMakesTheNextChunkAKeyframe() throws {
        var buffer = [UInt8](repeating: 0, count: LogChunkFormat.minimumBufferByteCount)
        var encoder = LogEncoder(sequence: 0)
        var span = buffer.mutableSpan
        #expect(encoder.append(LogSamples.fix(0), to: &span) == .appended)
        encoder.startKeyframe()
        #expect(encoder.isKeyframe)
        _ = encoder.sealChunk(&span)
        #expect(encoder.isKeyframe)
        #expect(encoder.append(LogSamples.fix(1), to: &span) == .appended)
        _ = encoder.sealChunk(&span)
        #expect(!encoder.isKeyframe)
    }

    @Test(arguments: [1024, 1025, 1100, 1333, 4096])
    func fullBufferSealsAndContinues(_ size: Int) throws {
        var buffer = [UInt8](repeating: 0, count: size)
        var encoder = LogEncoder(sequence: 0, keyframeIntervalMilliseconds: 30_000)
        let records = walk(3_000)
        var log: [UInt8] = []
        for record in records {
            var span = buffer.mutableSpan
            let before = encoder.writtenByteCount
            if encoder.append(record, to: &span) == .full {
                // Nothing changed, and the record really would not have fitted.
                #expect(encoder.writtenByteCount == before)
                let length = encoder.sealChunk(&span)
                #expect(length <= size && length > 0)
                log += buffer[0..<length]
                var again = buffer.mutableSpan
                #expect(encoder.append(record, to: &again) == .appended)
            }
        }
        var span = buffer.mutableSpan
        log += buffer[0..<encoder.sealChunk(&span)]
        #expect(readLog(log) == LogReadout(records: records))
    }

    @Test func adversarialFixFitsAnEmptyChunkOfTheMinimumSize() {
        // Residuals of 2^19 down to 2^0, 40 fixes each, leave every exponent model expecting
        // "stop"; then a fix with every field at an extreme makes the longest codes they allow.
        var records: [LogRecord] = []
        var second: Int64 = 0
        for k in (0...19).reversed() {
            for step in 0..<40 {
                let swing = Int32(1 << k) * (step % 2 == 0 ? 1 : -1)
                second += 1 + Int64(step % 2) << k
                records.append(LogSamples.fix(second, LogPosition(latitudeE7: 400_000_000 + swing, longitudeE7: 100_000_000 - swing),
                                              altitude: 1_000 + swing, speed: 5_000 + swing, course: 9_000 + swing,
                                              accuracy: 50 + swing))
            }
        }
        records.append(.fix(LogFix(time: UTCTime(millisecondsSinceEpoch: .min),
                                   position: LogPosition(latitudeE7: .min, longitudeE7: .max),
                                   altitudeDecimetres: .min, speedCentimetresPerSecond: .max,
                                   courseCentidegrees: .min, accuracyDecimetres: .max, mode: .threeD)))
        let chunks = encodeChunks(records, bufferSize: LogChunkFormat.minimumBufferByteCount, keyframeInterval: .max)
        #expect(chunks.allSatisfy { $0.count <= LogChunkFormat.minimumBufferByteCount })
        #expect(readLog(chunks.flatMap { $0 }) == LogReadout(records: records))
    }

    @Test func everyTruncationLosesOnlyTheTornChunk() {
        // A torn tail: every prefix gives the records of the whole chunks before the cut.
        let log = walkChunks.flatMap { $0 }
        var ends: [Int] = [0]
        for chunk in walkChunks { ends.append(ends.last! + chunk.count) }
        for length in 0..<log.count {
            let whole = ends.lastIndex { $0 <= length }!
            let readout = readLog(Array(log[0..<length]))
            #expect(readout.records == Array(walkRecords[0..<(whole * 5)]), "prefix of \(length) bytes")
            #expect(readout.errors == (ends[whole] == length ? [] : [.truncated(offset: length)]), "prefix of \(length) bytes")
        }
    }

    @Test func everyCorruptedByteLosesAtMostItsKeyframeInterval() {
        // A damaged chunk loses its records and those of the data chunks after it up to the next
        // keyframe; every other record is read, and no record is ever altered.
        let log = walkChunks.flatMap { $0 }
        var owner: [Int] = []
        for (index, chunk) in walkChunks.enumerated() { owner += Array(repeating: index, count: chunk.count) }
        for offset in 0..<log.count {
            let damaged = owner[offset]
            let nextKeyframe = (damaged / 4 + 1) * 4
            let expected = Array(walkRecords[0..<(damaged * 5)]) + Array(walkRecords[min(nextKeyframe * 5, walkRecords.count)...])
            for flip in [0x01, 0x80, 0xFF] as [UInt8] {
                var bytes = log
                bytes[offset] ^= flip
                let readout = readLog(bytes)
                #expect(readout.records == expected, "flip \(flip) at \(offset)")
                #expect(!readout.errors.isEmpty)
                #expect(readout.errors.allSatisfy { $0.offset >= 0 && $0.offset <= bytes.count })
            }
        }
    }

    @Test func resynchronisesAfterGarbage() {
        // Garbage before the log and between two contexts: the reader skips it to the keyframe.
        let first = walkChunks[0..<4].flatMap { $0 }
        let second = walkChunks[4..<8].flatMap { $0 }
        let bytes: [UInt8] = [0x00, 0x89, 0x54, 0x4C, 0x4B, 0x13] + first + [0xC5, 0x89, 0x00] + second
        let readout = readLog(bytes)
        #expect(readout.records == Array(walkRecords[0..<40]))
        #expect(readout.errors.count >= 2)
    }

    @Test func halfReadChunkStillContinuesTheContext() throws {
        // Reading only the first record of each chunk: opening the next chunk reads the rest of
        // the previous one first, so every data chunk still decodes.
        let log = walkChunks.flatMap { $0 }
        var reader = LogChunkReader()
        var offset = 0
        var firsts: [LogRecord] = []
        while offset < log.count {
            let header = try reader.open(log.span, at: offset)
            if let record = try reader.next(log.span) { firsts.append(record) }
            offset = header.end
        }
        #expect(firsts == stride(from: 0, to: walkRecords.count, by: 5).map { walkRecords[$0] })
    }

    @Test func dataChunkStartingLikeAKeyframeIsRead() throws {
        // About one data chunk in 256 starts with the magic's first byte 0x89: the reader tries a
        // keyframe, fails, and reads it as the data chunk it is.
        var g = SplitMix64(seed: 0x89)
        var previous = LogFix(time: LogSamples.t0, position: LogSamples.munich, mode: .threeD)
        let records = (0..<4_000).map { _ in LogSamples.random(&g, after: &previous) }
        let chunks = encodeChunks(records, recordsPerChunk: 2, keyframeInterval: .max)
        let lookalikes = chunks.dropFirst().filter { $0[0] == 0x89 }.count
        #expect(lookalikes > 0)
        #expect(readLog(chunks.flatMap { $0 }) == LogReadout(records: records))
    }

    @Test func aParityChunkFailingItsCRCIsNeverReadAsDataChunk() throws {
        // The walk's first keyframe interval, its parity chunk, and the next keyframe chunk. Every
        // damage to the parity chunk's CRC keeps the reader from taking its bytes as a data chunk
        // with the short check of version 5 (the bit-rot runs found two that passed it).
        let group = Array(walkChunks[0..<4])
        var parity = LogParity()
        for chunk in group { parity.add(chunk.span) }
        var parityChunk = [UInt8](repeating: 0, count: parity.chunkByteCount)
        var span = parityChunk.mutableSpan
        _ = parity.writeChunk(&span, at: 0)
        let start = group.reduce(0) { $0 + $1.count }
        for index in parityChunk.count - 4..<parityChunk.count {
            for flip in 1...255 {
                var damaged = parityChunk
                damaged[index] ^= UInt8(flip)
                let log = group.flatMap { $0 } + damaged + walkChunks[4]
                var reader = LogChunkReader()
                var offset = 0
                while offset < start {
                    offset = try reader.open(log.span, at: offset).end
                    while try reader.next(log.span) != nil {}
                }
                #expect(throws: LogError.self) { _ = try reader.open(log.span, at: start) }
            }
        }
    }

    @Test func whichFailedHeadersAreTriedAsDataChunks() {
        // A data chunk whose code starts with a magic fails as a keyframe or parity chunk on
        // its header's fields, and is then read as data; one that failed only its CRC had a
        // whole header, so it is a damaged keyframe or parity chunk (version 5 on).
        #expect(!LogChunkReader.mayBeDataChunk(after: .crcMismatch(computed: 1, found: 2, offset: 9), version: 5))
        #expect(LogChunkReader.mayBeDataChunk(after: .crcMismatch(computed: 1, found: 2, offset: 9), version: 4))
        #expect(LogChunkReader.mayBeDataChunk(after: .unsupportedVersion(0x3A, offset: 4), version: 5))
        #expect(LogChunkReader.mayBeDataChunk(after: .badMagic(offset: 0), version: 5))
        #expect(LogChunkReader.mayBeDataChunk(after: .valueOutOfRange(offset: 7), version: 5))
    }

    @Test func truncatedChunkCanBeOpenedAgainWithMoreBytes() throws {
        // A reader holding only part of the log: every cut inside a data chunk is `.truncated`,
        // and the same reader then opens that chunk in the whole log and reads on.
        let log = walkChunks.flatMap { $0 }
        let secondStart = walkChunks[0].count
        let secondEnd = secondStart + walkChunks[1].count
        for cut in secondStart..<secondEnd {
            var reader = LogChunkReader()
            let prefix = Array(log[0..<cut])
            let first = try reader.open(prefix.span, at: 0)
            while try reader.next(prefix.span) != nil {}
            #expect(throws: LogError.truncated(offset: cut)) { try reader.open(prefix.span, at: first.end) }
            let header = try reader.open(log.span, at: first.end)
            var records: [LogRecord] = []
            while let record = try reader.next(log.span) { records.append(record) }
            #expect(header.end == secondEnd && records == Array(walkRecords[5..<10]), "cut at \(cut)")
        }
    }

    @Test func dataChunkWithoutKeyframeIsRefused() {
        var reader = LogChunkReader()
        let chunk = walkChunks[1]
        #expect(throws: LogError.missingKeyframe(offset: 0)) { try reader.open(chunk.span, at: 0) }
    }

    // At even odds the arithmetic code's decisions are the payload's bits in stream order, so
    // the first records can be written by hand: bit 0 of byte 0 first.
    @Test(arguments: [
        // Keyframe values all 0 (7 svarints), then "not a fix" (1) and kind 5 (`101`).
        (zeroKeyframe + [0x0B], LogError.unknownRecordKind(5, offset: 18)),
        // A fix (0), same flags (0), time residual ≠ 0 (1), positive (0), then all ones: an
        // exponent of 63 and a magnitude of 2^64 − 1, which no Int64 holds.
        (zeroKeyframe + [0xF4] + [UInt8](repeating: 0xFF, count: 24), LogError.malformedPayload(offset: 18)),
        // A boot marker (`1`, `011`, time length 0) in a payload of two bytes: its 64-bit id
        // would be read far past the payload's end.
        (zeroKeyframe + [0x0D, 0x00], LogError.malformedPayload(offset: 20)),
        // A keyframe time varint running past the payload.
        ([0x80, 0x80], LogError.truncated(offset: 13)),
        // Waypoint (`1`, `000`), time, latitude, longitude lengths 0 (21 zero bits), then a
        // label length of 65 (`1000001`).
        (zeroKeyframe + [0x01, 0x00, 0x00, 0x82], LogError.valueOutOfRange(offset: 21)),
    ] as [([UInt8], LogError)])
    func badPayloadsWithGoodCRC(_ payload: [UInt8], _ error: LogError) {
        #expect(decodeChunk(handMadeKeyframe(payload: payload)) == .failure(error))
    }

    @Test func randomBytesNeverTrap() {
        var g = SplitMix64(seed: 0x10C0DEC)
        for round in 0..<20_000 {
            var bytes = (0..<Int.random(in: 1..<80, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
            // Half the time a valid header and CRC around the soup, to reach the record decoder.
            if round % 2 == 0 { bytes = handMadeKeyframe(payload: bytes) }
            let readout = readLog(bytes)
            #expect(readout.errors.allSatisfy { $0.offset >= 0 && $0.offset <= bytes.count })
            if round % 2 == 1 { #expect(readout.records.isEmpty || bytes.count > 15) }
        }
    }
}
