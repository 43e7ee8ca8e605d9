// The starting azimuth for Newton's method (Karney 2013, section 5): the great circle on
// the auxiliary sphere for most pairs, the exact answer for very short lines, and the
// astroid approximation (eq. 55) for nearly antipodal points, where the great circle is a
// poor guess and Vincenty's method fails to converge.

extension Geodesic {
    /// A starting α1 (`salp1`, `calp1`); for very short lines also the answer: `sig12 ≥ 0`
    /// with α2 and the mean dn to scale σ12 by. `sig12` is −1 when Newton's method must run.
    struct Start {
        var sig12 = -1.0
        var salp1 = 0.0, calp1 = 0.0
        var salp2 = 0.0, calp2 = 0.0
        var dnm = 0.0
    }

    static func inverseStart(_ ends: Ends, lam12: Double, slam12: Double, clam12: Double) -> Start {
        let sbet1 = ends.sbet1, cbet1 = ends.cbet1, sbet2 = ends.sbet2, cbet2 = ends.cbet2
        var start = Start()
        // β12 = β2 − β1 in [0, π); β12a = β2 + β1 in (−π, 0].
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortLine {
            // Scale λ12 to ω12 with dn at the mid latitude: sin²((β1 + β2)/2).
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            start.dnm = Math.squareRoot(1 + Ellipsoid.ep2 * sbetm2)
            (somg12, comg12) = Math.sinCos(lam12 / (Ellipsoid.f1 * start.dnm))
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        // The great circle on the auxiliary sphere (eq. 49).
        start.salp1 = cbet2 * somg12
        start.calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = Math.hypot(start.salp1, start.calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortLine && ssig12 < Ellipsoid.shortLineSigma {
            // Really short: the auxiliary sphere solution is the answer (eq. 50).
            let calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            (start.salp2, start.calp2) = normalize(cbet1 * somg12, calp2)
            start.sig12 = Math.atan2(ssig12, csig12)
        } else if csig12 >= 0 || ssig12 >= 6 * Ellipsoid.n * Double.pi * cbet1 * cbet1 {
            // Not nearly antipodal: the great circle will do.
        } else {
            // Nearly antipodal. Scale to coordinates where the antipode is the origin and the
            // singular point is (−1, 0), x along the longitude and y along the latitude.
            let lam12x = Math.atan2(-slam12, -clam12)  // λ12 − π
            let k2 = sbet1 * sbet1 * Ellipsoid.ep2
            let eps = k2 / (2 * (1 + Math.squareRoot(1 + k2)) + k2)
            let lamscale = Ellipsoid.f * cbet1 * a3(eps) * Double.pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -tolerance1 && x > -1 - antipodalThreshold {
                // In the strip near the cut through the antipode.
                start.salp1 = min(1, -x)
                start.calp1 = -Math.squareRoot(1 - start.salp1 * start.salp1)
            } else {
                // Solve the astroid problem for ω12 (better than α1 directly: fewer
                // iterations), then the spherical formula for α1.
                let k = astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                let (s, c) = Math.sinCos(omg12a)
                somg12 = s
                comg12 = -c
                start.salp1 = cbet2 * somg12
                start.calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        // Written so that NaN passes through to the caller.
        if !(start.salp1 <= 0) {
            (start.salp1, start.calp1) = normalize(start.salp1, start.calp1)
        } else {
            start.salp1 = 1
            start.calp1 = 0
        }
        return start
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (eq. 55), by the
    /// closed form for the quartic, arranged to avoid cancellation.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        // y = 0 with |x| ≤ 1: the root is 0.
        guard !(q == 0 && r <= 0) else { return 0 }
        // s and t of the closed form, multiplied by r³ and r so that r = 0 cannot divide.
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        // The discriminant of the quadratic for T³; zero on the evolute p^⅓ + q^⅓ = 1.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // The sign of the root that maximizes |T³| loses the least; u is the same.
            t3 += t3 < 0 ? -Math.squareRoot(disc) : Math.squareRoot(disc)
            let t = Math.cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // T is complex but u is real; pick the cube root that avoids cancellation.
            let angle = Math.atan2(Math.squareRoot(-disc), -(s + r3))
            u += 2 * r * Math.cos(angle / 3)
        }
        let v = Math.squareRoot(u * u + q)
        let uv = u < 0 ? q / (v - u) : u + v  // u + v without cancellation
        let w = (uv - q) / (2 * v)
        return uv / (Math.squareRoot(uv + w * w) + w)
    }
}
