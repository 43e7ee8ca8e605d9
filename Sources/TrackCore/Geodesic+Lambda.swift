// The pieces of the inverse solution: lengths along a geodesic (eqs. 7, 38–40), the
// longitude difference λ12 as a function of the starting azimuth (eqs. 5–10) and its
// derivative (eq. 46).

extension Geodesic {
    /// Distance s12/b (when `distance`) and reduced length m12/b of the arc, for the geodesic
    /// with parameter `arc.eps`.
    static func lengths(_ arc: Arc, _ ends: Ends, distance: Bool) -> (s12b: Double, m12b: Double) {
        let a1 = a1Minus1(arc.eps)
        let c1a = c1(arc.eps)
        let a2 = a2Minus1(arc.eps)
        var c2a = c2(arc.eps)
        let m0 = a1 - a2
        let scale1 = 1 + a1
        let scale2 = 1 + a2
        var s12b = 0.0
        let j12: Double
        if distance {
            let b1 = sineSeries(arc.ssig2, arc.csig2, c1a) - sineSeries(arc.ssig1, arc.csig1, c1a)
            s12b = scale1 * (arc.sig12 + b1)
            let b2 = sineSeries(arc.ssig2, arc.csig2, c2a) - sineSeries(arc.ssig1, arc.csig1, c2a)
            j12 = m0 * arc.sig12 + (scale1 * b1 - scale2 * b2)
        } else {
            // One series instead of two when only the reduced length is wanted.
            for l in 1...6 { c2a[l] = scale1 * c1a[l] - scale2 * c2a[l] }
            j12 = m0 * arc.sig12
                + (sineSeries(arc.ssig2, arc.csig2, c2a) - sineSeries(arc.ssig1, arc.csig1, c2a))
        }
        // The parentheses keep the cancellation exact for coincident points.
        let m12b = ends.dn2 * (arc.csig1 * arc.ssig2) - ends.dn1 * (arc.ssig1 * arc.csig2)
            - arc.csig1 * arc.csig2 * j12
        return (s12b, m12b)
    }

    /// One evaluation of λ12(α1) − λ12 (the `lam12` field), with the azimuth at point 2, the
    /// arc, and (when `derivative`) dλ12/dα1.
    struct LambdaStep {
        var lam12: Double
        var salp2: Double
        var calp2: Double
        var arc: Arc
        var dlam12: Double
    }

    static func lambda12(
        _ ends: Ends, salp1: Double, calp1: Double, slam120: Double, clam120: Double, derivative: Bool
    ) -> LambdaStep {
        let sbet1 = ends.sbet1, cbet1 = ends.cbet1, sbet2 = ends.sbet2, cbet2 = ends.cbet2
        // An equatorial start heading due north or south: break the degeneracy.
        let calp1 = sbet1 == 0 && calp1 == 0 ? -tiny : calp1
        // sin α0 = sin α1 cos β1 (Clairaut).
        let salp0 = salp1 * cbet1
        let calp0 = Math.hypot(calp1, salp1 * sbet1)
        // tan β1 = tan σ1 cos α1, tan ω1 = sin α0 tan σ1.
        var arc = Arc()
        let somg1 = salp0 * sbet1
        let comg1 = calp1 * cbet1
        (arc.ssig1, arc.csig1) = normalize(sbet1, calp1 * cbet1)
        // With |β2| = −β1 take α2 from α1 directly: the general formula is singular there.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || sbet2.magnitude != -sbet1 {
            let difference = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = Math.squareRoot((calp1 * cbet1) * (calp1 * cbet1) + difference) / cbet2
        } else {
            calp2 = calp1.magnitude
        }
        let somg2 = salp0 * sbet2
        let comg2 = calp2 * cbet2
        (arc.ssig2, arc.csig2) = normalize(sbet2, calp2 * cbet2)
        // σ12 = σ2 − σ1 and ω12 = ω2 − ω1, both limited to [0, π].
        arc.sig12 = Math.atan2(
            max(0, arc.csig1 * arc.ssig2 - arc.ssig1 * arc.csig2) + 0,
            arc.csig1 * arc.csig2 + arc.ssig1 * arc.ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω12 − λ12(target), in one atan2.
        let eta = Math.atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * Ellipsoid.ep2
        arc.eps = k2 / (2 * (1 + Math.squareRoot(1 + k2)) + k2)
        let c3a = c3(arc.eps)
        let b312 = sineSeries(arc.ssig2, arc.csig2, c3a) - sineSeries(arc.ssig1, arc.csig1, c3a)
        let domg12 = -Ellipsoid.f * a3(arc.eps) * salp0 * (arc.sig12 + b312)
        var dlam12 = 0.0
        if derivative {
            if calp2 == 0 {
                dlam12 = -2 * Ellipsoid.f1 * ends.dn1 / sbet1
            } else {
                dlam12 = lengths(arc, ends, distance: false).m12b * Ellipsoid.f1 / (calp2 * cbet2)
            }
        }
        return LambdaStep(lam12: eta + domg12, salp2: salp2, calp2: calp2, arc: arc, dlam12: dlam12)
    }
}
