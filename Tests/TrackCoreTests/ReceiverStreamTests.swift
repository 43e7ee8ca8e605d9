import Foundation
import Testing
@testable import TrackCore

/// The receiver stream: NMEA through `NMEAReceiver` unchanged, UBX frames lifted out.
enum StreamSupport {
    /// What the stream makes of `bytes` fed in chunks of `chunk`: fixes, replies, NMEA counters.
    static func run(_ bytes: [UInt8], chunk: Int = 4096) -> (fixes: [Fix], replies: [ReceiverReply], counters: NMEACounters) {
        var stream = ReceiverStream()
        var fixes: [Fix] = []
        var replies: [ReceiverReply] = []
        func take(_ event: ReceiverEvent) {
            switch event {
            case .fix: fixes.append(stream.fix)
            case .reply: replies.append(stream.reply)
            }
        }
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let part = UnsafeRawBufferPointer(rebasing: raw[start..<min(start + chunk, raw.count)])
                var offset = 0
                while let event = stream.next(part, from: &offset) { take(event) }
                start += chunk
            }
        }
        stream.flush()
        var offset = 0
        while let event = stream.next(UnsafeRawBufferPointer(start: nil, count: 0), from: &offset) { take(event) }
        if let fix = stream.finish() { fixes.append(fix) }
        return (fixes, replies, stream.nmea.counters)
    }

    /// The oracle: `bytes` less every good UBX frame's bytes after its `B5`, and those frames'
    /// message ids, found by a plain scan (a `B5` is tried wherever the NMEA side would see it).
    static func withoutFrames(_ bytes: [UInt8]) -> (nmea: [UInt8], frames: [UBXMessageID]) {
        var kept: [UInt8] = []
        var frames: [UBXMessageID] = []
        var index = 0
        while index < bytes.count {
            kept.append(bytes[index])
            if bytes[index] == 0xB5, let length = frameLength(bytes, at: index + 1) {
                frames.append(UBXMessageID(bytes[index + 2], bytes[index + 3]))
                index += 1 + length
            } else {
                index += 1
            }
        }
        return (kept, frames)
    }

    /// The length of a good frame after a `B5` at `start` (62 … CK_B), nil when there is none.
    static func frameLength(_ bytes: [UInt8], at start: Int) -> Int? {
        guard start + 5 <= bytes.count, bytes[start] == 0x62 else { return nil }
        let length = Int(bytes[start + 3]) | Int(bytes[start + 4]) << 8
        guard length <= 512, start + 7 + length <= bytes.count else { return nil }
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in bytes[(start + 1)..<(start + 5 + length)] {
            a &+= byte
            b &+= a
        }
        guard bytes[start + 5 + length] == a, bytes[start + 6 + length] == b else { return nil }
        return 7 + length
    }

    static let ackCfgMsg: [UInt8] = [0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x01, 0x0F, 0x38]
    static let nakCfgRate = frame(UBXMessageID.ackNak, [0x06, 0x08])

    /// A UBX frame of `id` with `payload`, its length and checksum worked out here.
    static func frame(_ id: UBXMessageID, _ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0xB5, 0x62, id.messageClass, id.id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)]
            + payload
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in frame[2...] {
            a &+= byte
            b &+= a
        }
        frame += [a, b]
        return frame
    }

    static let epochs: [UInt8] = [
        "GPRMC,092751.000,A,5321.6802,N,00630.3371,W,0.06,31.66,280511,,,A",
        "GPGGA,092751.000,5321.6802,N,00630.3371,W,1,8,1.03,61.7,M,55.3,M,,",
        "GPRMC,092752.000,A,5321.6803,N,00630.3372,W,0.06,31.66,280511,,,A",
        "GPGGA,092752.000,5321.6803,N,00630.3372,W,1,8,1.03,61.8,M,55.3,M,,",
        "GPRMC,092753.000,A,5321.6804,N,00630.3373,W,0.06,31.66,280511,,,A",
        "GPGGA,092753.000,5321.6804,N,00630.3373,W,1,8,1.03,61.9,M,55.3,M,,",
    ].flatMap(nmeaLine)
}

@Suite("Receiver stream")
struct ReceiverStreamTests {
    @Test("without UBX frames the stream is NMEAReceiver, in any chunking", arguments: [1, 7, 4096])
    func goldenFixturesAreUnchanged(chunk: Int) throws {
        for name in GoldenFixtures.names() {
            let input = GoldenFixtures.stripComments(try GoldenFixtures.load(name + ".nmea"))
            let plain = receive(input)
            let split = StreamSupport.run(input, chunk: chunk)
            #expect(split.fixes == plain.fixes, "\(name)")
            #expect(split.counters == plain.counters, "\(name)")
        }
    }

