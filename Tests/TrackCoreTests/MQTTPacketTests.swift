import Testing
import TrackCore

// Golden bytes are laid out by hand from the MQTT 3.1.1 standard (OASIS, 2014): §2.2 fixed
// header and remaining length (its table of 1…4-byte values), §3.1.2 CONNECT's variable header
// (protocol name 00 04 'M' 'Q' 'T' 'T', level 4, connect flags, keep-alive MSB LSB), §3.2
// CONNACK, §3.3 PUBLISH, §3.4 PUBACK, §3.12–3.14 PINGREQ, PINGRESP, DISCONNECT. The broker's
// side of them is checked against Debian's mosquitto in TrackIOTests (UplinkBrokerTests).

@Suite struct MQTTWriterTests {
    static let golden: [(String, MQTTConnect, String)] = [
        // The 20-byte CONNECT of a 6-byte client id (FACTS: mosquitto 2.0.11 takes it).
        ("clean session, keep-alive 60", MQTTConnect(clientID: "trackd", cleanSession: true, keepAliveSeconds: 60),
         "10 12 00 04 4D 51 54 54 04 02 00 3C 00 06 74 72 61 63 6B 64"),
        ("persistent session, user and password, keep-alive 300",
         MQTTConnect(clientID: "t1", cleanSession: false, keepAliveSeconds: 300, username: "u", password: "pw"),
         "10 15 00 04 4D 51 54 54 04 C0 01 2C 00 02 74 31 00 01 75 00 02 70 77"),
        ("user without password, no keep-alive", MQTTConnect(clientID: "a", keepAliveSeconds: 0, username: "bob"),
         "10 12 00 04 4D 51 54 54 04 80 00 00 00 01 61 00 03 62 6F 62"),
        ("empty client id with a clean session", MQTTConnect(clientID: "", cleanSession: true, keepAliveSeconds: 10),
         "10 0C 00 04 4D 51 54 54 04 02 00 0A 00 00"),
    ]

    @Test(arguments: golden)
    func connect(_ name: String, _ connect: MQTTConnect, _ expected: String) throws {
        let bytes = try writtenPacket { (buffer) throws(MQTTError) in try MQTTWriter.writeConnect(connect, to: &buffer) }.get()
        #expect(hexText(bytes) == expected, "\(name)")
    }

    static let publishes: [(String, MQTTQoS, Bool, UInt16?, Bool, String)] = [
        ("QoS 1 retained", .atLeastOnce, true, 1, false, "33 09 00 03 61 2F 62 00 01 7B 7D"),
        ("QoS 1 not retained, id 0x1234", .atLeastOnce, false, 0x1234, false, "32 09 00 03 61 2F 62 12 34 7B 7D"),
        ("QoS 1 duplicate", .atLeastOnce, false, 7, true, "3A 09 00 03 61 2F 62 00 07 7B 7D"),
        ("QoS 0", .atMostOnce, false, nil, false, "30 07 00 03 61 2F 62 7B 7D"),
        ("QoS 2 retained", .exactlyOnce, true, 2, false, "35 09 00 03 61 2F 62 00 02 7B 7D"),
    ]

    @Test(arguments: publishes)
    func publish(_ name: String, _ qos: MQTTQoS, _ retain: Bool, _ id: UInt16?, _ duplicate: Bool, _ expected: String) throws {
        let payload: [UInt8] = Array("{}".utf8)
        let bytes = try writtenPacket { (buffer) throws(MQTTError) in
            try MQTTWriter.writePublish(topic: "a/b", payload: payload.span, qos: qos, retain: retain, packetID: id,
                                        duplicate: duplicate, to: &buffer)
        }.get()
        #expect(hexText(bytes) == expected, "\(name)")
    }

