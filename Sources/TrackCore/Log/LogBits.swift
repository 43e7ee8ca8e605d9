/// Writes bits into a caller's buffer, least significant bit of each byte first, up to
/// `limitBit`; the first write that does not fit sets `failed` and later writes are skipped.
struct LogBitWriter {
    var bit: Int
    let limitBit: Int
    var failed = false

    /// Appends the low `count` bits of `value` (0…64), least significant first.
    mutating func write(_ value: UInt64, count: Int, _ bytes: inout MutableSpan<UInt8>) {
        guard !failed, bit + count <= limitBit else { failed = true; return }
        var rest = count
        var source = value
        while rest > 0 {
            let index = bit >> 3
            let shift = bit & 7
            let take = min(8 - shift, rest)
            let piece = UInt8(truncatingIfNeeded: source) & UInt8(truncatingIfNeeded: (1 << take) - 1)
            // Keep only the bits below `shift`: a failed append may have left bits above it.
            let kept = shift == 0 ? 0 : bytes[index] & UInt8(truncatingIfNeeded: (1 << shift) - 1)
            bytes[index] = kept | (piece << UInt8(shift))
            source = take == 64 ? 0 : source >> UInt64(take)
            bit += take
            rest -= take
        }
    }
}
