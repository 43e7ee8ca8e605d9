/// Elementary functions for `Double` written in Swift, so TrackCore needs no libm (the firmware
/// build links libc only), e.g. `Math.sin(0.5)` → 0.479425538604203.
///
/// Arguments are radians unless the name says degrees. Results are within 1 ulp of the exact
/// value (MathTests checks them against mpmath values and glibc); special values follow
/// C99 Annex F.
public enum Math {
    /// The sine of `x` radians, any finite `x` (Payne–Hanek reduction beyond 1.6e6), e.g.
    /// `sin(1e22)` → −0.8522008497671888. NaN for NaN or ±infinity.
    public static func sin(_ x: Double) -> Double {
        sinCos(x).sin
    }

    /// The cosine of `x` radians, e.g. `cos(1.0)` → 0.5403023058681398.
    public static func cos(_ x: Double) -> Double {
        sinCos(x).cos
    }

    /// Sine and cosine of `x` radians from one argument reduction, e.g. `sinCos(0)` → (0, 1).
    public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        if x.magnitude <= 0x1.921fb54442d18p-1 {  // π/4: no reduction
            return (sinKernel(x, 0), cosKernel(x, 0))
        }
        let reduced = reduceQuarterTurns(x)
        return quadrantSinCos(reduced.high, reduced.low, quadrant: reduced.quadrant)
    }

    /// The arc tangent of `x` in radians, −π/2…π/2, e.g. `atan(1)` → 0.7853981633974483.
    public static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        let angle: DoubleDouble
        if x.magnitude <= 1 {
            angle = arctangentOctant(x.magnitude, 1)
        } else {
            // atan(x) = π/2 − atan(1/x), without rounding 1/x first.
            angle = halfPi.minus(arctangentOctant(1, x.magnitude))
        }
        let result = angle.value
        return x.sign == .minus ? -result : result
    }

    /// The angle of the point (`x`, `y`) from the positive x axis in radians, −π…π, e.g.
    /// `atan2(1, -1)` → 2.356194490192345. Signed zeros and infinities as in C99.
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return x + y }
        let negativeX = x.sign == .minus
        let result: Double
        if y == 0 {
            result = negativeX ? Double.pi : 0
        } else if x == 0 {
            result = Double.pi / 2
        } else if x.isInfinite || y.isInfinite {
            if x.isInfinite && y.isInfinite {
                result = negativeX ? 3 * Double.pi / 4 : Double.pi / 4
            } else if x.isInfinite {
                result = negativeX ? Double.pi : 0
            } else {
                result = Double.pi / 2
            }
        } else {
            let ax = x.magnitude
            let ay = y.magnitude
            let angle: DoubleDouble
            if ay <= ax {
                let theta = arctangentOctant(ay, ax)
                angle = negativeX ? pi.minus(theta) : theta
            } else {
                let theta = arctangentOctant(ax, ay)
                angle = negativeX ? halfPi.plus(theta) : halfPi.minus(theta)
            }
            result = angle.value
        }
        return y.sign == .minus ? -result : result
    }

    /// The real cube root, e.g. `cbrt(-27)` → −3; keeps the sign of zero.
    public static func cbrt(_ x: Double) -> Double {
        guard x.isFinite, x != 0 else { return x + x }
        // x = m · 2^(3q + r) with m in [1, 2): cbrt(x) = cbrt(m · 2^r) · 2^q.
        var exponent = Int(x.exponent)
        var significand = x.magnitude.significand
        if x.isSubnormal {
            let scaled = x.magnitude * 0x1p64
            exponent = Int(scaled.exponent) - 64
            significand = scaled.significand
        }
        var quotient = exponent / 3
        var rest = exponent - 3 * quotient
        if rest < 0 { rest += 3; quotient -= 1 }
        let v = significand * Double(1 << rest)  // in [1, 8)
        // A least-squares quadratic on [1, 8] (within 5 %), then two Halley steps (cubic
        // convergence: 1e-4, 1e-12).
        var t = 0.8208 + v * (0.2374 - v * 0.01159)
        for _ in 0..<2 {
            let t3 = t * t * t
            t = t * (t3 + 2 * v) / (2 * t3 + v)
        }
        // One Newton step on the exact residual v − t³.
        let square = twoProduct(t, t)
        let cubeHigh = twoProduct(square.high, t)
        let residual = ((v - cubeHigh.high) - cubeHigh.low) - square.low * t
        t += residual / (3 * t * t)
        let root = Double(sign: .plus, exponent: quotient, significand: t)
        return x.sign == .minus ? -root : root
    }

    /// √(x² + y²) without overflow or underflow in the squares, e.g. `hypot(3, 4)` → 5.
    public static func hypot(_ x: Double, _ y: Double) -> Double {
        if x.isInfinite || y.isInfinite { return .infinity }
        let ax = x.magnitude
        let ay = y.magnitude
        let large = max(ax, ay)
        if large > 0x1p-450 && large < 0x1p450 { return hypotKernel(ax, ay) }
        guard large.isFinite, large > 0 else { return ax + ay }
        // Scale by a power of two (exact) so the squares can neither overflow nor lose their
        // exact low parts to underflow.
        let shift = -Int(large.exponent)
        let root = hypotKernel(
            Double(sign: .plus, exponent: shift, significand: ax),
            Double(sign: .plus, exponent: shift, significand: ay))
        return Double(sign: .plus, exponent: -shift, significand: root)
    }

    /// √(x² + y²) within 0.5 ulp for 2^-450 < max(x, y) < 2^450: the sum of squares in
    /// double-double, its root, and one Newton correction.
    @inline(__always)
    static func hypotKernel(_ x: Double, _ y: Double) -> Double {
        let xx = twoProduct(x, x)
        let yy = twoProduct(y, y)
        let sum = twoSum(xx.high, yy.high)
        let root = squareRoot(sum.high)
        let back = twoProduct(root, root)
        let residual = ((sum.high - back.high) - back.low) + (sum.low + xx.low + yy.low)
        return root + residual / (2 * root)
    }

}

