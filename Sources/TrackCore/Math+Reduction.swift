// Exact arithmetic helpers and the reduction of radians modulo π/2.
//
// Error-free transformations (Knuth's two-sum, Dekker's product) stand in for FMA: without
// `-mfma` the compiler turns `addingProduct` into a call to libm's `fma`, which the firmware
// build does not link.

extension Math {
    /// An unevaluated sum `high + low` with |low| ≤ ulp(high)/2: about 106 bits of precision.
    struct DoubleDouble {
        var high: Double
        var low: Double

        /// The sum rounded to one double.
        var value: Double { high + low }

        func plus(_ other: DoubleDouble) -> DoubleDouble {
            let sum = Math.twoSum(high, other.high)
            return Math.fastTwoSum(sum.high, sum.low + (low + other.low))
        }

        func minus(_ other: DoubleDouble) -> DoubleDouble {
            plus(DoubleDouble(high: -other.high, low: -other.low))
        }
    }

    static let halfPi = DoubleDouble(high: 0x1.921fb54442d18p+0, low: 0x1.1a62633145c07p-54)
    static let pi = DoubleDouble(high: 0x1.921fb54442d18p+1, low: 0x1.1a62633145c07p-53)

    /// a + b = high + low exactly.
    @inline(__always)
    static func twoSum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        let bVirtual = s - a
        let aVirtual = s - bVirtual
        return DoubleDouble(high: s, low: (a - aVirtual) + (b - bVirtual))
    }

    /// a + b = high + low exactly, for |a| ≥ |b| (or a = 0).
    @inline(__always)
    static func fastTwoSum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        return DoubleDouble(high: s, low: b - (s - a))
    }

    /// a · b = high + low exactly (Dekker), for |a|, |b| below 2^995 and products above 2^-969.
    @inline(__always)
    static func twoProduct(_ a: Double, _ b: Double) -> DoubleDouble {
        let p = a * b
        let aSplit = split(a)
        let bSplit = split(b)
        let error = ((aSplit.high * bSplit.high - p) + aSplit.high * bSplit.low + aSplit.low * bSplit.high)
            + aSplit.low * bSplit.low
        return DoubleDouble(high: p, low: error)
    }

    /// a = high + low with each half fitting in 26 bits.
    @inline(__always)
    static func split(_ a: Double) -> DoubleDouble {
        let c = 134_217_729.0 * a  // 2^27 + 1
        let high = c - (c - a)
        return DoubleDouble(high: high, low: a - high)
    }

    /// (high + low) · (other.high + other.low) to about 104 bits.
    static func product(_ a: DoubleDouble, _ b: DoubleDouble) -> DoubleDouble {
        let p = twoProduct(a.high, b.high)
        return fastTwoSum(p.high, p.low + (a.high * b.low + a.low * b.high))
    }

    /// x = quadrant · π/2 + (high + low) with |high + low| ≤ ~π/4; finite x.
    static func reduceQuarterTurns(_ x: Double) -> (high: Double, low: Double, quadrant: Int) {
        if x.magnitude < 1_600_000 {
            return reduceCodyWaite(x)
        }
        let reduced = reducePayneHanek(x.magnitude)
        if x.sign == .minus {
            return (-reduced.high, -reduced.low, (4 - reduced.quadrant) & 3)
        }
        return reduced
    }

    /// Cody–Waite: π/2 as 33 + 33 + 53 + 53 bits; n · (first two parts) is exact for
    /// n < 2^20, and the tail is carried in double-double, so even the closest approaches of
    /// multiples of π/2 (|r| ≈ 2^-60 in this range) keep full precision.
    static func reduceCodyWaite(_ x: Double) -> (high: Double, low: Double, quadrant: Int) {
        let part1 = 0x1.921fb54400000p+0
        let part2 = 0x1.0b4611a600000p-34
        let part3 = 0x1.3198a2e037073p-69
        let part4 = 0x1.129024e088a68p-123
        let twoOverPi = 0x1.45f306dc9c883p-1
        // Round to nearest integer by adding and removing 1.5 · 2^52 (no libm `round`).
        let n = (x * twoOverPi + 0x1.8p52) - 0x1.8p52
        let a = x - n * part1  // exact: Sterbenz
        let b = twoSum(a, -(n * part2))  // n · part2 is exact
        let c = twoProduct(n, part3)
        let d = twoSum(b.high, -c.high)
        let tail = ((b.low + d.low) - c.low) - n * part4
        let r = fastTwoSum(d.high, tail)
        return (r.high, r.low, Int(n) & 3)
    }
}
