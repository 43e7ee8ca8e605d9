// The variable headers and payloads of MQTT 3.1.1's packets, read from a whole body.

extension MQTTReader {
    /// The packet of `type` with first-byte `flags` whose body is `body`; throws naming the
    /// field that breaks the standard.
    static func parse(_ type: MQTTPacketType, flags: UInt8, _ body: Span<UInt8>) throws(MQTTError) -> MQTTPacket {
        var fields = MQTTFieldReader(type: type, end: body.count)
        switch type {
        case .connect:
            return .connect(try parseConnect(&fields, body))
        case .connectAcknowledgement:
            guard body.count == 2 else { throw .badLength(type, length: body.count) }
            // Bits 7–1 of the acknowledge flags are reserved (§3.2.2.1).
            guard body[0] & 0xFE == 0 else { throw .malformed(type, .flags) }
            guard let code = MQTTConnectReturnCode(rawValue: body[1]) else { throw .malformed(type, .returnCode) }
            // A refused connection has no session (§3.2.2.2).
            guard code == .accepted || body[0] == 0 else { throw .malformed(type, .flags) }
            return .connectAcknowledgement(sessionPresent: body[0] == 1, returnCode: code)
        case .publish:
            return .publish(try parsePublish(flags: flags, &fields, body))
        case .publishAcknowledgement, .publishReceived, .publishRelease, .publishComplete, .unsubscribeAcknowledgement:
            guard body.count == 2 else { throw .badLength(type, length: body.count) }
            let id = try fields.packetID(body)
            switch type {
            case .publishAcknowledgement: return .publishAcknowledgement(packetID: id)
            case .publishReceived: return .publishReceived(packetID: id)
            case .publishRelease: return .publishRelease(packetID: id)
            case .publishComplete: return .publishComplete(packetID: id)
            default: return .unsubscribeAcknowledgement(packetID: id)
            }
        case .subscribe, .unsubscribe:
            // The packet id and at least one topic filter (§3.8.3, §3.10.3).
            guard body.count >= 5 else { throw .badLength(type, length: body.count) }
            let id = try fields.packetID(body)
            return type == .subscribe ? .subscribe(packetID: id) : .unsubscribe(packetID: id)
        case .subscribeAcknowledgement:
            guard body.count >= 3 else { throw .badLength(type, length: body.count) }
            let id = try fields.packetID(body)
            // Return codes 0, 1, 2 (the QoS granted) or 0x80 (failure), §3.9.3.
            for index in 2..<body.count where body[index] > 2 && body[index] != 0x80 {
                throw .malformed(type, .returnCode)
            }
            return .subscribeAcknowledgement(packetID: id)
        case .pingRequest, .pingResponse, .disconnect:
            guard body.count == 0 else { throw .badLength(type, length: body.count) }
            return type == .pingRequest ? .pingRequest : type == .pingResponse ? .pingResponse : .disconnect
        }
    }

    private static func parseConnect(_ fields: inout MQTTFieldReader, _ body: Span<UInt8>) throws(MQTTError) -> MQTTConnectHeader {
        let name = try fields.string(body, .protocolName)
        let level = try fields.byte(body, .protocolLevel)
        // "MQTT" level 4 is 3.1.1; "MQIsdp" level 3 (3.1) and level 5 (MQTT 5) are other protocols.
        guard name.count == 4, body[name.lowerBound] == UInt8(ascii: "M"), body[name.lowerBound + 1] == UInt8(ascii: "Q"),
              body[name.lowerBound + 2] == UInt8(ascii: "T"), body[name.lowerBound + 3] == UInt8(ascii: "T") else {
            throw .malformed(.connect, .protocolName)
        }
        guard level == 4 else { throw .unsupportedProtocol(level: level) }
        let flags = try fields.byte(body, .connectFlags)
        let will = flags & 0x04 != 0
        let willQoS = MQTTQoS(rawValue: (flags >> 3) & 0x03)
        // Reserved bit 0 is 0; without a will its QoS and retain are 0; a password needs a
        // user name (§3.1.2.3–9).
        guard flags & 0x01 == 0, let willQoS, will || flags & 0x38 == 0, flags & 0x80 != 0 || flags & 0x40 == 0 else {
            throw .malformed(.connect, .connectFlags)
        }
        let keepAlive = try fields.uint16(body, .keepAlive)
        let clientID = try fields.string(body, .clientID)
        let cleanSession = flags & 0x02 != 0
        guard !clientID.isEmpty || cleanSession else { throw .malformed(.connect, .clientID) }
        var header = MQTTConnectHeader(cleanSession: cleanSession, keepAliveSeconds: keepAlive, clientID: clientID,
                                       willQoS: willQoS, willRetain: flags & 0x20 != 0)
        if will {
            header.willTopic = try fields.string(body, .willTopic)
            header.willMessage = try fields.binary(body, .willMessage)
        }
        if flags & 0x80 != 0 { header.username = try fields.string(body, .username) }
        if flags & 0x40 != 0 { header.password = try fields.binary(body, .password) }
        guard fields.offset == body.count else { throw .malformed(.connect, .trailingBytes) }
        return header
    }

