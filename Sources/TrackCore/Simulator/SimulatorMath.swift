/// Constants for the simulator's metre ↔ degree conversions; the trigonometry is `Math`'s.
enum SimulatorMath {
    static let pi = 3.141_592_653_589_793_238_46
    static let degreesPerRadian = 180 / pi
    /// Mean Earth radius in metres (IUGG), for metre ↔ degree conversions over short distances.
    static let earthRadiusMetres = 6_371_008.8
    /// The fastest speed the simulator writes, in mm/s: 1,999,999.998 knots, just under the
    /// 2,000,000 knots trackd's RMC and VTG decoders accept (about 1,029 km/s).
    static let maximumSpeedMillimetresPerSecond = 1_028_888_888.0
}

struct SimulatorRandom: RandomNumberGenerator, Sendable {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Uniform in `range`.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// Approximately standard normal: the sum of 12 uniforms minus 6 (mean 0, variance 1,
    /// tails cut at ±6), which needs no logarithm.
    mutating func gaussian() -> Double {
        var sum = -6.0
        for _ in 0..<12 { sum += unit() }
        return sum
    }
}
