// Stand-in geodesy for the fix filter and the sampling policy.
//
// TO BE REPLACED: when `Geodesic.inverse(a, b)` lands in TrackCore, the body of
// `geodesicDistanceAndBearing` becomes a call to it (distance and initial azimuth) and
// `FilterGeodesy` is deleted. Nothing else in Filter/ computes distances or bearings.
//
// Until then: a local tangent plane at the mean latitude of the two points, with the WGS-84
// radii of curvature there. Differences in nanodegrees are taken as exact integers, so short
// distances lose no precision. Error: well under 0.1 % up to tens of kilometres (what sampling
// and jump checks measure); grows over hundreds of kilometres and near the poles, where it
// still says "very far", which is all the jump check needs. TrackCore has no libm, so the
// trigonometry is written out below with series that are exact to ~1e-14 on their domains,
// and so is the square root: `Double.squareRoot()` calls libm's `sqrt` in debug builds (and
// for a negative argument in optimised ones), which the host link does not provide.

/// Distance in metres and initial bearing in degrees (0 north, 90 east, 0 ≤ bearing < 360)
/// from `a` to `b`; 0 m and 0° for equal points.
func geodesicDistanceAndBearing(_ a: Coordinate, _ b: Coordinate) -> (metres: Double, degrees: Double) {
    FilterGeodesy.localTangentPlane(a, b)
}

enum FilterGeodesy {
    static let semiMajorAxisMetres = 6_378_137.0
    static let flattening = 1.0 / 298.257_223_563
    static let eccentricitySquared = flattening * (2.0 - flattening)
    static let pi = 3.141_592_653_589_793_238_46
    static let radiansPerNanodegree = pi / 180e9

    static func localTangentPlane(_ a: Coordinate, _ b: Coordinate) -> (metres: Double, degrees: Double) {
        let dLatitude = b.latitudeNanodegrees &- a.latitudeNanodegrees
        // The short way round across the antimeridian: bring Δλ into −180°…180°.
        var dLongitude = b.longitudeNanodegrees &- a.longitudeNanodegrees
        if dLongitude > 180_000_000_000 { dLongitude -= 360_000_000_000 }
        if dLongitude < -180_000_000_000 { dLongitude += 360_000_000_000 }
        let meanLatitude = Double(a.latitudeNanodegrees / 2 + b.latitudeNanodegrees / 2) * radiansPerNanodegree
        let sinLatitude = sine(meanLatitude)
        let cosLatitude = cosine(meanLatitude)
        // 1/√(1 − e² sin²φ) by its binomial series (x ≤ e² < 0.0067, error < 1e-13): no
        // square root, so the firmware build needs no libm `sqrt` for it.
        let x = eccentricitySquared * sinLatitude * sinLatitude
        let inverseRoot = 1 + x * (0.5 + x * (0.375 + x * (0.3125 + x * (0.273_437_5 + x * 0.246_093_75))))
        // Prime vertical (east-west) and meridional (north-south) radii of curvature.
        let primeVertical = semiMajorAxisMetres * inverseRoot
        let meridional = semiMajorAxisMetres * (1.0 - eccentricitySquared) * inverseRoot * inverseRoot * inverseRoot
        let north = Double(dLatitude) * radiansPerNanodegree * meridional
        let east = Double(dLongitude) * radiansPerNanodegree * primeVertical * cosLatitude
        let squared = north * north + east * east
        guard squared > 0 else { return (0, 0) }
        let metres = squareRoot(squared)
        var degrees = arcTangent2(east, north) * 180.0 / pi
        if degrees < 0 { degrees += 360 }
        if degrees >= 360 { degrees -= 360 }
        return (metres, degrees)
    }

    /// √x by Newton's method from a guess within a factor of 2 (half the binary exponent): six
    /// steps reach full precision. 0 for x ≤ 0 or NaN; ∞ for ∞.
    static func squareRoot(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x.isFinite else { return x }
        var root = Double(sign: .plus, exponent: x.exponent / 2, significand: 1)
        for _ in 0..<6 { root = 0.5 * (root + x / root) }
        return root
    }

    /// sin x for |x| ≤ π/2 (a latitude), Taylor series to x¹⁹: error < 1e-15.
    static func sine(_ x: Double) -> Double {
        let x2 = x * x
        var term = x
        var sum = x
        var n = 1.0
        for _ in 0..<9 {
            term *= -x2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// cos x for |x| ≤ π/2, Taylor series to x²⁰: error < 1e-15.
    static func cosine(_ x: Double) -> Double {
        let x2 = x * x
        var term = 1.0
        var sum = 1.0
        var n = 0.0
        for _ in 0..<10 {
            term *= -x2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// atan t for 0 ≤ t ≤ 1: two half-angle steps bring t below tan(π/16) ≈ 0.199, where
    /// the series to t²⁵ is exact to ~1e-18.
    static func arcTangentUnit(_ t: Double) -> Double {
        var u = t
        for _ in 0..<2 { u = u / (1.0 + squareRoot(1.0 + u * u)) }
        let u2 = u * u
        var power = u
        var sum = u
        var sign = -1.0
        var denominator = 3.0
        for _ in 0..<12 {
            power *= u2
            sum += sign * power / denominator
            sign = -sign
            denominator += 2
        }
        return 4 * sum
    }

    /// atan2(y, x) in radians, −π < result ≤ π; 0 for (0, 0).
    static func arcTangent2(_ y: Double, _ x: Double) -> Double {
        let ay = y < 0 ? -y : y
        let ax = x < 0 ? -x : x
        if ax == 0 && ay == 0 { return 0 }
        // Angle of (|x|, |y|) in the first quadrant, from a ratio no larger than 1.
        let angle = ay <= ax ? arcTangentUnit(ay / ax) : pi / 2 - arcTangentUnit(ax / ay)
        let upper = x < 0 ? pi - angle : angle
        return y < 0 ? -upper : upper
    }
}
