/// The part of an MQTT packet an error is about, e.g. `.topic` for a PUBLISH topic holding `+`.
public enum MQTTField: UInt8, Equatable, Sendable {
    case packetType
    case flags
    case remainingLength
    case protocolName
    case protocolLevel
    case connectFlags
    case keepAlive
    case clientID
    case willTopic
    case willMessage
    case username
    case password
    case returnCode
    case topic
    case packetID
    case payload
    /// Bytes left over after the last field.
    case trailingBytes

    /// The field's name in messages, e.g. "topic name".
    public var name: String {
        switch self {
        case .packetType: "packet type"
        case .flags: "fixed-header flags"
        case .remainingLength: "remaining length"
        case .protocolName: "protocol name"
        case .protocolLevel: "protocol level"
        case .connectFlags: "connect flags"
        case .keepAlive: "keep alive"
        case .clientID: "client identifier"
        case .willTopic: "will topic"
        case .willMessage: "will message"
        case .username: "user name"
        case .password: "password"
        case .returnCode: "return code"
        case .topic: "topic name"
        case .packetID: "packet identifier"
        case .payload: "payload"
        case .trailingBytes: "bytes after the last field"
        }
    }
}

/// Why MQTT bytes could not be read or a packet not written. Reading: the stream cannot be
/// resynchronised (MQTT has no markers), so the connection is closed; writing: the packet is
/// not sent. Each case names the packet and field, e.g.
/// `.malformed(.publish, .topic)` → "malformed PUBLISH: topic name".
public enum MQTTError: Error, Equatable, Sendable {
    /// A first byte whose type nibble is 0 or 15 (reserved, §2.2.1).
    case reservedPacketType(UInt8)
    /// A first byte whose flags nibble is wrong for its type (§2.2.2), e.g. PUBACK with 0x41,
    /// or a PUBLISH with QoS 3 or DUP on QoS 0.
    case badFlags(MQTTPacketType, UInt8)
    /// A remaining length whose fourth byte still says "more" (§2.2.3: at most 4 bytes,
    /// 268,435,455).
    case remainingLengthTooLong
    /// A packet longer than this reader holds, e.g. a 100 KB PUBLISH for a 1 KiB reader.
    case packetTooLong(MQTTPacketType, length: Int, limit: Int)
    /// A packet whose remaining length is wrong for its type, e.g. a CONNACK of 3 bytes.
    case badLength(MQTTPacketType, length: Int)
    /// A field that does not hold what the standard allows, or runs past the packet's end.
    case malformed(MQTTPacketType, MQTTField)
    /// A CONNECT for another protocol or version than MQTT 3.1.1 ("MQTT", level 4), e.g.
    /// MQTT 5's level 5.
    case unsupportedProtocol(level: UInt8)
    /// Writing: a string or payload longer than its length field can say (65,535 bytes, or
    /// 268,435,455 for a whole packet).
    case tooLong(MQTTField, length: Int)
    /// Writing: the packet does not fit the buffer.
    case bufferFull(needed: Int)
    /// Writing: a password without a user name (§3.1.2.9), or an empty client id without a
    /// clean session (§3.1.3.1).
    case invalid(MQTTField)

    /// A one-line explanation for the status and the journal, e.g.
    /// "malformed PUBLISH: topic name".
    public var description: String {
        switch self {
        case .reservedPacketType(let byte):
            "reserved packet type " + String(byte >> 4) + " (first byte " + HexDigit.byteText(byte) + ")"
        case .badFlags(let type, let flags):
            "bad flags " + String(flags) + " on " + type.name
        case .remainingLengthTooLong:
            "remaining length longer than 4 bytes"
        case .packetTooLong(let type, let length, let limit):
            type.name + " of " + String(length) + " bytes, more than the " + String(limit) + " this client reads"
        case .badLength(let type, let length):
            type.name + " with a remaining length of " + String(length)
        case .malformed(let type, let field):
            "malformed " + type.name + ": " + field.name
        case .unsupportedProtocol(let level):
            "not MQTT 3.1.1 (protocol level " + String(level) + ")"
        case .tooLong(let field, let length):
            field.name + " of " + String(length) + " bytes is too long"
        case .bufferFull(let needed):
            "packet of " + String(needed) + " bytes does not fit the buffer"
        case .invalid(let field):
            "invalid " + field.name
        }
    }
}
