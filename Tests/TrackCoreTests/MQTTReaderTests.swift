import Testing
import TrackCore

@Suite struct MQTTReaderTests {
    static let golden: [(String, MQTTPacket)] = [
        ("20 02 00 00", .connectAcknowledgement(sessionPresent: false, returnCode: .accepted)),
        ("20 02 01 00", .connectAcknowledgement(sessionPresent: true, returnCode: .accepted)),
        ("20 02 00 04", .connectAcknowledgement(sessionPresent: false, returnCode: .badUserNameOrPassword)),
        ("20 02 00 05", .connectAcknowledgement(sessionPresent: false, returnCode: .notAuthorized)),
        ("40 02 00 07", .publishAcknowledgement(packetID: 7)),
        ("40 02 FF FF", .publishAcknowledgement(packetID: 65_535)),
        ("50 02 00 08", .publishReceived(packetID: 8)),
        ("62 02 00 08", .publishRelease(packetID: 8)),
        ("70 02 00 08", .publishComplete(packetID: 8)),
        ("90 04 00 03 01 80", .subscribeAcknowledgement(packetID: 3)),
        ("B0 02 00 03", .unsubscribeAcknowledgement(packetID: 3)),
        ("82 06 00 0A 00 01 23 01", .subscribe(packetID: 10)),
        ("C0 00", .pingRequest),
        ("D0 00", .pingResponse),
        ("E0 00", .disconnect),
    ]

    @Test(arguments: golden)
    func reads(_ hex: String, _ expected: MQTTPacket) {
        let read = readPackets(hexBytes(hex))
        #expect(read.error == nil)
        #expect(read.packets.map(\.packet) == [expected])
        #expect(!read.inside)
    }

    @Test func readsAPublish() throws {
        let read = readPackets(hexBytes("3B 0A 00 03 61 2F 62 00 05 7B 22 7D"))
        let packet = try #require(read.packets.first)
        guard case .publish(let header) = packet.packet else { Issue.record("not a PUBLISH: \(packet.packet)"); return }
        #expect(header.qos == .atLeastOnce && header.retain && header.duplicate && header.packetID == 5)
        #expect(packet.text(header.topic) == "a/b")
        #expect(packet.text(header.payload) == "{\"}")
    }

    static let malformed: [(String, String, MQTTError)] = [
        ("type 0", "00 00", .reservedPacketType(0x00)),
        ("type 15", "F0 00", .reservedPacketType(0xF0)),
        ("PUBACK flags", "41 02 00 01", .badFlags(.publishAcknowledgement, 1)),
        ("PUBREL without its 0010", "60 02 00 01", .badFlags(.publishRelease, 0)),
        ("PUBLISH QoS 3", "36 05 00 01 61 00 01", .badFlags(.publish, 6)),
        ("PUBLISH QoS 0 duplicate", "38 03 00 01 61", .badFlags(.publish, 8)),
        ("remaining length of 5 bytes", "30 FF FF FF FF 01", .remainingLengthTooLong),
        ("longest remaining length", "30 FF FF FF 7F", .packetTooLong(.publish, length: 268_435_455, limit: 1_024)),
        ("a packet over 1 KiB", "30 81 08", .packetTooLong(.publish, length: 1_025, limit: 1_024)),
        ("CONNACK of 3 bytes", "20 03 00 00 00", .badLength(.connectAcknowledgement, length: 3)),
        ("CONNACK reserved flag", "20 02 02 00", .malformed(.connectAcknowledgement, .flags)),
        ("CONNACK code 6", "20 02 00 06", .malformed(.connectAcknowledgement, .returnCode)),
        ("session on a refusal", "20 02 01 05", .malformed(.connectAcknowledgement, .flags)),
        ("PUBACK id 0", "40 02 00 00", .malformed(.publishAcknowledgement, .packetID)),
        ("PUBACK of 1 byte", "40 01 00", .badLength(.publishAcknowledgement, length: 1)),
        ("PINGRESP with a body", "D0 01 00", .badLength(.pingResponse, length: 1)),
        ("SUBACK code 3", "90 03 00 01 03", .malformed(.subscribeAcknowledgement, .returnCode)),
        ("topic with +", "30 05 00 03 61 2F 2B", .malformed(.publish, .topic)),
        ("topic with #", "30 03 00 01 23", .malformed(.publish, .topic)),
        ("empty topic", "30 02 00 00", .malformed(.publish, .topic)),
        ("topic with U+0000", "30 03 00 01 00", .malformed(.publish, .topic)),
        ("topic of overlong UTF-8", "30 04 00 02 C0 AF", .malformed(.publish, .topic)),
        ("topic of a surrogate", "30 05 00 03 ED A0 80", .malformed(.publish, .topic)),
        ("topic past the body", "30 03 00 05 61", .malformed(.publish, .topic)),
        ("QoS 1 without its id", "32 03 00 01 61", .malformed(.publish, .packetID)),
        ("QoS 1 id 0", "32 05 00 01 61 00 00", .malformed(.publish, .packetID)),
        ("CONNECT level 5", "10 0D 00 04 4D 51 54 54 05 02 00 3C 00 01 61", .unsupportedProtocol(level: 5)),
        ("CONNECT of MQTT 3.1", "10 0F 00 06 4D 51 49 73 64 70 03 02 00 3C 00 01 61", .malformed(.connect, .protocolName)),
        ("CONNECT reserved flag", "10 0D 00 04 4D 51 54 54 04 03 00 3C 00 01 61", .malformed(.connect, .connectFlags)),
        ("CONNECT password without user", "10 10 00 04 4D 51 54 54 04 42 00 3C 00 01 61 00 01 70", .malformed(.connect, .connectFlags)),
        ("CONNECT will QoS without will", "10 0D 00 04 4D 51 54 54 04 0A 00 3C 00 01 61", .malformed(.connect, .connectFlags)),
        ("CONNECT empty id, persistent", "10 0C 00 04 4D 51 54 54 04 00 00 3C 00 00", .malformed(.connect, .clientID)),
        ("CONNECT trailing bytes", "10 0E 00 04 4D 51 54 54 04 02 00 3C 00 01 61 00", .malformed(.connect, .trailingBytes)),
        ("CONNECT cut in the keep-alive", "10 08 00 04 4D 51 54 54 04 02", .malformed(.connect, .keepAlive)),
        ("CONNECT user cut short", "10 10 00 04 4D 51 54 54 04 82 00 3C 00 01 61 00 05 62", .malformed(.connect, .username)),
    ]

