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

    mutating func flag(_ set: Bool, _ bytes: inout MutableSpan<UInt8>) {
        write(set ? 1 : 0, count: 1, &bytes)
    }

    /// A value of any size: 7 bits of length n (0…64), then its n low bits.
    mutating func wide(_ value: UInt64, _ bytes: inout MutableSpan<UInt8>) {
        let length = 64 - value.leadingZeroBitCount
        write(UInt64(length), count: 7, &bytes)
        write(value, count: length, &bytes)
    }

    /// The zigzag of `value` as `wide`.
    mutating func wideSigned(_ value: Int64, _ bytes: inout MutableSpan<UInt8>) {
        wide(Varint.zigzag(value), &bytes)
    }
}

/// Reads bits written by `LogBitWriter` between `bit` and `endBit`; every error names the byte
/// offset it happened at.
struct LogBitReader {
    var bit: Int
    let endBit: Int

    var byteOffset: Int { bit >> 3 }

    mutating func read(count: Int, _ bytes: Span<UInt8>) throws(LogError) -> UInt64 {
        guard bit + count <= endBit else { throw .malformedPayload(offset: min(endBit, bit) >> 3) }
        var value: UInt64 = 0
        var done = 0
        while done < count {
            let shift = bit & 7
            let take = min(8 - shift, count - done)
            let piece = UInt64((bytes[bit >> 3] >> UInt8(shift)) & UInt8(truncatingIfNeeded: (1 << take) - 1))
            value |= piece << UInt64(done)
            bit += take
            done += take
        }
        return value
    }

    mutating func flag(_ bytes: Span<UInt8>) throws(LogError) -> Bool {
        try read(count: 1, bytes) == 1
    }

    mutating func wide(_ bytes: Span<UInt8>) throws(LogError) -> UInt64 {
        let start = byteOffset
        let length = Int(try read(count: 7, bytes))
        guard length <= 64 else { throw .malformedPayload(offset: start) }
        return try read(count: length, bytes)
    }

    mutating func wideSigned(_ bytes: Span<UInt8>) throws(LogError) -> Int64 {
        Varint.unzigzag(try wide(bytes))
    }
}

/// An adaptive Rice code for one field (LOCO-I style): the parameter k follows the running mean
/// of the field's zigzagged residuals over the last 4 to 8 values, so a field that is mostly 0
/// costs 1 bit and a noisy one about log2 of its spread plus 2.
///
/// A value u is written as q = u >> k in unary (q one-bits, then a zero) and the k low bits of
/// u. When q would reach `escape` (24), the code is 24 one-bits, then 6 bits n = bit length of u
/// minus 1, then the n low bits of u (its top bit is implied).
struct LogRice: Sendable {
    static let escape = 24
    /// The sum of recent values (capped per value at 2^40) and how many, halved at 8: a short
    /// memory, because GPS noise changes with speed and sky view within a minute.
    var total: UInt64
    var count: UInt64

    /// A context whose first k is `initialK` (0…60), as if 4 values of about 2^k had been seen.
    init(initialK: Int) {
        count = 4
        total = 4 << UInt64(min(max(initialK, 0), 60))
    }

    var k: Int {
        var k = 0
        while k < 60, count << UInt64(k) < total { k += 1 }
        return k
    }

    mutating func update(_ value: UInt64) {
        total &+= min(value, 1 << 40)
        count += 1
        if count >= 8 {
            total >>= 1
            count >>= 1
        }
    }

    mutating func encode(_ value: Int64, _ out: inout LogBitWriter, _ bytes: inout MutableSpan<UInt8>) {
        let u = Varint.zigzag(value)
        let k = self.k
        let q = u >> UInt64(k)
        if q < UInt64(LogRice.escape) {
            // q ones then a zero, as one write of q + 1 bits.
            out.write((1 << q) - 1, count: Int(q) + 1, &bytes)
            out.write(u, count: k, &bytes)
        } else {
            out.write((1 << UInt64(LogRice.escape)) - 1, count: LogRice.escape, &bytes)
            let length = 64 - u.leadingZeroBitCount
            out.write(UInt64(length - 1), count: 6, &bytes)
            out.write(u, count: length - 1, &bytes)
        }
        update(u)
    }

    mutating func decode(_ input: inout LogBitReader, _ bytes: Span<UInt8>) throws(LogError) -> Int64 {
        let k = self.k
        var q = 0
        while q < LogRice.escape, try input.flag(bytes) { q += 1 }
        let u: UInt64
        if q < LogRice.escape {
            let low = try input.read(count: k, bytes)
            // q < 24 and k ≤ 60 can still overflow 64 bits: such a value was never written.
            guard k + (64 - UInt64(q).leadingZeroBitCount) <= 64 else { throw .malformedPayload(offset: input.byteOffset) }
            u = UInt64(q) << UInt64(k) | low
        } else {
            let length = Int(try input.read(count: 6, bytes)) + 1
            let low = try input.read(count: length - 1, bytes)
            u = length == 64 ? (1 << 63) | low : (1 << UInt64(length - 1)) | low
        }
        update(u)
        return Varint.unzigzag(u)
    }
}