    private static func parsePublish(flags: UInt8, _ fields: inout MQTTFieldReader, _ body: Span<UInt8>) throws(MQTTError) -> MQTTPublishHeader {
        let qos = MQTTQoS(rawValue: (flags >> 1) & 0x03) ?? .atMostOnce
        let topic = try fields.string(body, .topic)
        // A topic name is at least one character and holds no wildcard (§3.3.2.1, §4.7.1).
        guard !topic.isEmpty else { throw .malformed(.publish, .topic) }
        for index in topic where body[index] == UInt8(ascii: "+") || body[index] == UInt8(ascii: "#") {
            throw .malformed(.publish, .topic)
        }
        let packetID = qos == .atMostOnce ? nil : try fields.packetID(body)
        return MQTTPublishHeader(qos: qos, retain: flags & 0x01 != 0, duplicate: flags & 0x08 != 0, packetID: packetID,
                                 topic: topic, payload: fields.offset..<body.count)
    }
}

/// Reads a body's fields from the front, each failure naming the packet and the field.
struct MQTTFieldReader {
    let type: MQTTPacketType
    let end: Int
    var offset = 0

    init(type: MQTTPacketType, end: Int) {
        self.type = type
        self.end = end
    }

    mutating func byte(_ body: Span<UInt8>, _ field: MQTTField) throws(MQTTError) -> UInt8 {
        guard offset < end else { throw .malformed(type, field) }
        offset += 1
        return body[offset - 1]
    }

    mutating func uint16(_ body: Span<UInt8>, _ field: MQTTField) throws(MQTTError) -> UInt16 {
        guard offset + 2 <= end else { throw .malformed(type, field) }
        offset += 2
        return UInt16(body[offset - 2]) << 8 | UInt16(body[offset - 1])
    }

    /// A packet identifier: never 0 (§2.3.1).
    mutating func packetID(_ body: Span<UInt8>) throws(MQTTError) -> UInt16 {
        let id = try uint16(body, .packetID)
        guard id != 0 else { throw .malformed(type, .packetID) }
        return id
    }

    /// Binary data with its 2-byte length (§1.5.3): the range of its bytes.
    mutating func binary(_ body: Span<UInt8>, _ field: MQTTField) throws(MQTTError) -> Range<Int> {
        let count = Int(try uint16(body, field))
        guard offset + count <= end else { throw .malformed(type, field) }
        offset += count
        return (offset - count)..<offset
    }

    /// A UTF-8 string with its 2-byte length: well-formed, without U+0000 (§1.5.3).
    mutating func string(_ body: Span<UInt8>, _ field: MQTTField) throws(MQTTError) -> Range<Int> {
        let range = try binary(body, field)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = body[index]
            if byte < 0x80 {
                guard byte != 0 else { throw .malformed(type, field) }
                index += 1
                continue
            }
            guard let length = UTF8Sequence.length(body, at: index), index + length <= range.upperBound else {
                throw .malformed(type, field)
            }
            index += length
        }
        return range
    }
}
