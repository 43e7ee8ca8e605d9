/// Writes the MQTT 3.1.1 packets a publishing client sends, each appended whole to a
/// `TextBuffer` or not at all (a packet that does not fit throws `.bufferFull` and leaves the
/// buffer as it was). Nothing is allocated. Examples, bytes in hex:
///
///     CONNECT, client "trackd", clean session, keep-alive 60:
///         10 12 00 04 4D 51 54 54 04 02 00 3C 00 06 74 72 61 63 6B 64
///     PUBLISH QoS 1, retained, topic "a/b", packet id 1, payload "{}":
///         33 09 00 03 61 2F 62 00 01 7B 7D
///     PUBACK 1: 40 02 00 01      PINGREQ: C0 00      DISCONNECT: E0 00
public enum MQTTWriter {
    /// The largest remaining length (§2.2.3): 268,435,455.
    public static var maximumRemainingLength: Int { 268_435_455 }

    /// Appends a CONNECT (§3.1) for protocol "MQTT" level 4 without a will.
    public static func writeConnect(_ connect: MQTTConnect, to buffer: inout TextBuffer) throws(MQTTError) {
        let clientID = connect.clientID.utf8.count
        guard clientID <= 65_535 else { throw .tooLong(.clientID, length: clientID) }
        guard clientID > 0 || connect.cleanSession else { throw .invalid(.clientID) }
        var remaining = 10 + 2 + clientID
        var flags: UInt8 = connect.cleanSession ? 0x02 : 0
        if let username = connect.username {
            let count = username.utf8.count
            guard count <= 65_535 else { throw .tooLong(.username, length: count) }
            remaining += 2 + count
            flags |= 0x80
        }
        if let password = connect.password {
            guard connect.username != nil else { throw .invalid(.password) }
            let count = password.utf8.count
            guard count <= 65_535 else { throw .tooLong(.password, length: count) }
            remaining += 2 + count
            flags |= 0x40
        }
        try reserve(remaining, in: &buffer)
        buffer.append(MQTTPacketType.connect.rawValue << 4)
        appendRemainingLength(remaining, to: &buffer)
        // The protocol name "MQTT" as a string (length 4) and the level, 4 for 3.1.1.
        appendString("MQTT", to: &buffer)
        buffer.append(4)
        buffer.append(flags)
        appendUInt16(connect.keepAliveSeconds, to: &buffer)
        appendString(connect.clientID, to: &buffer)
        if let username = connect.username { appendString(username, to: &buffer) }
        if let password = connect.password { appendString(password, to: &buffer) }
    }

    /// Appends a PUBLISH (§3.3) of `payload` on `topic`; `packetID` (1…65,535) for QoS 1 and
    /// 2, nil for QoS 0. `duplicate` marks a QoS 1 or 2 message sent again after a reconnect.
    public static func writePublish(topic: String, payload: Span<UInt8>, qos: MQTTQoS, retain: Bool,
                                    packetID: UInt16?, duplicate: Bool = false,
                                    to buffer: inout TextBuffer) throws(MQTTError) {
        try validateTopic(topic)
        guard (qos == .atMostOnce) == (packetID == nil), packetID != 0 else { throw .invalid(.packetID) }
        guard !duplicate || qos != .atMostOnce else { throw .invalid(.flags) }
        let remaining = 2 + topic.utf8.count + (packetID == nil ? 0 : 2) + payload.count
        guard remaining <= maximumRemainingLength else { throw .tooLong(.payload, length: payload.count) }
        try reserve(remaining, in: &buffer)
        var first = MQTTPacketType.publish.rawValue << 4 | qos.rawValue << 1
        if retain { first |= 0x01 }
        if duplicate { first |= 0x08 }
        buffer.append(first)
        appendRemainingLength(remaining, to: &buffer)
        appendString(topic, to: &buffer)
        if let packetID { appendUInt16(packetID, to: &buffer) }
        buffer.append(bytes: payload)
    }

    /// Appends a PUBACK (§3.4) for `packetID`.
    public static func writePublishAcknowledgement(packetID: UInt16, to buffer: inout TextBuffer) throws(MQTTError) {
        try writeIdentified(.publishAcknowledgement, packetID, to: &buffer)
    }