    @Test(arguments: malformed)
    func refuses(_ name: String, _ hex: String, _ expected: MQTTError) {
        let read = readPackets(hexBytes(hex))
        #expect(read.error == expected, "\(name)")
        #expect(read.packets.isEmpty, "\(name)")
    }

    /// Errors name the packet and what is wrong in words.
    @Test func errorsSayWhat() {
        #expect(MQTTError.packetTooLong(.publish, length: 1_025, limit: 1_024).description
                == "PUBLISH of 1025 bytes, more than the 1024 this client reads")
        #expect(MQTTError.reservedPacketType(0xF0).description == "reserved packet type 15 (first byte 0xF0)")
        #expect(MQTTError.unsupportedProtocol(level: 5).description == "not MQTT 3.1.1 (protocol level 5)")
    }

    /// A connection's worth of packets reads the same in every chunking, byte by byte included.
    @Test func anyChunkingReadsTheSame() throws {
        var stream = hexBytes("20 02 00 00 40 02 00 01 D0 00 40 02 00 02")
        let payload = [UInt8](repeating: 0x61, count: 300)
        var buffer = TextBuffer()
        try MQTTWriter.writePublish(topic: "owntracks/alice/bike", payload: payload.span, qos: .atLeastOnce, retain: true,
                                    packetID: 3, to: &buffer)
        stream += buffer.withBytes { Array($0) }
        stream += hexBytes("40 02 00 03")
        let whole = readPackets(stream)
        #expect(whole.error == nil && whole.packets.count == 6 && !whole.inside)
        for chunk in [1, 2, 3, 5, 7, 64, 301] {
            let pieces = readPackets(stream, chunk: chunk)
            #expect(pieces.packets == whole.packets, "chunks of \(chunk)")
            #expect(pieces.error == nil && !pieces.inside)
        }
        // Cut anywhere inside the last packet: the part waits in the reader.
        let cut = readPackets(Array(stream.dropLast(1)))
        #expect(cut.packets.count == 5 && cut.inside && cut.error == nil)
    }
}

@Suite struct MQTTRoundTripTests {
    static let connects: [MQTTConnect] = [
        MQTTConnect(clientID: "trackd-bike", cleanSession: false, keepAliveSeconds: 60, username: "tracker", password: "s3cret"),
        MQTTConnect(clientID: "x", cleanSession: true, keepAliveSeconds: 0),
        MQTTConnect(clientID: "ü-ß", cleanSession: false, keepAliveSeconds: 65_535, username: "名前"),
        MQTTConnect(clientID: String(repeating: "c", count: 300), keepAliveSeconds: 1, username: "", password: ""),
    ]

    @Test(arguments: connects)
    func connect(_ connect: MQTTConnect) throws {
        var buffer = TextBuffer()
        try MQTTWriter.writeConnect(connect, to: &buffer)
        let read = readPackets(buffer.withBytes { Array($0) })
        let packet = try #require(read.packets.first)
        guard case .connect(let header) = packet.packet else { Issue.record("not a CONNECT"); return }
        let back = MQTTConnect(clientID: packet.text(header.clientID) ?? "?", cleanSession: header.cleanSession,
                               keepAliveSeconds: header.keepAliveSeconds, username: packet.text(header.username),
                               password: packet.text(header.password))
        #expect(back == connect)
        #expect(header.willTopic == nil && header.willMessage == nil)
    }

