// Trigonometry in degrees with exact argument reduction: the reduction is done in degrees,
// where it is exact, before the (rounded) conversion to radians, so sinCosDegrees(90) is (1, 0)
// exactly and sinCosDegrees(1e9 + 30) is as accurate as sinCosDegrees(30).

extension Math {
    static let radiansPerDegree = DoubleDouble(high: 0x1.1df46a2529d39p-6, low: 0x1.5c1d8becdd291p-62)
    static let degreesPerRadian = DoubleDouble(high: 0x1.ca5dc1a63c1f8p+5, low: -0x1.1e7ab456405f9p-49)

    /// Sine and cosine of `x` degrees, any finite `x`, e.g. `sinCosDegrees(30)` → (0.5, 0.866…);
    /// exact at multiples of 90°; NaN for NaN or ±infinity.
    public static func sinCosDegrees(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        let reduced = reduceDegrees(x)
        return sinCosReducedDegrees(reduced.remainder, quadrant: reduced.quadrant, signOf: x)
    }

    /// The angle of (`x`, `y`) in degrees, −180…180, e.g. `atan2Degrees(1, 1)` → 45 and
    /// `atan2Degrees(0, -1)` → 180; multiples of 45° come out exact.
    public static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        // Fold into the octant |y| ≤ x, where the angle is in [−45°, 45°], then unfold exactly.
        var x = x
        var y = y
        var octant = 0
        if y.magnitude > x.magnitude { swap(&x, &y); octant = 2 }
        if x.sign == .minus { x = -x; octant += 1 }
        var angle: Double
        if x.isNaN || y.isNaN {
            return x + y
        } else if x == 0 {
            angle = y  // ±0
        } else if x.isInfinite {
            angle = y.isInfinite ? Double(signOf: y, magnitudeOf: 45) : Double(signOf: y, magnitudeOf: 0)
        } else {
            let theta = product(arctangentOctant(y.magnitude, x), degreesPerRadian).value
            angle = y.sign == .minus ? -theta : theta
        }
        switch octant {
        case 1: angle = Double(signOf: y, magnitudeOf: 180) - angle
        case 2: angle = 90 - angle
        case 3: angle = -90 + angle
        default: break
        }
        return angle
    }

    /// `x` degrees normalized to −180…180, exactly, e.g. `normalizedDegrees(540)` → 180 and
    /// `normalizedDegrees(-190)` → 170; ±180 keep the sign of `x`.
    public static func normalizedDegrees(_ x: Double) -> Double {
        let y = remainderDegrees(x)
        return y.magnitude == 180 ? Double(signOf: x, magnitudeOf: 180) : y
    }

    /// x − 360·n for the nearest integer n, exactly, in [−180, 180] (either sign at ±180).
    static func remainderDegrees(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        if x.magnitude <= 180 { return x }
        var r: Double
        if x.magnitude < 0x1p52 {
            // n · 360 < 2^53 is exact, and so is x − n · 360: it lies on x's grid of ulps.
            let n = (x / 360 + 0x1.8p52) - 0x1.8p52
            r = x - n * 360
        } else {
            // x = m · 2^e is an integer: reduce m and 2^e modulo 360 in integers.
            let mantissa = Int(x.significandBitPattern | (1 << 52)) % 360
            var power = 1
            for _ in 0..<(Int(x.exponent) - 52) { power = power * 2 % 360 }
            r = Double(mantissa * power % 360)
            if x.sign == .minus { r = -r }
        }
        if r > 180 { r -= 360 } else if r < -180 { r += 360 }
        return r
    }

    /// x = quadrant · 90° + remainder, |remainder| ≤ 45°, exactly (C's `remquo(x, 90)`).
    static func reduceDegrees(_ x: Double) -> (remainder: Double, quadrant: Int) {
        let r = remainderDegrees(x)
        let n = (r / 90 + 0x1.8p52) - 0x1.8p52  // −2…2
        return (r - n * 90, Int(n) & 3)
    }

    /// sin and cos of quadrant · 90° + `degrees` (|degrees| ≲ 45); a zero sine takes the sign of
    /// `signOf` and a zero cosine is +0, as C99 wants for sin and cos of ±0 and 90°.
    static func sinCosReducedDegrees(_ degrees: Double, quadrant: Int, signOf x: Double) -> (sin: Double, cos: Double) {
        let radians = product(DoubleDouble(high: degrees, low: 0), radiansPerDegree)
        var result = quadrantSinCos(radians.high, radians.low, quadrant: quadrant)
        if result.sin == 0 { result.sin = Double(signOf: x, magnitudeOf: 0) }
        result.cos += 0
        return result
    }
}
