// The square root without libm. Optimized builds get the processor's instruction; unoptimized
// builds would call libm's `sqrt` for every `squareRoot()` (the compiler lowers it through C's
// `__builtin_sqrt`), and TrackCore links no libm, so debug builds use an exact integer method
// that gives the same, correctly rounded, results.

extension Math {
    /// The square root, correctly rounded; NaN for negative `x`, e.g. `squareRoot(2)` →
    /// 1.4142135623730951.
    @inline(__always)
    public static func squareRoot(_ x: Double) -> Double {
        #if DEBUG
        return integerSquareRoot(x)
        #else
        // `magnitude` tells the optimizer the argument is not negative, so it emits the bare
        // instruction without a libm fallback for the negative case.
        return x < 0 ? .nan : x.magnitude.squareRoot()
        #endif
    }

    /// √x rounded to nearest from integer arithmetic: x = M · 2^E with E even, and
    /// S = round(√(M · 2^52)) found by exact 128-bit comparisons around a floating estimate.
    static func integerSquareRoot(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x < 0 ? .nan : x }  // NaN, ±0 and +∞ pass through
        var significand = x.significandBitPattern
        var exponent = Int(x.exponent) - 52
        if x.isSubnormal {
            // Normalize: shift the leading one up to bit 52.
            let shift = significand.leadingZeroBitCount - 11
            significand <<= UInt64(shift)
            exponent = -1074 - shift
        } else {
            significand |= 1 << 52
        }
        if exponent & 1 != 0 {
            significand <<= 1
            exponent -= 1
        }
        let n = UInt128(significand) << 52  // in [2^104, 2^106)
        // Estimate √n to a few units: a linear start on t = n / 2^106 in [1/4, 1), then Newton.
        let v = Double(significand) * 0x1p52
        let t = Double(significand) * 0x1p-54
        var y = (0.41731 + 0.59016 * t) * 0x1p53
        for _ in 0..<4 { y = 0.5 * (y + v / y) }
        var s = UInt128(UInt64(y))
        while s * s > n { s -= 1 }
        while (s + 1) * (s + 1) <= n { s += 1 }
        // n − s² > s means √n > s + ½: round up (an exact half cannot occur).
        if n - s * s > s { s += 1 }
        return Double(sign: .plus, exponent: exponent / 2 - 26, significand: Double(UInt64(s)))
    }
}