    @Test(arguments: [0, 1, 127, 128, 500, 1_000])
    func publish(_ payloadSize: Int) throws {
        var rng = SplitMix64(seed: UInt64(payloadSize))
        let payload = (0..<payloadSize).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for (qos, id) in [(MQTTQoS.atMostOnce, UInt16?.none), (.atLeastOnce, 1), (.exactlyOnce, 65_535)] {
            for retain in [false, true] {
                var buffer = TextBuffer()
                try MQTTWriter.writePublish(topic: "owntracks/a/b/event", payload: payload.span, qos: qos, retain: retain,
                                            packetID: id, duplicate: id != nil && retain, to: &buffer)
                let read = readPackets(buffer.withBytes { Array($0) }, chunk: 9)
                let packet = try #require(read.packets.first)
                guard case .publish(let header) = packet.packet else { Issue.record("not a PUBLISH"); return }
                #expect(header.qos == qos && header.retain == retain && header.packetID == id)
                #expect(header.duplicate == (id != nil && retain))
                #expect(packet.text(header.topic) == "owntracks/a/b/event")
                #expect(Array(packet.body[header.payload]) == payload)
            }
        }
    }

    @Test func acknowledgements() throws {
        for id: UInt16 in [1, 2, 255, 256, 65_535] {
            var buffer = TextBuffer()
            try MQTTWriter.writePublishAcknowledgement(packetID: id, to: &buffer)
            try MQTTWriter.writeConnectAcknowledgement(sessionPresent: id % 2 == 0, returnCode: .accepted, to: &buffer)
            try MQTTWriter.writePingRequest(to: &buffer)
            try MQTTWriter.writePingResponse(to: &buffer)
            try MQTTWriter.writeDisconnect(to: &buffer)
            let read = readPackets(buffer.withBytes { Array($0) })
            #expect(read.packets.map(\.packet) == [
                .publishAcknowledgement(packetID: id),
                .connectAcknowledgement(sessionPresent: id % 2 == 0, returnCode: .accepted),
                .pingRequest, .pingResponse, .disconnect,
            ])
        }
    }
}

/// Seeded random bytes and mutated good streams: the reader never traps, never returns a
/// packet the standard forbids (the writer can write it again byte for byte), and a fresh
/// start after an error reads a good packet.
@Suite struct MQTTByteSoupTests {
    static let good: [UInt8] = hexBytes("20 02 00 00 40 02 00 01 D0 00 33 09 00 03 61 2F 62 00 01 7B 7D 90 03 00 01 01 E0 00")

    @Test(arguments: [1, 2, 3, 42, 2026])
    func soup(_ seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var packets = 0
        var errors = 0
        for round in 0..<2_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<rng.int(1...64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            } else {
                bytes = Self.good
                for _ in 0..<rng.int(1...4) {
                    bytes[rng.int(0...bytes.count - 1)] ^= UInt8(1) << UInt8(rng.int(0...7))
                }
            }
            let read = readPackets(bytes, chunk: rng.int(1...16))
            packets += read.packets.count
            if read.error != nil { errors += 1 }
            for packet in read.packets { Self.checkRewrites(packet) }
            // After an error the connection is closed; a new reader reads good bytes.
            let after = readPackets(Self.good)
            #expect(after.packets.count == 6 && after.error == nil)
        }
        #expect(packets > 0 && errors > 0)
    }

    /// What the writer makes of a packet read gives the same bytes back (for those it writes).
    static func checkRewrites(_ read: ReadPacket) {
        var buffer = TextBuffer()
        do throws(MQTTError) {
            switch read.packet {
            case .publishAcknowledgement(let id): try MQTTWriter.writePublishAcknowledgement(packetID: id, to: &buffer)
            case .pingResponse: try MQTTWriter.writePingResponse(to: &buffer)
            case .connectAcknowledgement(let session, let code):
                try MQTTWriter.writeConnectAcknowledgement(sessionPresent: session, returnCode: code, to: &buffer)
            case .publish(let header):
                let topic = read.text(header.topic) ?? ""
                let payload = Array(read.body[header.payload])
                try MQTTWriter.writePublish(topic: topic, payload: payload.span, qos: header.qos, retain: header.retain,
                                            packetID: header.packetID, duplicate: header.duplicate, to: &buffer)
            default: return
            }
        } catch {
            Issue.record("the writer refuses a packet the reader accepted: \(read.packet): \(error)")
            return
        }
        let again = readPackets(buffer.withBytes { Array($0) })
        #expect(again.packets == [read])
    }
}
