/// The check at the end of a data chunk from format version 5 on (docs/log-format.md, "Chunks"):
/// the CRC-32C of the chunk's code, cut to the bits from the code's end to the byte boundary
/// that lies at least 16 bits further, so 16 to 23 bits.
///
/// Version 4 padded the code to a byte with 0 bits and appended the whole CRC-32C: 32 bits and
/// 3.5 bits of padding on average, 7 bits a fix in 5 s chunks of 1 Hz fixes. The padding now
/// carries check bits, and the check is at least 16 bits (a damaged or torn chunk passes about
/// once in 2^18 on average over its 8 widths, never more than once in 2^16, where the whole CRC
/// passed once in 2^32). Keyframe and parity
/// chunks keep the whole CRC-32C.
///
/// The CRC is taken over the code's bytes with the last byte's bits from the code's end on
/// cleared, and its low bits are stored from the code's end on, least significant first, as the
/// code's bits are. Example: a code of 20 bits takes a check of 20 bits (5 bytes in all); one
/// of 17 bits a check of 23 (5 bytes); one of 24 bits a check of 16 (5 bytes).
public enum LogDataCheck {
    /// The fewest bits a check has.
    public static var minimumBitCount: Int { 16 }

    /// The check's width in bits after a code of `codeBitCount` bits: 16…23.
    public static func bitCount(afterCode codeBitCount: Int) -> Int {
        minimumBitCount + (8 - (codeBitCount + minimumBitCount) & 7) & 7
    }

    /// The chunk's bytes, code and check: e.g. 5 for a code of 17 to 24 bits.
    public static func chunkByteCount(afterCode codeBitCount: Int) -> Int {
        (codeBitCount + bitCount(afterCode: codeBitCount)) >> 3
    }

    /// The check of the code that starts at byte `start` of `bytes` and is `codeBitCount` bits
    /// long: the low `bitCount(afterCode:)` bits of the CRC-32C of its bytes, the bits of the last
    /// byte from the code's end on taken as 0.
    public static func value(_ bytes: Span<UInt8>, start: Int, codeBitCount: Int) -> UInt32 {
        var crc = CRC32C()
        let whole = codeBitCount >> 3
        crc.update(bytes, start..<start + whole)
        let rest = codeBitCount & 7
        if rest != 0 { crc.update(bytes[start + whole] & UInt8(truncatingIfNeeded: (1 << rest) - 1)) }
        let width = bitCount(afterCode: codeBitCount)
        return crc.value & UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(width)) - 1)
    }

    /// The check stored after a code of `codeBitCount` bits from byte `start`: the bits up to
    /// the chunk's last byte, least significant first (the bytes must hold the whole chunk).
    public static func stored(_ bytes: Span<UInt8>, start: Int, codeBitCount: Int) -> UInt32 {
        let width = bitCount(afterCode: codeBitCount)
        var value: UInt32 = 0
        for index in 0..<width {
            let bit = start * 8 + codeBitCount + index
            value |= UInt32((bytes[bit >> 3] >> UInt8(bit & 7)) & 1) << UInt32(index)
        }
        return value
    }

    /// Writes `check` where `stored` reads it, keeping the code's bits: for tools that make a
    /// changed chunk pass again (the fuzzer). The bytes must hold the whole chunk.
    public static func store(_ check: UInt32, _ bytes: inout MutableSpan<UInt8>, start: Int, codeBitCount: Int) {
        let width = bitCount(afterCode: codeBitCount)
        for index in 0..<width {
            let bit = start * 8 + codeBitCount + index
            let mask = UInt8(1) << UInt8(bit & 7)
            if (check >> UInt32(index)) & 1 == 1 { bytes[bit >> 3] |= mask } else { bytes[bit >> 3] &= ~mask }
        }
    }
}
