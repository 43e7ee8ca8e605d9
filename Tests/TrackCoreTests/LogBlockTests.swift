import Testing
import TrackCore

/// A short realistic block: 1 Hz fixes with a waypoint and a fence event between them.
private let sampleRecords: [LogRecord] = [
    .bootMarker(time: LogSamples.t0, bootID: 42),
    LogSamples.fix(0), LogSamples.fix(1), LogSamples.fix(2, speed: nil),
    .waypoint(time: LogSamples.t0, position: LogSamples.munich, label: LogLabel("pin")!),
    LogSamples.fix(3, LogPosition(latitudeE7: 481_173_400, longitudeE7: 115_167_300)),
    .fenceEvent(time: LogSamples.t0, fenceID: 3, kind: .exit, position: LogSamples.munich),
    .gap(from: LogSamples.t0, to: LogSamples.t0),
]

private let sampleBlock = encodeBlocks(sampleRecords)[0]

struct LogBlockTests {
    @Test func headerFields() throws {
        let blocks = encodeBlocks(sampleRecords, sequence: 0xFFFF_FFFF)
        let block = blocks[0]
        let decoder = try BlockDecoder(block.span)
        #expect(decoder.header.sequence == 0xFFFF_FFFF)
        #expect(decoder.header.recordCount == sampleRecords.count)
        #expect(decoder.header.byteCount == blocks[0].count)
        #expect(Array(blocks[0][0..<5]) == [0x89, 0x54, 0x4C, 0x42, 1])
    }

    @Test func steadyFixesAreSmall() {
        // 1 Hz fixes standing still: once the interval is known, each further fix is the tag,
        // latitude, longitude and four unchanged optionals, one byte each.
        let nine = encodeBlocks((0..<9).map { LogSamples.fix(Int64($0)) })[0]
        let ten = encodeBlocks((0..<10).map { LogSamples.fix(Int64($0)) })[0]
        #expect(ten.count - nine.count == 7)
    }

    @Test func documentedExample() {
        // The example block of docs/log-format.md, byte for byte up to the CRC.
        let fix = LogRecord.fix(LogFix(time: UTCTime(millisecondsSinceEpoch: 1_750_507_289_000),
                                       position: LogPosition(latitudeE7: 394_079_483, longitudeE7: -3_234_795),
                                       altitudeDecimetres: 123, mode: .threeD))
        let block = encodeBlocks([fix])[0]
        #expect(Array(block[0..<15]) == [0x89, 0x54, 0x4C, 0x42, 1, 0, 0, 0, 0, 20, 0, 1, 0, 0xD0, 0xE6])
        #expect(Array(block[28..<33]) == [0x07, 0x00, 0x00, 0xF6, 0x01])
        #expect(block.count == 13 + 20 + 4)
    }

    @Test func sealOfEmptyBlockWritesNothing() {
        var buffer = [UInt8](repeating: 0, count: 256)
        var encoder = BlockEncoder(sequence: 5)
        var span = buffer.mutableSpan
        #expect(encoder.seal(&span) == 0)
        #expect(encoder.sequence == 5 && encoder.isEmpty)
    }

    @Test(arguments: [160, 161, 200, 333, 1024])
    func fullBufferSealsAndContinues(_ size: Int) throws {
        var buffer = [UInt8](repeating: 0, count: size)
        var encoder = BlockEncoder(sequence: 0)
        var records: [LogRecord] = []
        var blocks: [[UInt8]] = []
        for second in 0..<200 {
            let record = LogSamples.fix(Int64(second), LogPosition(latitudeE7: 481_173_000 + Int32(second * second),
                                                                    longitudeE7: 115_167_000 - Int32(second * 37)))
            records.append(record)
            var span = buffer.mutableSpan
            let before = encoder.writtenByteCount
            if encoder.append(record, to: &span) == .full {
                // Nothing changed, and the record really would not have fitted.
                #expect(encoder.writtenByteCount == before)
                let length = encoder.seal(&span)
                #expect(length <= size && length > 0)
                blocks.append(Array(buffer[0..<length]))
                var again = buffer.mutableSpan
                #expect(encoder.append(record, to: &again) == .appended)
            }
        }
        var span = buffer.mutableSpan
        let length = encoder.seal(&span)
        blocks.append(Array(buffer[0..<length]))
        #expect(blocks.count > 1)
        #expect(try blocks.flatMap { try decodeBlock($0).get() } == records)
    }

