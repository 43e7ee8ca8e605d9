// Payne–Hanek reduction of huge arguments: x · 2/π with 2/π taken to as many bits as x's
// exponent needs, in integer arithmetic.

extension Math {
    /// The first 1,280 bits of 2/π after the binary point, most significant first (computed with
    /// mpmath at 2,000 bits; the well-known 0xA2F9836E… prefix). Enough for every finite double.
    private static let twoOverPiBits: [20 of UInt64] = [
        0xA2F9_836E_4E44_1529, 0xFC27_57D1_F534_DDC0, 0xDB62_9599_3C43_9041, 0xFE51_63AB_DEBB_C561,
        0xB724_6E3A_424D_D2E0, 0x0649_2EEA_09D1_921C, 0xFE1D_EB1C_B129_A73E, 0xE882_35F5_2EBB_4484,
        0xE99C_7026_B45F_7E41, 0x3991_D639_8353_39F4, 0x9C84_5F8B_BDF9_283B, 0x1FF8_97FF_DE05_980F,
        0xEF2F_118B_5A0A_6D1F, 0x6D36_7ECF_27CB_09B7, 0x4F46_3F66_9E5F_EA2D, 0x7527_BAC7_EBE5_F17B,
        0x3D07_39F7_8A52_92EA, 0x6BFB_5FB1_1F8D_5D08, 0x5603_3046_FC7B_6BAB, 0xF0CF_BC20_9AF4_361D,
    ]

    /// 64 bits of 2/π starting at bit `offset` (0 = the first bit after the point).
    private static func twoOverPiWord(at offset: Int) -> UInt64 {
        let index = offset >> 6
        let shift = UInt64(offset & 63)
        let first = twoOverPiBits[index]
        let second = index + 1 < 20 ? twoOverPiBits[index + 1] : 0
        return shift == 0 ? first : (first << shift) | (second >> (64 - shift))
    }

    /// x = quadrant · π/2 + (high + low) for finite x ≥ 1.6e6 (the binary point then sits 190 to
    /// 224 bits up the product).
    ///
    /// With x = m · 2^e (m a 53-bit integer), the bits of 2/π worth 2^-i with e − i ≥ 2 only add
    /// multiples of 4 to x · 2/π, so a window of 192 bits from i = e − 1 gives the quadrant and
    /// a 128-bit fraction; the bits beyond the window change it by less than 2^-135.
    static func reducePayneHanek(_ x: Double) -> (high: Double, low: Double, quadrant: Int) {
        let mantissa = x.significandBitPattern | (1 << 52)
        let exponent = Int(x.exponent) - 52
        let start = max(0, exponent - 2)  // bit offset of 2^-(e - 1), or the first bit
        let w0 = twoOverPiWord(at: start)
        let w1 = twoOverPiWord(at: start + 64)
        let w2 = twoOverPiWord(at: start + 128)
        // P = mantissa · (w0 w1 w2) as four 64-bit limbs, least significant first.
        let p2 = mantissa.multipliedFullWidth(by: w2)
        let p1 = mantissa.multipliedFullWidth(by: w1)
        let p0 = mantissa.multipliedFullWidth(by: w0)
        let limb0 = p2.low
        let (limb1, carry1) = p2.high.addingReportingOverflow(p1.low)
        let (sum2, carry2a) = p1.high.addingReportingOverflow(p0.low)
        let (limb2, carry2b) = sum2.addingReportingOverflow(carry1 ? 1 : 0)
        let limb3 = p0.high &+ (carry2a ? 1 : 0) &+ (carry2b ? 1 : 0)
        let limbs: [4 of UInt64] = [limb0, limb1, limb2, limb3]
        // The binary point of x · 2/π sits `fractionBits` above the bottom of P (≥ 190).
        let fractionBits = start + 192 - exponent
        func bits(at position: Int) -> UInt64 {
            let index = position >> 6
            let shift = UInt64(position & 63)
            let lowPart = limbs[index] >> shift
            guard shift != 0, index + 1 < 4 else { return lowPart }
            return lowPart | (limbs[index + 1] << (64 - shift))
        }
        var quadrant = Int(bits(at: fractionBits) & 3)
        // The top 128 bits of the fraction, as two words (UInt128 shifts would need compiler
        // runtime routines on aarch64).
        var high = bits(at: fractionBits - 64)
        var low = bits(at: fractionBits - 128)
        var negative = false
        if high >> 63 != 0 {  // fraction ≥ 1/2: round up to the next quadrant, negate
            quadrant += 1
            low = 0 &- low
            high = ~high &+ (low == 0 ? 1 : 0)
            negative = true
        }
        guard high | low != 0 else { return (0, 0, quadrant & 3) }
        // Normalize so the leading one is bit 127, then take two 53-bit pieces.
        var leading = 0
        if high == 0 {
            high = low
            low = 0
            leading = 64
        }
        let shift = high.leadingZeroBitCount
        if shift > 0 {
            high = high << UInt64(shift) | low >> UInt64(64 - shift)
            low <<= UInt64(shift)
        }
        leading += shift
        let top = Double(high >> 11)
        let next = Double((high & 0x7FF) << 42 | low >> 22)
        let fractionHigh = Double(sign: .plus, exponent: 75 - 128 - leading, significand: top)
        let fractionLow = Double(sign: .plus, exponent: 22 - 128 - leading, significand: next)
        let r = product(DoubleDouble(high: fractionHigh, low: fractionLow), halfPi)
        return negative ? (-r.high, -r.low, quadrant & 3) : (r.high, r.low, quadrant & 3)
    }
}
