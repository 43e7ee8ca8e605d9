/// A JSON number as written: sign, up to 19 significant decimal digits and a power of ten, so
/// decimal coordinates convert to integer units exactly, e.g. `-12.5e1` is
/// `negative, significand 125, exponent 0` and `nanodegrees` of `48.1173` is 48 117 300 000.
public struct JSONNumber: Equatable, Sendable {
    /// True for a leading minus sign (also for `-0`).
    public var negative: Bool
    /// The first 19 significant digits as an integer.
    public var significand: UInt64
    /// The power of ten the significand is multiplied by (saturated at ±1 000 000).
    public var exponent: Int
    /// True when digits after the 19th were dropped (and were not all zero).
    public var truncated: Bool

    /// A number from its parts.
    public init(negative: Bool, significand: UInt64, exponent: Int, truncated: Bool = false) {
        self.negative = negative
        self.significand = significand
        self.exponent = exponent
        self.truncated = truncated
    }

    /// The value as the nearest Double, within an ulp or two, e.g. `2.5e-3` → 0.0025.
    /// Huge exponents give ±infinity, tiny ones ±0.
    public var double: Double {
        var value = Double(significand)
        var power = exponent
        if power > 400 { power = 400 }
        if power < -400 { power = -400 }
        // Divide by an exact power of ten where possible: 1e22 is the largest exact one.
        while power > 0 {
            let step = min(power, 22)
            value *= JSONNumber.powerOfTen(step)
            power -= step
        }
        while power < 0 {
            let step = min(-power, 22)
            value /= JSONNumber.powerOfTen(step)
            power += step
        }
        return negative ? -value : value
    }

    /// The value × 10^`decimals` rounded half away from zero, nil beyond ±9.2e18,
    /// e.g. `48.1173` with 9 decimals → 48 117 300 000, `1e-10` with 9 → 0.
    public func scaled(decimals: Int) -> Int64? {
        let power = exponent + decimals
        var magnitude: UInt64
        if power >= 0 {
            guard power <= 19 else { return significand == 0 ? 0 : nil }
            let (product, overflow) = significand.multipliedReportingOverflow(by: JSONNumber.integerPowerOfTen(power))
            guard !overflow else { return nil }
            magnitude = product
        } else {
            guard -power <= 19 else { return 0 }
            let divisor = JSONNumber.integerPowerOfTen(-power)
            magnitude = significand / divisor
            let remainder = significand % divisor
            if remainder >= divisor - remainder { magnitude += 1 }
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }

    static func powerOfTen(_ n: Int) -> Double {
        var value = 1.0
        for _ in 0..<n { value *= 10 }
        return value
    }

    static func integerPowerOfTen(_ n: Int) -> UInt64 {
        var value: UInt64 = 1
        for _ in 0..<n { value *= 10 }
        return value
    }
}