extension Math {
    /// sin(x + y) for |x| ≤ π/4 (slightly more is fine) and |y| ≤ ulp(x), by its Taylor series to
    /// x¹⁷: the truncation error is below 1e-19 there.
    @inline(__always)
    static func sinKernel(_ x: Double, _ y: Double) -> Double {
        let z = x * x
        let poly =
            -1.0 / 6
            + z * (1.0 / 120
            + z * (-1.0 / 5_040
            + z * (1.0 / 362_880
            + z * (-1.0 / 39_916_800
            + z * (1.0 / 6_227_020_800
            + z * (-1.0 / 1_307_674_368_000
            + z * (1.0 / 355_687_428_096_000)))))))
        // sin(x + y) ≈ sin x + y·cos x, with cos x ≈ 1 − z/2 at this size of y.
        return x + (x * z * poly + y * (1 - 0.5 * z))
    }

    /// cos(x + y) for |x| ≤ π/4 and |y| ≤ ulp(x), Taylor series to x¹⁶, with x² kept exact so
    /// that 1 − x²/2 loses nothing.
    @inline(__always)
    static func cosKernel(_ x: Double, _ y: Double) -> Double {
        let square = twoProduct(x, x)
        let z = square.high
        let poly =
            1.0 / 24
            + z * (-1.0 / 720
            + z * (1.0 / 40_320
            + z * (-1.0 / 3_628_800
            + z * (1.0 / 479_001_600
            + z * (-1.0 / 87_178_291_200
            + z * (1.0 / 20_922_789_888_000))))))
        let half = 0.5 * z
        let w = 1 - half
        // (1 − w) − half recovers the rounding error of w exactly.
        return w + ((((1 - w) - half) - 0.5 * square.low) + (z * z * poly - x * y))
    }

    /// sin and cos of `quadrant`·π/2 + (high + low) with |high + low| ≤ ~π/4.
    static func quadrantSinCos(_ high: Double, _ low: Double, quadrant: Int) -> (sin: Double, cos: Double) {
        let s = sinKernel(high, low)
        let c = cosKernel(high, low)
        switch quadrant & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }
}
