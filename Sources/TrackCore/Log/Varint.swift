/// LEB128 varints and zigzag, the integer coding of every log record field.
///
/// An unsigned value is written 7 bits at a time, least significant group first, with the top bit
/// of each byte set when more bytes follow: 0 → `00`, 300 → `AC 02`, `UInt64.max` → nine `FF`
/// then `01` (10 bytes, the most). Zigzag maps signed to unsigned so small magnitudes stay short:
/// 0 → 0, −1 → 1, 1 → 2, −2 → 3, `Int64.min` → `UInt64.max`.
public enum Varint {
    /// The longest encoding of a 64-bit value, in bytes.
    public static var maximumByteCount: Int { 10 }

    /// Zigzag-encodes `value`, e.g. −3 → 5.
    @inline(__always)
    public static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
    }

    /// Inverse of `zigzag`, e.g. 5 → −3.
    @inline(__always)
    public static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// Bytes `value` takes as a varint, 1…10, e.g. 127 → 1, 128 → 2.
    public static func byteCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value >> 7
        while rest != 0 {
            count += 1
            rest >>= 7
        }
        return count
    }

    /// Writes `value` at `offset` of `bytes`; returns the offset after it, or nil (nothing
    /// written) when it does not fit before `limit`.
    public static func write(_ value: UInt64, to bytes: inout MutableSpan<UInt8>, at offset: Int, limit: Int) -> Int? {
        let end = offset + byteCount(value)
        guard end <= limit, end <= bytes.count else { return nil }
        var rest = value
        var index = offset
        while rest >= 0x80 {
            bytes[index] = UInt8(truncatingIfNeeded: rest) | 0x80
            rest >>= 7
            index += 1
        }
        bytes[index] = UInt8(truncatingIfNeeded: rest)
        return end
    }

    /// Reads a varint starting at `offset`, not past `end`; returns the value and the offset after
    /// it. Throws `.truncated` when the bytes end inside it and `.malformedVarint` when it runs over
    /// 10 bytes or over 64 bits (a 10th byte above 1).
    public static func read(_ bytes: Span<UInt8>, at offset: Int, end: Int) throws(LogError) -> (value: UInt64, next: Int) {
        var value: UInt64 = 0
        var index = offset
        var shift: UInt64 = 0
        while true {
            guard index < end, index < bytes.count else { throw .truncated(offset: index) }
            let byte = bytes[index]
            if shift == 63 && byte > 1 { throw .malformedVarint(offset: offset) }
            value |= UInt64(byte & 0x7F) << shift
            index += 1
            if byte < 0x80 { return (value, index) }
            shift += 7
        }
    }
}