    @Test("gpsd's captures give the same fixes and counters through the stream",
          .enabled(if: NMEACaptureChunkingTests.captures != nil, "../shared/data/gpsd-regress is absent"))
    func capturesAreUnchanged() throws {
        let directory = try #require(NMEACaptureChunkingTests.captures)
        let logs = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "log" }
        #expect(logs.count > 10)
        for log in logs {
            let bytes = Array(try Data(contentsOf: log))
            let plain = receive(bytes)
            for chunk in [5, 4096] {
                let split = StreamSupport.run(bytes, chunk: chunk)
                #expect(split.fixes == plain.fixes, "\(log.lastPathComponent) in chunks of \(chunk)")
                #expect(split.counters == plain.counters, "\(log.lastPathComponent) in chunks of \(chunk)")
            }
        }
    }

    @Test("frames between sentences are lifted out and read", arguments: [1, 3, 4096])
    func framesBetweenSentences(chunk: Int) {
        let lines = StreamSupport.epochs
        let cut = lines.firstIndex(of: 0x0A)! + 1
        let input = Array(lines[..<cut]) + StreamSupport.ackCfgMsg + Array(lines[cut...]) + StreamSupport.nakCfgRate
        let split = StreamSupport.run(input, chunk: chunk)
        #expect(split.replies == [.ubxAcknowledged(.cfgMsg), .ubxRefused(.cfgRate)])
        let plain = receive(lines)
        #expect(split.fixes == plain.fixes)
        #expect(split.counters == plain.counters)
    }

    /// A frame right after a sentence's last byte (no line end) or cutting one: the sentence is
    /// lost as it would be to any byte that is not NMEA, the frame is read, nothing traps.
    @Test("a frame that cuts a sentence still reads")
    func frameCuttingASentence() {
        let lines = StreamSupport.epochs
        let input = Array(lines[0..<20]) + StreamSupport.ackCfgMsg + Array(lines[20...])
        let split = StreamSupport.run(input, chunk: 1)
        #expect(split.replies == [.ubxAcknowledged(.cfgMsg)])
        let oracle = StreamSupport.withoutFrames(input)
        #expect(split.fixes == receive(oracle.nmea).fixes)
        #expect(split.counters == receive(oracle.nmea).counters)
    }

    @Test("bytes after a B5 that are no frame go back to the NMEA framer", arguments: [
        [0xB5],  // a lone B5
        [0xB5, 0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x01, 0x0F, 0x38],  // B5 B5 then a good frame
        [0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x01, 0x0F, 0x39],  // bad CK_B
        [0xB5, 0x62, 0x05, 0x01, 0xFF, 0xFF],  // a length over 512
        [0xB5, 0x62, 0x01, 0x07, 0x30, 0x00],  // a frame cut by a sentence: `$` inside the payload
    ] as [[UInt8]])
    func notAFrame(_ prefix: [UInt8]) {
        for chunk in [1, 2, 4096] {
            let input = prefix + StreamSupport.epochs
            let split = StreamSupport.run(input, chunk: chunk)
            let oracle = StreamSupport.withoutFrames(input)
            #expect(split.fixes == receive(oracle.nmea).fixes, "\(prefix) in chunks of \(chunk)")
            #expect(split.counters == receive(oracle.nmea).counters, "\(prefix) in chunks of \(chunk)")
            #expect(split.replies.count == oracle.frames.count)
        }
    }

    @Test("PMTK, PAIR, Quectel and TXT replies come out; other proprietary sentences do not")
    func sentenceReplies() {
        let input = [
            "PMTK001,314,3", "PMTK001,-1,0", "PMTK705,AXN_2.51_3339_19071200,0002,QUECTEL-L70,1.0", "PMTK010,002",
            "PMTK011,MTKGPS", "PMTKCHN,21422,28522", "PAIR001,050,1", "PAIR001,864,3",
            "PQVERNO,R,L70BGR03A05S,2019/10/09,21:12", "PQTMVERNO,LC29HEANR11A03S,2023/07/14,14:45:13",
            "GPTXT,01,01,02,u-blox ag - www.u-blox.com", "PUBX,00,081350.00", "PGRME,15.0,M,45.0,M,25.0,M",
        ].flatMap(nmeaLine) + StreamSupport.epochs
        let split = StreamSupport.run(input, chunk: 9)
        #expect(split.replies == [
            .pmtkAcknowledgement(command: 314, flag: .done), .pmtkAcknowledgement(command: -1, flag: .invalid),
            .pmtkRelease(ReplyText("AXN_2.51_3339_19071200,0002,QUECTEL-L70,1.0")), .pmtkSystem(2),
            .pmtkText(ReplyText("MTKGPS")), .pmtkMessage(nil),
            .pairAcknowledgement(command: 50, result: .inProgress), .pairAcknowledgement(command: 864, result: .unsupported),
            .quectelVersion(ReplyText("R,L70BGR03A05S,2019/10/09,21:12")),
            .quectelPairVersion(ReplyText("LC29HEANR11A03S,2023/07/14,14:45:13")),
            .text(ReplyText("u-blox ag - www.u-blox.com")),
        ])
        #expect(split.fixes == receive(input).fixes)
        #expect(split.counters == receive(input).counters)
    }

    @Test("malformed replies are not replies", arguments: [
        "PMTK001,abc,3", "PMTK001,314", "PMTK010,x", "PAIR001,50", "PAIR001,-5,0", "PMTK001,314,300",
    ])
    func malformedReplies(_ body: String) {
        #expect(StreamSupport.run(nmeaLine(body)).replies == [])
    }

    /// Seeded soup of sentences, good frames, broken frames and noise: the NMEA side always gets
    /// exactly the input less the good frames, in any chunking, and every good frame is read.
    @Test("byte soup with frames matches the oracle", arguments: 0..<40)
    func soup(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 7)
        var input: [UInt8] = []
        let pieces: [[UInt8]] = [
            StreamSupport.epochs, StreamSupport.ackCfgMsg, StreamSupport.nakCfgRate, UBXCommands.versionPoll.bytes,
            nmeaLine("PMTK001,220,3"), [0xB5], [0xB5, 0x62], Array("$GPGGA,1*".utf8),
        ]
        for _ in 0..<random.int(5...30) {
            switch random.int(0...4) {
            case 0: input += random.pick(pieces)
            case 1:
                var piece = random.pick(pieces)
                if !piece.isEmpty { piece[random.int(0...piece.count - 1)] ^= UInt8(1) << UInt8(random.int(0...7)) }
                input += piece
            case 2: for _ in 0..<random.int(1...40) { input.append(UInt8(truncatingIfNeeded: random.next())) }
            default: input += StreamSupport.epochs
            }
        }
        let oracle = StreamSupport.withoutFrames(input)
        let expected = receive(oracle.nmea)
        for chunk in [1, random.int(2...64), 4096] {
            let split = StreamSupport.run(input, chunk: chunk)
            #expect(split.fixes == expected.fixes, "seed \(seed) chunk \(chunk)")
            #expect(split.counters == expected.counters, "seed \(seed) chunk \(chunk)")
            #expect(split.replies.count >= oracle.frames.count, "seed \(seed) chunk \(chunk)")
        }
    }
}

