/// An adaptive probability for one binary decision: the chance of a 0 in 1/4096ths.
///
/// Starts at 2048 (even odds). After a 0 it moves a sixteenth of the way towards 4096, after a 1
/// a sixteenth of the way towards 0: `p += (4096 − p) >> 4` or `p −= p >> 4`, which keeps it
/// within 15…4081, so neither outcome ever becomes impossible. E.g. 2048 → 2176 after a 0.
struct LogBitModel: Sendable {
    static let even: UInt16 = 2048
    var zeroChance: UInt16 = LogBitModel.even

    mutating func update(_ bit: UInt64) {
        if bit == 0 { zeroChance += (4096 - zeroChance) >> 4 } else { zeroChance -= zeroChance >> 4 }
    }
}

/// The interval arithmetic both sides share (docs/log-format.md, "Arithmetic code"): 32-bit
/// `low` and `high`, inclusive, split in proportion to a 12-bit chance of a 0.
enum LogArithmetic {
    static let half: UInt64 = 0x8000_0000
    static let quarter: UInt64 = 0x4000_0000
    static let top: UInt64 = 0xFFFF_FFFF

    /// The last value of the 0 part of `[low, high]`. The interval always spans more than a
    /// quarter of 2^32 after renormalisation, so both parts are at least 2^18 wide.
    @inline(__always)
    static func split(_ low: UInt64, _ high: UInt64, _ zeroChance: UInt16) -> UInt64 {
        low + (((high - low + 1) * UInt64(zeroChance)) >> 12) - 1
    }
}

/// A binary arithmetic encoder (Witten, Neal and Cleary's, with 32-bit registers) writing its
/// code bits into its `LogBitWriter`, first bit first. Each chunk starts a fresh interval; the
/// probabilities (`LogBitModel`) carry on from chunk to chunk within a keyframe's context.
struct LogArithmeticEncoder: Sendable {
    /// Where the code bits go.
    var out: LogBitWriter
    var low: UInt64 = 0
    var high: UInt64 = LogArithmetic.top
    /// Bits whose value waits for the next decided bit (each is its opposite).
    var pending = 0

    mutating func encode(_ bit: UInt64, _ model: inout LogBitModel, _ bytes: inout MutableSpan<UInt8>) {
        encode(bit, zeroChance: model.zeroChance, &bytes)
        model.update(bit)
    }

    /// The low `count` bits of `value`, most significant first, each at even odds.
    mutating func encodeDirect(_ value: UInt64, count: Int, _ bytes: inout MutableSpan<UInt8>) {
        var index = count
        while index > 0 {
            index -= 1
            encode((value >> UInt64(index)) & 1, zeroChance: LogBitModel.even, &bytes)
        }
    }

    mutating func encode(_ bit: UInt64, zeroChance: UInt16, _ bytes: inout MutableSpan<UInt8>) {
        let split = LogArithmetic.split(low, high, zeroChance)
        if bit == 0 { high = split } else { low = split + 1 }
        while true {
            if high < LogArithmetic.half {
                emit(0, &bytes)
            } else if low >= LogArithmetic.half {
                emit(1, &bytes)
                low -= LogArithmetic.half
                high -= LogArithmetic.half
            } else if low >= LogArithmetic.quarter && high < LogArithmetic.half + LogArithmetic.quarter {
                pending += 1
                low -= LogArithmetic.quarter
                high -= LogArithmetic.quarter
            } else {
                return
            }
            low <<= 1
            high = high << 1 | 1
        }
    }

    /// Ends the code: two bits (plus any pending) that, followed by any bits at all, select a
    /// value inside the final interval; the decoder reads 0 bits past the payload.
    mutating func finish(_ bytes: inout MutableSpan<UInt8>) {
        pending += 1
        emit(low < LogArithmetic.quarter ? 0 : 1, &bytes)
    }

