// Angle handling shared by the inverse and direct problems: careful differences of
// longitudes and the coarsening of tiny angles that keeps the algorithms' symmetries.

extension Geodesic {
    /// The end points on the auxiliary sphere: sin and cos of the reduced latitudes β and
    /// dn = √(1 + e′² sin²β).
    struct Ends {
        var sbet1: Double, cbet1: Double, dn1: Double
        var sbet2: Double, cbet2: Double, dn2: Double
    }

    /// Rounds |x| < 1/16 to a multiple of 2^-57 (GeographicLib's AngRound), so that angles
    /// below 3.5e-18 become zero: latitudes a hair off the equator behave as on it.
    static func roundAngle(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = x.magnitude
        let w = z - y
        y = w > 0 ? z - w : y
        return Double(signOf: x, magnitudeOf: y)
    }

    /// y − x in degrees, reduced to −180…180, plus the exact rounding error of that result:
    /// the difference is exact as a sum (GeographicLib's AngDiff). −180 only for west-going
    /// pairs, so the sign says which way round the shorter side is.
    static func angleDifference(_ x: Double, _ y: Double) -> (difference: Double, error: Double) {
        let first = Math.twoSum(Math.remainderDegrees(-x), Math.remainderDegrees(y))
        let second = Math.twoSum(Math.remainderDegrees(first.high), first.low)
        var d = second.high
        let t = second.low
        if d == 0 || d.magnitude == 180 {
            // When t ≠ 0, d = ±180 and t must have the opposite sign.
            d = Double(signOf: t == 0 ? y - x : -t, magnitudeOf: d)
        }
        return (d, t)
    }

    /// sin and cos of (x + t) degrees, reduced exactly before the small t is added.
    static func sinCosDegrees(_ x: Double, plus t: Double) -> (sin: Double, cos: Double) {
        let reduced = Math.reduceDegrees(x)
        let r = roundAngle(reduced.remainder + t)
        return Math.sinCosReducedDegrees(r, quadrant: reduced.quadrant, signOf: x)
    }

    /// sin β and cos β of the reduced latitude, tan β = (1 − f) tan φ, with cos β ≥ tiny so
    /// that a pole has a direction.
    static func reducedLatitude(_ latitude: Double) -> (sin: Double, cos: Double) {
        let (s, c) = Math.sinCosDegrees(latitude)
        let (sbet, cbet) = normalize(s * Ellipsoid.f1, c)
        return (sbet, max(tiny, cbet))
    }

    /// (s, c) scaled to unit length.
    static func normalize(_ s: Double, _ c: Double) -> (Double, Double) {
        let r = Math.hypot(s, c)
        return (s / r, c / r)
    }
}
