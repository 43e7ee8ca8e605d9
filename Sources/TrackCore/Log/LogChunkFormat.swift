/// The fixed numbers of the chunk layout (docs/log-format.md), shared by encoder and decoder.
///
/// A log is a run of chunks. A keyframe chunk is `magic (4) | version (1) | sequence (4) |
/// payload length (2) | payload | CRC32C (4)` and starts a prediction context; a data chunk is
/// its arithmetic code and a check (version 5: 16 to 23 bits of CRC32C up to a byte boundary,
/// `LogDataCheck`; before: the code padded to a byte and the whole CRC32C), the decoder finds
/// where the code ends, and continues the context of the keyframe before it. A 5 s chunk of
/// 1 Hz fixes is about 18 bytes.
public enum LogChunkFormat {
    /// The first four bytes of every keyframe chunk: `89 54 4C 4B` (0x89 then "TLK").
    public static var magic: (UInt8, UInt8, UInt8, UInt8) { (0x89, 0x54, 0x4C, 0x4B) }
    /// The first four bytes of every parity chunk (format version 4): `89 54 4C 50` (0x89 then
    /// "TLP").
    public static var parityMagic: (UInt8, UInt8, UInt8, UInt8) { (0x89, 0x54, 0x4C, 0x50) }
    /// The format version this code writes: 5 (version 4 with a data chunk's check filling its
    /// last byte, 16 to 23 bits, `LogDataCheck`), and 6 for a keyframe interval that holds a
    /// sleep record (`sleepVersion`). It reads 3 to 6.
    public static var version: UInt8 { 5 }
    /// Version 5 with one more record kind, 5: the receiver asleep. The writer starts a keyframe
    /// of this version for a sleep record (the record is rare: a few a day), so a log without
    /// one is byte for byte version 5 and a reader of version 5 loses only those intervals.
    public static var sleepVersion: UInt8 { 6 }
    /// The newest version this code reads: 6.
    public static var newestReadableVersion: UInt8 { 6 }
    /// The first version with parity chunks: 4.
    public static var oldestParityVersion: UInt8 { 4 }
    /// The oldest version this code reads: 3, which trackers wrote before version 4.
    public static var oldestReadableVersion: UInt8 { 3 }
    /// Where a keyframe's version byte is: after the magic.
    static var versionOffset: Int { 4 }
    /// Keyframe header bytes: magic 4, version 1, sequence 4, payload length 2.
    public static var keyframeHeaderByteCount: Int { 11 }
    /// Trailer bytes: the CRC32C of the chunk's header and payload, little-endian.
    public static var crcByteCount: Int { 4 }
    /// The largest payload of any chunk; a reader gives up on a data chunk whose code runs longer.
    public static var maximumPayloadByteCount: Int { 16_383 }
    /// The smallest buffer `LogEncoder` accepts, 1,024 bytes: a keyframe header (11) and values
    /// (at most 70), the largest record and the end of its code (at most 919: a fix makes at most
    /// 907 decisions, and none costs more than log2(4096 / 15) ≈ 8.1 bits), and the CRC (4). So
    /// any record fits an empty chunk; a 5 s chunk of real fixes takes about 20 bytes.
    public static var minimumBufferByteCount: Int { 1_024 }

    static func magicByte(_ index: Int, _ of: (UInt8, UInt8, UInt8, UInt8) = magic) -> UInt8 {
        switch index {
        case 0: of.0
        case 1: of.1
        case 2: of.2
        default: of.3
        }
    }

    /// The offset of the next keyframe magic at or after `offset` in `bytes`, or nil: where a
    /// reader resynchronises after a damaged chunk (the candidate still has to pass its CRC).
    public static func nextKeyframe(in bytes: Span<UInt8>, from offset: Int) -> Int? {
        nextMagic(magic, in: bytes, from: offset)
    }

    /// The offset of the next occurrence of the four bytes `wanted` at or after `offset`.
    static func nextMagic(_ wanted: (UInt8, UInt8, UInt8, UInt8), in bytes: Span<UInt8>, from offset: Int) -> Int? {
        var index = max(offset, 0)
        while index + 4 <= bytes.count {
            if bytes[index] == wanted.0, bytes[index + 1] == wanted.1, bytes[index + 2] == wanted.2,
               bytes[index + 3] == wanted.3 {
                return index
            }
            index += 1
        }
        return nil
    }

    /// True when the four bytes at `offset` are the parity magic `89 54 4C 50`.
    public static func isParity(_ bytes: Span<UInt8>, at offset: Int) -> Bool {
        offset >= 0 && offset + 4 <= bytes.count && bytes[offset] == parityMagic.0 && bytes[offset + 1] == parityMagic.1
            && bytes[offset + 2] == parityMagic.2 && bytes[offset + 3] == parityMagic.3
    }
}

/// Writes into a caller's buffer up to `limit`; the first write that does not fit sets `failed`
/// and every later write is skipped, so a caller checks once at the end.
struct LogByteWriter {
    var offset: Int
    let limit: Int
    var failed = false

    mutating func byte(_ value: UInt8, _ bytes: inout MutableSpan<UInt8>) {
        guard !failed, offset < limit else { failed = true; return }
        bytes[offset] = value
        offset += 1
    }

    mutating func unsigned(_ value: UInt64, _ bytes: inout MutableSpan<UInt8>) {
        guard !failed, let next = Varint.write(value, to: &bytes, at: offset, limit: limit) else {
            failed = true
            return
        }
        offset = next
    }

    mutating func signed(_ value: Int64, _ bytes: inout MutableSpan<UInt8>) {
        unsigned(Varint.zigzag(value), &bytes)
    }

    mutating func littleEndian(_ value: UInt64, byteCount: Int, _ bytes: inout MutableSpan<UInt8>) {
        for index in 0..<byteCount { byte(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))), &bytes) }
    }
}

/// Reads the byte fields of a chunk (header, keyframe values) between `offset` and `end`; every
/// error names its offset.
struct LogByteReader {
    var offset: Int
    let end: Int

    mutating func byte(_ bytes: Span<UInt8>) throws(LogError) -> UInt8 {
        guard offset < end, offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func unsigned(_ bytes: Span<UInt8>) throws(LogError) -> UInt64 {
        let (value, next) = try Varint.read(bytes, at: offset, end: end)
        offset = next
        return value
    }

    mutating func signed(_ bytes: Span<UInt8>) throws(LogError) -> Int64 {
        Varint.unzigzag(try unsigned(bytes))
    }

    mutating func littleEndian(byteCount: Int, _ bytes: Span<UInt8>) throws(LogError) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<byteCount { value |= UInt64(try byte(bytes)) << (8 * UInt64(index)) }
        return value
    }

    /// `value` as an Int32, or `.valueOutOfRange` naming the offset after the field.
    func int32(_ value: Int64) throws(LogError) -> Int32 {
        guard let narrow = Int32(exactly: value) else { throw .valueOutOfRange(offset: offset) }
        return narrow
    }
}
