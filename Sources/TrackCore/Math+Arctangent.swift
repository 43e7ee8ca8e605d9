// The arc tangent core shared by `atan` and `atan2`.

extension Math {
    /// atan(k/8) for k = 0…8 as double-doubles (mpmath, 2,000 bits).
    private static let arctangentHigh: [9 of Double] = [
        0, 0x1.fd5ba9aac2f6ep-4, 0x1.f5b75f92c80ddp-3, 0x1.6f61941e4def1p-2, 0x1.dac670561bb4fp-2,
        0x1.1e00babdefeb4p-1, 0x1.4978fa3269ee1p-1, 0x1.700a7c5784634p-1, 0x1.921fb54442d18p-1,
    ]
    private static let arctangentLow: [9 of Double] = [
        0, -0x1.cd37686760c17p-59, 0x1.8ab6e3cf7afbdp-57, -0x1.c63aae6f6e918p-56, 0x1.a2b7f222f65e2p-56,
        -0x1.928df287a668fp-58, 0x1.2419a87f2a458p-56, -0x1.8c34d25aadef6p-56, 0x1.1a62633145c07p-55,
    ]

    /// atan(y / x) in [0, π/4] as a double-double, for finite 0 ≤ y ≤ x, x > 0.
    ///
    /// With c = k/8 the nearest eighth to y/x, atan(y/x) = atan(c) + atan(t) where
    /// t = (y − c·x) / (x + c·y), |t| ≤ 1/16; t is formed without rounding y/x, and the series of
    /// atan(t) to t¹⁷ leaves an error below 2^-72.
    static func arctangentOctant(_ y: Double, _ x: Double) -> DoubleDouble {
        if y == 0 { return DoubleDouble(high: 0, low: 0) }
        var xs = x
        var ys = y
        if !(x > 0x1p-400 && x < 0x1p400) {
            // atan(t) = t − t³/3 + …: for t < 2^-60 the cubic term is far below half an ulp.
            if Int(x.exponent) - Int(y.exponent) > 60 { return DoubleDouble(high: y / x, low: 0) }
            // Scale both by the same power of two (exact) so the splits and products below
            // cannot overflow or underflow.
            let shift = -Int(x.exponent)
            xs = Double(sign: .plus, exponent: shift, significand: x)
            ys = Double(sign: .plus, exponent: shift, significand: y)
        }
        let k = Int(ys / xs * 8 + 0.5)  // 0…8
        let c = Double(k) / 8
        let numerator: DoubleDouble
        let denominator: DoubleDouble
        if k == 0 {
            numerator = DoubleDouble(high: ys, low: 0)
            denominator = DoubleDouble(high: xs, low: 0)
        } else {
            // c · (26-bit half) is exact; ys − c · xHalf.high is exact by Sterbenz's lemma.
            let xHalves = split(xs)
            let yHalves = split(ys)
            numerator = twoSum(ys - c * xHalves.high, -(c * xHalves.low))
            let partial = twoSum(xs, c * yHalves.high)
            denominator = fastTwoSum(partial.high, partial.low + c * yHalves.low)
        }
        let tHigh = numerator.high / denominator.high
        let back = twoProduct(tHigh, denominator.high)
        let residual = ((numerator.high - back.high) - back.low) + numerator.low - tHigh * denominator.low
        let tLow = residual / denominator.high
        let z = tHigh * tHigh
        let poly =
            -1.0 / 3
            + z * (1.0 / 5
            + z * (-1.0 / 7
            + z * (1.0 / 9
            + z * (-1.0 / 11
            + z * (1.0 / 13
            + z * (-1.0 / 15
            + z * (1.0 / 17)))))))
        let tail = tLow + tHigh * z * poly
        let head = twoSum(arctangentHigh[k], tHigh)
        return fastTwoSum(head.high, head.low + (arctangentLow[k] + tail))
    }
}