    @Test func everyTruncationIsAnError() {
        // A torn tail: every prefix shorter than the block.
        for length in 0..<sampleBlock.count {
            let prefix = Array(sampleBlock[0..<length])
            #expect(decodeBlock(prefix) == .failure(.truncated(offset: length)), "prefix of \(length) bytes")
        }
        #expect(decodeBlock(sampleBlock) == .success(sampleRecords))
    }

    @Test func everyCorruptedByteIsAnError() throws {
        let crcOffset = sampleBlock.count - 4
        for offset in 0..<sampleBlock.count {
            for flip in [0x01, 0x80, 0xFF] as [UInt8] {
                var bytes = sampleBlock
                bytes[offset] ^= flip
                let result = decodeBlock(bytes)
                guard case .failure(let error) = result else {
                    Issue.record("flip \(flip) at \(offset) decoded")
                    continue
                }
                // Each error names an offset inside the block; body flips are caught by the CRC.
                #expect(error.offset >= 0 && error.offset <= bytes.count)
                switch offset {
                case 0..<4: #expect(error == .badMagic(offset: 0))
                case 4: #expect(error == .unsupportedVersion(1 ^ flip, offset: 4))
                case 9..<11: #expect(error == .truncated(offset: bytes.count) || { if case .crcMismatch = error { true } else { false } }())
                default:
                    guard case .crcMismatch(_, _, let at) = error else { Issue.record("\(error) at \(offset)"); continue }
                    #expect(at == crcOffset)
                }
            }
        }
    }

    @Test func blocksFollowEachOther() throws {
        // Two blocks back to back, the first one damaged: the reader skips to the next magic.
        var bytes = sampleBlock
        bytes[20] ^= 0x10
        bytes += encodeBlocks([LogSamples.fix(9)], sequence: 1)[0]
        #expect(throws: LogError.self) { try BlockDecoder(bytes.span, at: 0) }
        let found = LogBlockFormat.nextMagic(in: bytes.span, from: 1)
        let next = try #require(found)
        #expect(next == sampleBlock.count)
        #expect(try decodeBlock(bytes, at: next).get() == [LogSamples.fix(9)])
    }

    @Test(arguments: [
        ([0x00, 0x00, 0x00, 0x81], 1, LogError.truncated(offset: 17)),
        ([0x00, 0x00, 0x00, 0x86], 1, LogError.unknownRecordKind(0x86, offset: 16)),
        ([0x00, 0x00, 0x00, 0x00, 0x00, 0x00], 2, LogError.recordCountMismatch(offset: 19)),
        ([0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], 1, LogError.recordCountMismatch(offset: 19)),
        ([0x00, 0x00, 0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00], 1, LogError.valueOutOfRange(offset: 22)),
        ([0x00, 0x00, 0x00, 0x81, 0x00, 0x00, 0x00, 65], 1, LogError.valueOutOfRange(offset: 20)),
        ([0x00, 0x00, 0x00, 0x82, 0x00, 0x00, 0x03, 0x00, 0x00], 1, LogError.valueOutOfRange(offset: 19)),
        ([0x00, 0x00, 0x00, 0x83, 0x00, 0x05, 0x00], 1, LogError.valueOutOfRange(offset: 18)),
        ([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], 1, LogError.malformedVarint(offset: 15)),
    ] as [([UInt8], Int, LogError)])
    func badPayloadsWithGoodCRC(_ payload: [UInt8], _ count: Int, _ error: LogError) {
        #expect(decodeBlock(handMadeBlock(payload: payload, count: count)) == .failure(error))
    }

    @Test func randomBytesNeverTrap() {
        var g = SplitMix64(seed: 0x10C0DEC)
        for round in 0..<20_000 {
            var bytes = (0..<Int.random(in: 0..<80, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
            // Half the time a valid header and CRC around the soup, to reach the record decoder.
            if round % 2 == 0 { bytes = handMadeBlock(payload: bytes, count: Int.random(in: 0...6, using: &g)) }
            switch decodeBlock(bytes) {
            case .success(let records): #expect(round % 2 == 0 && records.count <= 6)
            case .failure(let error): #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
        }
    }
}
