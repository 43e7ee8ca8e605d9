/// The UBX frame: `B5 62`, class, id, payload length (little-endian 16 bits), payload, and
/// two checksum bytes CK_A CK_B, an 8-bit Fletcher sum over class … payload
/// (UBX-13003221, sections 32.2 "UBX Frame Structure" and 32.4 "UBX Checksum").
public enum UBXFrame {
    /// The first sync character.
    public static var sync1: UInt8 { 0xB5 }
    /// The second sync character (`b`).
    public static var sync2: UInt8 { 0x62 }

    /// CK_A and CK_B over `bytes` (class through payload), e.g. over `05 01 02 00 06 01` (the
    /// ACK-ACK of CFG-MSG) → (0x0F, 0x38).
    public static func checksum(_ bytes: Span<UInt8>) -> (a: UInt8, b: UInt8) {
        var a: UInt8 = 0
        var b: UInt8 = 0
        for index in bytes.indices {
            a &+= bytes[index]
            b &+= a
        }
        return (a, b)
    }

    /// Builds a frame in a command's buffer: the header now, the payload appended, the length
    /// and checksum by `finish`.
    struct Builder {
        var command: ReceiverCommand

        /// A frame of message `id` answered by `expectation`.
        init(_ id: UBXMessageID, expectation: ReplyExpectation, purpose: CommandPurpose, settleMilliseconds: Int64 = 0) {
            command = ReceiverCommand(expectation: expectation, purpose: purpose, settleMilliseconds: settleMilliseconds)
            command.append(UBXFrame.sync1)
            command.append(UBXFrame.sync2)
            command.append(id.messageClass)
            command.append(id.id)
            command.append(0)
            command.append(0)
        }

        mutating func u8(_ value: UInt8) { command.append(value) }

        mutating func u16(_ value: UInt16) {
            command.append(UInt8(truncatingIfNeeded: value))
            command.append(UInt8(truncatingIfNeeded: value >> 8))
        }

        mutating func u32(_ value: UInt32) {
            u16(UInt16(truncatingIfNeeded: value))
            u16(UInt16(truncatingIfNeeded: value >> 16))
        }

        mutating func zeros(_ count: Int) { for _ in 0..<count { command.append(0) } }

        /// The little-endian value of `byteCount` bytes (1, 2, 4 or 8).
        mutating func value(_ value: UInt64, byteCount: Int) {
            for shift in 0..<byteCount { command.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
        }

        /// Writes the payload length and the checksum; the finished command.
        consuming func finish() -> ReceiverCommand {
            let length = command.count - 6
            command.storage[4] = UInt8(truncatingIfNeeded: length)
            command.storage[5] = UInt8(truncatingIfNeeded: length >> 8)
            let sum = command.withBytes { bytes in UBXFrame.checksum(bytes.extracting(2..<bytes.count)) }
            command.append(sum.a)
            command.append(sum.b)
            return command
        }
    }
}