@Suite("UBX frame reader")
struct UBXFrameReaderTests {
    func read(_ bytes: [UInt8]) -> [UBXFrameStep] {
        var reader = UBXFrameReader()
        reader.begin()
        return bytes.dropFirst().map { reader.consume($0) }
    }

    @Test func aGoodFrame() {
        let steps = read(StreamSupport.ackCfgMsg)
        #expect(steps.last == .frame)
        #expect(steps.dropLast().allSatisfy { $0 == .more })
    }

    @Test("what is not a frame says why", arguments: [
        ([0xB5, 0x63], UBXFrameError.notSynchronised),
        ([0xB5, 0x62, 0x01, 0x07, 0x01, 0x02], .tooLong(513)),
        ([0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x01, 0x0E], .badChecksum),
        ([0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x01, 0x0F, 0x37], .badChecksum),
    ] as [([UInt8], UBXFrameError)])
    func rejections(_ bytes: [UInt8], _ error: UBXFrameError) {
        #expect(read(bytes).last == .rejected(error))
    }

    @Test("MON-VER reads software, hardware, protocol version and module")
    func monVer() {
        func field(_ text: String, _ width: Int) -> [UInt8] { Array(text.utf8) + Array(repeating: 0, count: width - text.utf8.count) }
        let payload = field("ROM CORE 3.01 (107888)", 30) + field("00080000", 10) + field("FWVER=SPG 3.01", 30)
            + field("PROTVER=18.00", 30) + field("MOD=NEO-M8N-0", 30)
        let replies = StreamSupport.run(StreamSupport.frame(.monVer, payload)).replies
        #expect(replies == [.ubxVersion(UBXVersion(software: ReplyText("ROM CORE 3.01 (107888)"), hardware: ReplyText("00080000"),
                                                   protocolVersionHundredths: 1800, module: ReplyText("NEO-M8N-0")))])
    }
}

@Suite("Receiver fuzz seeds")
struct ReceiverFuzzSeedTests {
    @Test("the fuzz target's seeds read as their headers say", arguments: [
        ("ubx-acks-between-sentences", 2), ("ubx-mon-ver", 3), ("pmtk-pair-replies", 11),
    ] as [(String, Int)])
    func seeds(_ name: String, _ replies: Int) throws {
        let bytes = try FuzzFixtures.load("receiver", name)
        let split = StreamSupport.run(bytes)
        #expect(split.replies.count == replies, "\(name): \(split.replies)")
        let oracle = StreamSupport.withoutFrames(bytes)
        #expect(split.fixes == receive(oracle.nmea).fixes)
    }
}

@Suite("Receiver fuzz regressions")
struct ReceiverFuzzRegressionTests {
    @Test(arguments: [1, 64, 4096])
    func givenBackFrameCutByAFrame(chunk: Int) throws {
        let bytes = try FuzzFixtures.load("receiver", "given-back-frame-cut-by-a-frame")
        let split = StreamSupport.run(bytes, chunk: chunk)
        let oracle = StreamSupport.withoutFrames(bytes)
        let expected = receive(oracle.nmea)
        #expect(split.fixes == expected.fixes)
        #expect(split.counters == expected.counters)
        #expect(split.replies.filter { if case .ubxAcknowledged = $0 { true } else if case .ubxRefused = $0 { true } else { false } }.count
            <= oracle.frames.count)
    }
}
