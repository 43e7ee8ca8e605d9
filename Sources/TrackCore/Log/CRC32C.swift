/// CRC-32C (Castagnoli, iSCSI: RFC 3720 appendix B.4), the checksum of every log chunk,
/// e.g. `CRC32C.checksum(of: "123456789")` → `0xE3069283`.
///
/// Reflected polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF. One table lookup per
/// byte, no allocation. Feed bytes in pieces with `update` and read `value` at the end.
public struct CRC32C: Equatable, Sendable {
    /// The running register (already inverted, as the algorithm keeps it).
    var register: UInt32 = 0xFFFF_FFFF

    /// A checksum over no bytes yet.
    public init() {}

    /// Adds `bytes[range]` to the checksum.
    public mutating func update(_ bytes: Span<UInt8>, _ range: Range<Int>) {
        var crc = register
        for index in range {
            crc = CRC32C.table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
        }
        register = crc
    }

    /// Adds one byte.
    public mutating func update(_ byte: UInt8) {
        register = CRC32C.table[Int((register ^ UInt32(byte)) & 0xFF)] ^ (register >> 8)
    }

    /// The checksum of the bytes so far, e.g. `0xE3069283` after `"123456789"`.
    public var value: UInt32 { register ^ 0xFFFF_FFFF }

    /// The checksum of `bytes[range]` in one call.
    public static func checksum(of bytes: Span<UInt8>, _ range: Range<Int>) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes, range)
        return crc.value
    }

    /// The checksum of the UTF-8 bytes of a literal, e.g. `"123456789"` → `0xE3069283`.
    public static func checksum(of text: StaticString) -> UInt32 {
        var crc = CRC32C()
        let start = text.utf8Start
        for offset in 0..<text.utf8CodeUnitCount { crc.update(start[offset]) }
        return crc.value
    }
}