    private mutating func emit(_ bit: UInt64, _ bytes: inout MutableSpan<UInt8>) {
        out.write(bit, count: 1, &bytes)
        let opposite: UInt64 = bit == 0 ? UInt64.max : 0
        while pending > 0 {
            let count = min(pending, 64)
            out.write(opposite, count: count, &bytes)
            pending -= count
        }
    }
}

/// Decodes what `LogArithmeticEncoder` wrote: the bits from `bit` on, 0 bits once past
/// `endBit`. It reads 32 bits ahead of its decisions: after a code of E bits (finish included)
/// `bit` is the code's start + E + 30.
struct LogArithmeticDecoder: Sendable {
    var low: UInt64 = 0
    var high: UInt64 = LogArithmetic.top
    var value: UInt64 = 0
    var bit: Int
    let endBit: Int

    init(bit: Int, endBit: Int, _ bytes: Span<UInt8>) {
        self.bit = bit
        self.endBit = endBit
        for _ in 0..<32 { value = value << 1 | nextBit(bytes) }
    }

    mutating func decode(_ model: inout LogBitModel, _ bytes: Span<UInt8>) -> UInt64 {
        let bit = decode(zeroChance: model.zeroChance, bytes)
        model.update(bit)
        return bit
    }

    mutating func decodeDirect(count: Int, _ bytes: Span<UInt8>) -> UInt64 {
        var result: UInt64 = 0
        for _ in 0..<count { result = result << 1 | decode(zeroChance: LogBitModel.even, bytes) }
        return result
    }

    mutating func decode(zeroChance: UInt16, _ bytes: Span<UInt8>) -> UInt64 {
        let split = LogArithmetic.split(low, high, zeroChance)
        let result: UInt64
        if value <= split { high = split; result = 0 } else { low = split + 1; result = 1 }
        while true {
            if high < LogArithmetic.half {
                // Nothing to subtract.
            } else if low >= LogArithmetic.half {
                low -= LogArithmetic.half
                high -= LogArithmetic.half
                value -= LogArithmetic.half
            } else if low >= LogArithmetic.quarter && high < LogArithmetic.half + LogArithmetic.quarter {
                low -= LogArithmetic.quarter
                high -= LogArithmetic.quarter
                value -= LogArithmetic.quarter
            } else {
                return result
            }
            low <<= 1
            high = high << 1 | 1
            value = value << 1 | nextBit(bytes)
        }
    }

    private mutating func nextBit(_ bytes: Span<UInt8>) -> UInt64 {
        defer { bit += 1 }
        guard bit < endBit else { return 0 }
        return UInt64((bytes[bit >> 3] >> UInt8(bit & 7)) & 1)
    }
}

extension LogArithmeticEncoder {
    /// A value of any size at even odds: 7 bits of length n (0…64), then its n low bits, most
    /// significant first.
    mutating func wide(_ value: UInt64, _ bytes: inout MutableSpan<UInt8>) {
        let length = 64 - value.leadingZeroBitCount
        encodeDirect(UInt64(length), count: 7, &bytes)
        encodeDirect(value, count: length, &bytes)
    }

    /// The zigzag of `value` as `wide`.
    mutating func wideSigned(_ value: Int64, _ bytes: inout MutableSpan<UInt8>) {
        wide(Varint.zigzag(value), &bytes)
    }
}

extension LogArithmeticDecoder {
    /// Reads what `LogArithmeticEncoder.wide` wrote; a length above 64 is `.malformedPayload`
    /// at `offset`.
    mutating func wide(_ bytes: Span<UInt8>, offset: Int) throws(LogError) -> UInt64 {
        let length = Int(decodeDirect(count: 7, bytes))
        guard length <= 64 else { throw .malformedPayload(offset: offset) }
        return decodeDirect(count: length, bytes)
    }

    mutating func wideSigned(_ bytes: Span<UInt8>, offset: Int) throws(LogError) -> Int64 {
        Varint.unzigzag(try wide(bytes, offset: offset))
    }

    /// The byte of the payload the decoder has reached (it reads 32 bits ahead), for error
    /// offsets.
    var byteOffset: Int { min(max(bit - 32, 0), endBit) >> 3 }
}
