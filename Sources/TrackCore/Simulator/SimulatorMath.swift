/// The few functions the simulator needs beyond the standard library, which has no sine or
/// arctangent without Foundation or Glibc: accurate to about 1e-12, plenty for positions in
/// nanodegrees.
enum SimulatorMath {
    static let pi = 3.141_592_653_589_793_238_46
    static let degreesPerRadian = 180 / pi
    /// Mean Earth radius in metres (IUGG), for metre ↔ degree conversions over short distances.
    static let earthRadiusMetres = 6_371_008.8

    /// sin(x), x in radians.
    static func sin(_ x: Double) -> Double {
        // Reduce to [-π, π], then to [-π/2, π/2] with sin(π - x) = sin(x).
        var y = x - 2 * pi * (x / (2 * pi)).rounded()
        if y > pi / 2 { y = pi - y } else if y < -pi / 2 { y = -pi - y }
        // Taylor series: the x^19 term is below 1e-13 for |y| ≤ π/2.
        let y2 = y * y
        var term = y
        var sum = y
        var n = 1.0
        for _ in 0..<9 {
            term *= -y2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// cos(x), x in radians.
    static func cos(_ x: Double) -> Double { sin(x + pi / 2) }

    /// atan(x) in radians.
    static func atan(_ x: Double) -> Double {
        if x < 0 { return -atan(-x) }
        if x > 1 { return pi / 2 - atan(1 / x) }
        // Halve the angle twice (atan x = 2 atan(x / (1 + √(1 + x²)))): |x| ≤ 0.2 afterwards,
        // where the series converges fast.
        var y = x
        for _ in 0..<2 { y = y / (1 + (1 + y * y).squareRoot()) }
        let y2 = y * y
        var term = y
        var sum = y
        var k = 1.0
        for _ in 0..<12 {
            term *= -y2
            k += 2
            sum += term / k
        }
        return 4 * sum
    }

    /// atan2(y, x) in radians, −π…π.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return atan(y / x) }
        if x < 0 { return y >= 0 ? atan(y / x) + pi : atan(y / x) - pi }
        if y > 0 { return pi / 2 }
        if y < 0 { return -pi / 2 }
        return 0
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a small seeded generator, so a simulation with the
/// same seed writes the same bytes on every machine and in both builds.
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
