import Testing
@testable import TrackCore

/// Encodes `decisions` (bit, chance of a 0 in 1/4096ths; 0 means an adaptive model) and
/// finishes; returns the bytes and the code's length in bits.
private func encode(_ decisions: [(UInt64, UInt16)], byteCount: Int = 4096) -> ([UInt8], Int) {
    var buffer = [UInt8](repeating: 0, count: byteCount)
    var span = buffer.mutableSpan
    var coder = LogArithmeticEncoder(out: LogBitWriter(bit: 0, limitBit: byteCount * 8))
    var model = LogBitModel()
    for (bit, chance) in decisions {
        if chance == 0 { coder.encode(bit, &model, &span) } else { coder.encode(bit, zeroChance: chance, &span) }
    }
    coder.finish(&span)
    #expect(!coder.out.failed)
    return (buffer, coder.out.bit)
}

/// Decodes `count` decisions with the same chances from `bytes` (the first `endBit` bits).
private func decode(_ decisions: [(UInt64, UInt16)], _ bytes: [UInt8], endBit: Int) -> [UInt64] {
    var decoder = LogArithmeticDecoder(bit: 0, endBit: endBit, bytes.span)
    var model = LogBitModel()
    return decisions.map { (_, chance) in
        chance == 0 ? decoder.decode(&model, bytes.span) : decoder.decode(zeroChance: chance, bytes.span)
    }
}

/// Random decisions: skewed and even chances, runs of the likely outcome and surprises.
private func randomDecisions(_ g: inout SplitMix64, count: Int) -> [(UInt64, UInt16)] {
    (0..<count).map { _ in
        let chance: UInt16 = [0, 1, 15, 2048, 4081, 4095, UInt16.random(in: 1...4095, using: &g)][Int.random(in: 0..<7, using: &g)]
        let likelyZero = chance == 0 || chance >= 2048
        let bit: UInt64 = Int.random(in: 0..<10, using: &g) == 0 ? (likelyZero ? 1 : 0) : (likelyZero ? 0 : 1)
        return (bit, chance)
    }
}

struct LogArithmeticTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func decisionsRoundTripWhateverFollows(_ seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let decisions = randomDecisions(&g, count: Int.random(in: 0...3_000, using: &g))
        let (bytes, bits) = encode(decisions)
        let expected = decisions.map { $0.0 }
        // Read as the chunk reader does (0 bits past the end), and with garbage after the
        // code's last bit instead: the code ends cleanly whatever follows it.
        #expect(decode(decisions, bytes, endBit: bits) == expected)
        var garbage = bytes
        for index in 0..<garbage.count where index * 8 >= bits { garbage[index] = UInt8.random(in: 0...255, using: &g) }
        if bits & 7 != 0 { garbage[bits >> 3] |= ~UInt8((1 << (bits & 7)) - 1) }
        #expect(decode(decisions, garbage, endBit: garbage.count * 8) == expected)
    }

    @Test func evenOddsAreThePlainBits() {
        // At even odds a decision is one bit of the stream: 1, 0, 1, 1 → bits 0…3 of byte 0.
        let decisions: [(UInt64, UInt16)] = [(1, 2048), (0, 2048), (1, 2048), (1, 2048)]
        let (bytes, bits) = encode(decisions)
        #expect(bytes[0] & 0x0F == 0x0D)
        #expect(bits == 6)
    }

    @Test func likelyDecisionsCostLittle() {
        // 10,000 adaptive zeros: the model saturates at 4081/4096, about 0.005 bits each.
        let (_, bits) = encode(Array(repeating: (0, 0), count: 10_000))
        #expect(bits < 120)
    }

    @Test func modelStaysWithinItsBounds() {
        var model = LogBitModel()
        for _ in 0..<1_000 { model.update(1) }
        #expect(model.zeroChance == 15)
        for _ in 0..<1_000 { model.update(0) }
        #expect(model.zeroChance == 4081)
    }

    @Test(arguments: [0, 1, -1, 2, -2, 7, -8, 1_000, -65_537, 1 << 40, Int64.max, Int64.min, Int64.min + 1] as [Int64])
    func residualRoundTrip(_ value: Int64) throws {
        var buffer = [UInt8](repeating: 0, count: 256)
        var span = buffer.mutableSpan
        var coder = LogArithmeticEncoder(out: LogBitWriter(bit: 0, limitBit: 256 * 8))
        var code = LogResidualCode()
        // Twice, so the second goes through adapted probabilities.
        code.encode(value, &coder, &span)
        code.encode(value, &coder, &span)
        coder.finish(&span)
        var decoder = LogArithmeticDecoder(bit: 0, endBit: coder.out.bit, buffer.span)
        var decoded = LogResidualCode()
        #expect(try decoded.decode(&decoder, buffer.span, offset: 0) == value)
        #expect(try decoded.decode(&decoder, buffer.span, offset: 0) == value)
    }

    @Test func randomResidualsRoundTrip() throws {
        var g = SplitMix64(seed: 0xA11CE)
        let values = (0..<5_000).map { _ -> Int64 in
            let width = Int.random(in: 0...64, using: &g)
            return width == 64 ? Int64.random(in: .min ... .max, using: &g)
                : Int64.random(in: -(Int64(1) << (width / 2)) ... (Int64(1) << (width / 2)), using: &g)
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var span = buffer.mutableSpan
        var coder = LogArithmeticEncoder(out: LogBitWriter(bit: 0, limitBit: 65_536 * 8))
        var code = LogResidualCode()
        for value in values { code.encode(value, &coder, &span) }
        coder.finish(&span)
        #expect(!coder.out.failed)
        var decoder = LogArithmeticDecoder(bit: 0, endBit: coder.out.bit, buffer.span)
        var decoded = LogResidualCode()
        for value in values { #expect(try decoded.decode(&decoder, buffer.span, offset: 0) == value) }
    }
}