    @Test func smallPackets() throws {
        #expect(hexText(try writtenPacket { (b) throws(MQTTError) in try MQTTWriter.writePublishAcknowledgement(packetID: 1, to: &b) }.get()) == "40 02 00 01")
        #expect(hexText(try writtenPacket { (b) throws(MQTTError) in try MQTTWriter.writePingRequest(to: &b) }.get()) == "C0 00")
        #expect(hexText(try writtenPacket { (b) throws(MQTTError) in try MQTTWriter.writePingResponse(to: &b) }.get()) == "D0 00")
        #expect(hexText(try writtenPacket { (b) throws(MQTTError) in try MQTTWriter.writeDisconnect(to: &b) }.get()) == "E0 00")
        #expect(hexText(try writtenPacket { (b) throws(MQTTError) in
            try MQTTWriter.writeConnectAcknowledgement(sessionPresent: true, returnCode: .accepted, to: &b)
        }.get()) == "20 02 01 00")
        // A refusal never says a session is present (§3.2.2.2).
        #expect(hexText(try writtenPacket { (b) throws(MQTTError) in
            try MQTTWriter.writeConnectAcknowledgement(sessionPresent: true, returnCode: .notAuthorized, to: &b)
        }.get()) == "20 02 00 05")
    }

    /// A 200-byte payload needs a 2-byte remaining length: 2 + 3 + 2 + 200 = 207 = CF 01.
    @Test func twoByteRemainingLength() throws {
        let payload = [UInt8](repeating: 0x41, count: 200)
        let bytes = try writtenPacket { (buffer) throws(MQTTError) in
            try MQTTWriter.writePublish(topic: "a/b", payload: payload.span, qos: .atLeastOnce, retain: false, packetID: 9, to: &buffer)
        }.get()
        #expect(Array(bytes[0..<3]) == [0x32, 0xCF, 0x01])
        #expect(bytes.count == 3 + 207)
    }

    /// §2.2.3's table: the largest value of each length of the remaining length.
    @Test(arguments: [(0, 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3), (2_097_151, 3), (2_097_152, 4), (268_435_455, 4)])
    func remainingLengthBytes(_ value: Int, _ count: Int) {
        #expect(MQTTWriter.remainingLengthByteCount(value) == count)
    }

    static let refusals: [(String, MQTTError)] = [
        ("password without user", .invalid(.password)),
        ("empty id, persistent session", .invalid(.clientID)),
        ("wildcard +", .invalid(.topic)),
        ("wildcard #", .invalid(.topic)),
        ("empty topic", .invalid(.topic)),
        ("QoS 1 without id", .invalid(.packetID)),
        ("QoS 0 with id", .invalid(.packetID)),
        ("id 0", .invalid(.packetID)),
        ("duplicate QoS 0", .invalid(.flags)),
        // The fixed header, its remaining length, topic "a/b" with its length, the packet id.
        ("does not fit", .bufferFull(needed: 1 + MQTTWriter.remainingLengthByteCount(TextBuffer.capacity + 7) + TextBuffer.capacity + 7)),
    ]

    @Test(arguments: refusals)
    func refusesWhatTheStandardForbids(_ name: String, _ expected: MQTTError) {
        let big = [UInt8](repeating: 0x20, count: TextBuffer.capacity)
        let empty: [UInt8] = []
        let result = writtenPacket { (buffer) throws(MQTTError) in
            switch name {
            case "password without user": try MQTTWriter.writeConnect(MQTTConnect(clientID: "a", password: "x"), to: &buffer)
            case "empty id, persistent session": try MQTTWriter.writeConnect(MQTTConnect(clientID: ""), to: &buffer)
            case "wildcard +": try MQTTWriter.writePublish(topic: "owntracks/+/b", payload: empty.span, qos: .atMostOnce, retain: false, packetID: nil, to: &buffer)
            case "wildcard #": try MQTTWriter.writePublish(topic: "owntracks/#", payload: empty.span, qos: .atMostOnce, retain: false, packetID: nil, to: &buffer)
            case "empty topic": try MQTTWriter.writePublish(topic: "", payload: empty.span, qos: .atMostOnce, retain: false, packetID: nil, to: &buffer)
            case "QoS 1 without id": try MQTTWriter.writePublish(topic: "a", payload: empty.span, qos: .atLeastOnce, retain: false, packetID: nil, to: &buffer)
            case "QoS 0 with id": try MQTTWriter.writePublish(topic: "a", payload: empty.span, qos: .atMostOnce, retain: false, packetID: 3, to: &buffer)
            case "id 0": try MQTTWriter.writePublishAcknowledgement(packetID: 0, to: &buffer)
            case "duplicate QoS 0": try MQTTWriter.writePublish(topic: "a", payload: empty.span, qos: .atMostOnce, retain: false, packetID: nil, duplicate: true, to: &buffer)
            default: try MQTTWriter.writePublish(topic: "a/b", payload: big.span, qos: .atLeastOnce, retain: false, packetID: 1, to: &buffer)
            }
        }
        #expect(result == .failure(expected), "\(name)")
    }

    /// A packet that does not fit leaves the buffer as it was, and an error says what.
    @Test func aPacketIsWrittenWholeOrNotAtAll() {
        var buffer = TextBuffer()
        let filled = TextBuffer.capacity - 6
        buffer.append(string: String(repeating: "x", count: filled))
        let payload: [UInt8] = Array("{}".utf8)
        #expect(throws: MQTTError.bufferFull(needed: 11)) {
            try MQTTWriter.writePublish(topic: "a/b", payload: payload.span, qos: .atLeastOnce, retain: true, packetID: 1, to: &buffer)
        }
        let count = buffer.count
        let overflowed = buffer.overflowed
        #expect(count == filled)
        #expect(!overflowed)
        #expect(MQTTError.malformed(.publish, .topic).description == "malformed PUBLISH: topic name")
    }
}