    /// Appends a CONNACK (§3.2): what a broker answers (the tests' half of the exchange).
    public static func writeConnectAcknowledgement(sessionPresent: Bool, returnCode: MQTTConnectReturnCode,
                                                   to buffer: inout TextBuffer) throws(MQTTError) {
        try reserve(2, in: &buffer)
        buffer.append(MQTTPacketType.connectAcknowledgement.rawValue << 4)
        buffer.append(2)
        // A refused connection never has a session (§3.2.2.2).
        buffer.append(sessionPresent && returnCode == .accepted ? 1 : 0)
        buffer.append(returnCode.rawValue)
    }

    /// Appends a PINGREQ (§3.12), sent when nothing else went out for the keep-alive.
    public static func writePingRequest(to buffer: inout TextBuffer) throws(MQTTError) {
        try writeEmpty(.pingRequest, to: &buffer)
    }

    /// Appends a PINGRESP (§3.13): the broker's answer to PINGREQ.
    public static func writePingResponse(to buffer: inout TextBuffer) throws(MQTTError) {
        try writeEmpty(.pingResponse, to: &buffer)
    }

    /// Appends a DISCONNECT (§3.14), the clean goodbye before closing the socket.
    public static func writeDisconnect(to buffer: inout TextBuffer) throws(MQTTError) {
        try writeEmpty(.disconnect, to: &buffer)
    }

    /// Throws unless `topic` may name a PUBLISH (§4.7.3): 1…65,535 bytes, no wildcard (`+`,
    /// `#`) and no U+0000, e.g. "owntracks/alice/bike" passes, "owntracks/+/bike" does not.
    public static func validateTopic(_ topic: String) throws(MQTTError) {
        let count = topic.utf8.count
        guard count > 0 else { throw .invalid(.topic) }
        guard count <= 65_535 else { throw .tooLong(.topic, length: count) }
        for byte in topic.utf8 where byte == UInt8(ascii: "+") || byte == UInt8(ascii: "#") || byte == 0 {
            throw .invalid(.topic)
        }
    }

    /// Bytes the remaining length `value` takes (1…4), e.g. 127 → 1, 128 → 2, 16,384 → 3.
    public static func remainingLengthByteCount(_ value: Int) -> Int {
        value < 128 ? 1 : value < 16_384 ? 2 : value < 2_097_152 ? 3 : 4
    }

    private static func writeIdentified(_ type: MQTTPacketType, _ packetID: UInt16, to buffer: inout TextBuffer) throws(MQTTError) {
        guard packetID != 0 else { throw .invalid(.packetID) }
        try reserve(2, in: &buffer)
        buffer.append(type.rawValue << 4 | (type.requiredFlags ?? 0))
        buffer.append(2)
        appendUInt16(packetID, to: &buffer)
    }

    private static func writeEmpty(_ type: MQTTPacketType, to buffer: inout TextBuffer) throws(MQTTError) {
        try reserve(0, in: &buffer)
        buffer.append(type.rawValue << 4)
        buffer.append(0)
    }

    /// Throws unless a packet with `remaining` bytes after its fixed header fits. `inout`, not
    /// borrowed: a borrowed TextBuffer is copied to the stack in the firmware (TextBuffer).
    private static func reserve(_ remaining: Int, in buffer: inout TextBuffer) throws(MQTTError) {
        let needed = 1 + remainingLengthByteCount(remaining) + remaining
        guard needed <= TextBuffer.capacity - buffer.count else { throw .bufferFull(needed: needed) }
    }

    /// The remaining length as §2.2.3's variable-length integer: 7 bits a byte, least
    /// significant first, 0x80 on every byte but the last, e.g. 321 → `C1 02`.
    private static func appendRemainingLength(_ value: Int, to buffer: inout TextBuffer) {
        var rest = value
        repeat {
            var byte = UInt8(rest & 0x7F)
            rest >>= 7
            if rest > 0 { byte |= 0x80 }
            buffer.append(byte)
        } while rest > 0
    }

    private static func appendUInt16(_ value: UInt16, to buffer: inout TextBuffer) {
        buffer.append(UInt8(value >> 8))
        buffer.append(UInt8(value & 0xFF))
    }

    /// A UTF-8 string with its 2-byte length (§1.5.3).
    private static func appendString(_ text: String, to buffer: inout TextBuffer) {
        appendUInt16(UInt16(truncatingIfNeeded: text.utf8.count), to: &buffer)
        buffer.append(string: text)
    }
}
