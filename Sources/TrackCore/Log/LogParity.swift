/// The stripe parity of a run of log bytes (a parity group), which lets a reader repair a
/// damaged stretch of up to `stripeWidth` bytes in it (docs/log-format.md, "Parity chunks").
///
/// Byte j of the parity is the XOR of every byte of the group whose position k (counted from the
/// group's first byte) has k mod W = j, W = 16. A reader that finds a chunk failing its CRC
/// XORs the parity with the group as it is; what is left (the syndrome) is the damage, folded
/// onto 16 bytes: it tries it at each place it can lie from the damaged chunk on, and keeps the
/// one that makes the chunk pass its CRC. Example: in a group of 70 bytes `b0…b69` parity byte 5
/// is b5 ^ b21 ^ b37 ^ b53 ^ b69; flip b40 by 0x10 and the syndrome is 0x10 at stripe 8, so the
/// damage is at 8, 24, 40 or 56: a chunk starting at 30 fails, 40 is the first place from there,
/// and makes its CRC match again.
///
/// The writer folds in every chunk it writes (`add`) and writes the parity chunk (`writeChunk`)
/// before the next keyframe chunk and when it closes a segment; nothing here allocates.
public struct LogParity: Sendable {
    /// The stripe width W the writer uses, in bytes: damage within any 16 consecutive bytes of a
    /// group is repaired (a 5 s chunk of 1 Hz fixes is 15 to 25 bytes). 16 rather than 32 saves
    /// 16 bytes per keyframe interval, 0.06 bytes per fix on the shared tracks.
    public static var stripeWidth: Int { 16 }
    var stripes = InlineArray<16, UInt8>(repeating: 0)
    /// Bytes of the group folded in so far, e.g. 1,180 for five minutes of 1 Hz fixes.
    public private(set) var byteCount = 0

    /// An empty group.
    public init() {}

    /// Folds `bytes` in as the next bytes of the group.
    public mutating func add(_ bytes: Span<UInt8>) {
        var stripe = byteCount % LogParity.stripeWidth
        for index in bytes.indices {
            stripes[stripe] ^= bytes[index]
            stripe = stripe == LogParity.stripeWidth - 1 ? 0 : stripe + 1
        }
        byteCount += bytes.count
    }

    /// Bytes the group's parity chunk takes, e.g. 28 for a group of 1,180 bytes; 0 for an empty
    /// group (it has no parity chunk).
    public var chunkByteCount: Int {
        byteCount == 0 ? 0 : LogParityChunk.fixedByteCount + Varint.byteCount(UInt64(byteCount)) + LogParity.stripeWidth
    }

    /// Writes the parity chunk of the group into `buffer` at `offset` (it needs
    /// `chunkByteCount` bytes there); returns the offset after it.
    public func writeChunk(_ buffer: inout MutableSpan<UInt8>, at offset: Int) -> Int {
        precondition(offset >= 0 && offset + chunkByteCount <= buffer.count, "parity chunk does not fit")
        for index in 0..<4 { buffer[offset + index] = LogChunkFormat.magicByte(index, LogChunkFormat.parityMagic) }
        buffer[offset + 4] = LogChunkFormat.version
        buffer[offset + 5] = UInt8(LogParity.stripeWidth)
        var end = Varint.write(UInt64(byteCount), to: &buffer, at: offset + 6, limit: buffer.count) ?? offset + 6
        for index in 0..<LogParity.stripeWidth { buffer[end + index] = stripes[index] }
        end += LogParity.stripeWidth
        let crc = CRC32C.checksum(of: buffer.span, offset..<end)
        for index in 0..<LogChunkFormat.crcByteCount { buffer[end + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        return end + LogChunkFormat.crcByteCount
    }
}

/// A parity chunk that passed its checks: `coveredByteCount` bytes right before it are its
/// group, `width` bytes of parity start at `parityOffset`.
public struct LogParityChunk: Equatable, Sendable {
    /// Magic 4, version 1, width 1, CRC 4: the bytes besides the covered count and the parity.
    static let fixedByteCount = 10
    /// Offset of the chunk's first byte.
    public var offset: Int
    /// The stripe width W, 1…255.
    public var width: Int
    /// Bytes of the group, which ends where this chunk starts.
    public var coveredByteCount: Int
    /// Offset of the parity's first byte.
    public var parityOffset: Int
    /// The offset after the chunk.
    public var end: Int

    /// The offset of the group's first byte.
    public var groupStart: Int { offset - coveredByteCount }

    /// Reads the parity chunk at `offset`: `.badMagic`, `.unsupportedVersion`, `.truncated`,
    /// `.crcMismatch` or `.valueOutOfRange` (a width of 0, a group reaching before the bytes).
    /// `fileOffset` is where `bytes[offset]` lies in its segment when `bytes` is only a window
    /// of it (the uplink's reader): the group may then reach before the window's start.
    public static func read(_ bytes: Span<UInt8>, at offset: Int, fileOffset: Int? = nil) throws(LogError) -> LogParityChunk {
        var fields = LogByteReader(offset: offset, end: bytes.count)
        for index in 0..<4 {
            guard try fields.byte(bytes) == LogChunkFormat.magicByte(index, LogChunkFormat.parityMagic) else {
                throw .badMagic(offset: offset)
            }
        }
        let version = try fields.byte(bytes)
        guard version >= LogChunkFormat.oldestParityVersion, version <= LogChunkFormat.newestReadableVersion else {
            throw .unsupportedVersion(version, offset: offset + 4)
        }
        let width = Int(try fields.byte(bytes))
        let covered = try fields.unsigned(bytes)
        guard width > 0, covered <= UInt64(fileOffset ?? offset) else { throw .valueOutOfRange(offset: fields.offset) }
        let parityOffset = fields.offset
        let crcOffset = parityOffset + width
        guard crcOffset + LogChunkFormat.crcByteCount <= bytes.count else { throw .truncated(offset: bytes.count) }
        var trailer = LogByteReader(offset: crcOffset, end: bytes.count)
        let found = UInt32(truncatingIfNeeded: try trailer.littleEndian(byteCount: 4, bytes))
        let computed = CRC32C.checksum(of: bytes, offset..<crcOffset)
        guard computed == found else { throw .crcMismatch(computed: computed, found: found, offset: crcOffset) }
        return LogParityChunk(offset: offset, width: width, coveredByteCount: Int(covered), parityOffset: parityOffset,
                              end: crcOffset + LogChunkFormat.crcByteCount)
    }

    /// The first parity chunk after `offset` in `bytes` that passes its checks, or nil.
    public static func next(in bytes: Span<UInt8>, after offset: Int) -> LogParityChunk? {
        var from = offset + 1
        while let candidate = LogChunkFormat.nextMagic(LogChunkFormat.parityMagic, in: bytes, from: from) {
            if let chunk = try? read(bytes, at: candidate) { return chunk }
            from = candidate + 1
        }
        return nil
    }
}
