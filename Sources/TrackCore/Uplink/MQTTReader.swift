/// Reads MQTT 3.1.1 packets from a byte stream in whatever pieces the socket gives: a fixed
/// header, a remaining length of 1…4 bytes (§2.2.3), then the body, held in a fixed buffer of
/// `capacity` bytes so nothing is allocated whatever arrives. Example:
///
///     var reader = MQTTReader()
///     var offset = 0
///     while let packet = try reader.next(received.span, at: &offset) {   // throws(MQTTError)
///         if case .publishAcknowledgement(let id) = packet { … }
///     }
///     // offset == received.count: the rest of a packet waits in the reader for the next read
///
/// A packet longer than `capacity` is an error (`.packetTooLong`), as is anything the
/// standard forbids (`MQTTError` names the packet and field). MQTT has no way to find the next
/// packet after bad bytes, so after an error the connection is closed and the reader starts
/// again at a first byte (it does so by itself).
public struct MQTTReader: ~Copyable {
    /// The longest body (remaining length) it reads: 1 KiB, more than a client receives (a
    /// CONNACK and PUBACK have 2 bytes; trackd subscribes to nothing) and than a PUBLISH of
    /// one of trackd's own messages (about 300 bytes), which the tests read back.
    public static var capacity: Int { 1024 }

    var body: InlineArray<1024, UInt8>
    /// 0: waiting for a first byte; 1: reading the remaining length; 2: reading the body.
    var phase: UInt8 = 0
    var first: UInt8 = 0
    var length = 0
    var lengthByteCount = 0
    var bodyCount = 0

    /// A reader waiting for a packet's first byte.
    public init() {
        body = InlineArray(repeating: 0)
    }

    /// Forgets a packet begun (a new connection).
    public mutating func reset() {
        phase = 0
        length = 0
        lengthByteCount = 0
        bodyCount = 0
    }

    /// True while part of a packet has been read.
    public var isInsidePacket: Bool { phase != 0 }

    /// Reads from `bytes[offset...]` until one packet is whole (it is returned, `offset` is just
    /// after it) or the bytes end (nil, `offset == bytes.count`, the part kept for the next
    /// call). Throws at the first byte that makes the stream invalid, `offset` just after it.
    public mutating func next(_ bytes: Span<UInt8>, at offset: inout Int) throws(MQTTError) -> MQTTPacket? {
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch phase {
            case 0:
                try start(byte)
            case 1:
                length |= Int(byte & 0x7F) << (7 * lengthByteCount)
                lengthByteCount += 1
                if byte & 0x80 != 0 {
                    guard lengthByteCount < 4 else { reset(); throw .remainingLengthTooLong }
                    continue
                }
                if let packet = try lengthRead() { return packet }
            default:
                body[bodyCount] = byte
                bodyCount += 1
                // The rest of the body as one copy, when the bytes hold it.
                let wanted = min(length - bodyCount, bytes.count - offset)
                for index in 0..<wanted { body[bodyCount + index] = bytes[offset + index] }
                bodyCount += wanted
                offset += wanted
                if bodyCount == length { return try finish() }
            }
        }
        return nil
    }

    /// Calls `read` with the last packet's body (what its ranges index), e.g. to compare a
    /// PUBLISH's payload: `reader.withBody { $0.extracting(header.payload) … }`. Mutating (it
    /// changes nothing) so the buffer is read where it is, as `TextBuffer.withBytes`.
    public mutating func withBody<R, E: Error>(_ read: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try read(body.span.extracting(0..<bodyCount))
    }

    private mutating func start(_ byte: UInt8) throws(MQTTError) {
        guard let type = MQTTPacketType(rawValue: byte >> 4) else { throw .reservedPacketType(byte) }
        let flags = byte & 0x0F
        if let required = type.requiredFlags {
            guard flags == required else { throw .badFlags(type, flags) }
        } else {
            // PUBLISH: QoS 3 is reserved, and a QoS 0 message is never a duplicate (§3.3.1).
            let qos = (flags >> 1) & 0x03
            guard qos != 3, qos != 0 || flags & 0x08 == 0 else { throw .badFlags(type, flags) }
        }
        first = byte
        phase = 1
        length = 0
        lengthByteCount = 0
        bodyCount = 0
    }

    private mutating func lengthRead() throws(MQTTError) -> MQTTPacket? {
        let type = packetType
        guard length <= Self.capacity else {
            let length = length
            reset()
            throw .packetTooLong(type, length: length, limit: Self.capacity)
        }
        phase = 2
        return length == 0 ? try finish() : nil
    }

    private var packetType: MQTTPacketType { MQTTPacketType(rawValue: first >> 4) ?? .connect }

    private mutating func finish() throws(MQTTError) -> MQTTPacket {
        phase = 0
        let type = packetType
        let flags = first & 0x0F
        return try MQTTReader.parse(type, flags: flags, body.span.extracting(0..<bodyCount))
    }
}
