// The inverse problem (Karney 2013, section 4): bring the points into a canonical
// configuration, treat meridional and equatorial geodesics directly, otherwise solve
// λ12(α1) = λ12 for the azimuth α1 by Newton's method from the start of `inverseStart`, with a
// bracket to fall back on.

extension Geodesic {
    static let tiny = 0x1p-511  // √(smallest normal double)
    static let tolerance0 = Double.ulpOfOne
    static let tolerance1 = 200 * Double.ulpOfOne
    static let tolerance2 = 0x1p-26  // √ε
    static let bracketTolerance = Double.ulpOfOne
    static let antipodalThreshold = 1000 * 0x1p-26
    static let newtonIterations = 20
    static let maximumIterations = newtonIterations + 53 + 10
    static let radiansPerDegree = Double.pi / 180

    /// Where a geodesic stands at both ends on the auxiliary sphere: the state `lambda12`
    /// returns and `lengths` takes.
    struct Arc {
        var sig12 = 0.0
        var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0
        var eps = 0.0
    }

    static func solveInverse(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double)
        -> GeodesicInverse
    {
        let a = Ellipsoid.a, b = Ellipsoid.b
        // Longitude difference, made non-negative; its exact error rides along in lon12s.
        var (lon12, lon12s) = angleDifference(longitude1, longitude2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * radiansPerDegree
        let (slam12, clam12) = sinCosDegrees(lon12, plus: lon12s)
        lon12s = (180 - lon12) - lon12s  // the supplement, 180° − lon12
        // Swap so that point 1 has the larger |latitude|, then make latitude 1 ≤ −0.
        var lat1 = roundAngle(latitude1.magnitude > 90 ? .nan : latitude1)
        var lat2 = roundAngle(latitude2.magnitude > 90 ? .nan : latitude2)
        let swapp: Double = lat1.magnitude < lat2.magnitude || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign = -lonsign
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign
        // Now 0 ≤ lon12 ≤ 180, −90 ≤ lat1 ≤ −0, lat1 ≤ lat2 ≤ −lat1.
        let (sbet1, cbet1) = reducedLatitude(lat1)
        var (sbet2, cbet2) = reducedLatitude(lat2)
        // Force |β2| = |β1| exactly when the rounded values say so (Karney's test cases
        // 48.522876735459 0 -48.52287673545898293 179.599720456223079643 and similar).
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
        } else if sbet2.magnitude == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = Math.squareRoot(1 + Ellipsoid.ep2 * sbet1 * sbet1)
        let dn2 = Math.squareRoot(1 + Ellipsoid.ep2 * sbet2 * sbet2)
        let ends = Ends(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2)

        var s12x = 0.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Both points on one meridian (or point 1 at a pole): head for the target longitude.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            var arc = Arc()
            arc.ssig1 = sbet1
            arc.csig1 = calp1 * cbet1
            arc.ssig2 = sbet2
            arc.csig2 = calp2 * cbet2
            arc.sig12 = Math.atan2(
                max(0, arc.csig1 * arc.ssig2 - arc.ssig1 * arc.csig2) + 0,
                arc.csig1 * arc.csig2 + arc.ssig1 * arc.ssig2)
            arc.eps = Ellipsoid.n
            var (s12b, m12b) = lengths(arc, ends, distance: true)
            // σ12 > π/2 with m12 < 0 means the meridian is not the shortest path (prolate or
            // nearly antipodal): fall through to the general case.
            if arc.sig12 < 1 || m12b >= 0 {
                if arc.sig12 < 3 * tiny || (arc.sig12 < tolerance0 && (s12b < 0 || m12b < 0)) {
                    s12b = 0
                    m12b = 0
                }
                s12x = s12b * b
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && lon12s >= Ellipsoid.f * 180 {
            // Both on the equator and not so far apart that the geodesic leaves it.
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = a * lam12
        } else if !meridian {
            let start = inverseStart(ends, lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if start.sig12 >= 0 {
                // Short enough for the auxiliary sphere at the mid latitude to be exact.
                salp2 = start.salp2
                calp2 = start.calp2
                s12x = start.sig12 * b * start.dnm
            } else {
                let solution = newton(ends, salp1: salp1, calp1: calp1, slam12: slam12, clam12: clam12)
                salp1 = solution.salp1
                calp1 = solution.calp1
                salp2 = solution.salp2
                calp2 = solution.calp2
                s12x = lengths(solution.arc, ends, distance: true).s12b * b
            }
        }

        // Undo the canonical transformation on the azimuths.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return GeodesicInverse(
            distanceMetres: 0 + s12x,  // no −0
            initialAzimuthDegrees: Math.atan2Degrees(salp1, calp1),
            finalAzimuthDegrees: Math.atan2Degrees(salp2, calp2)
        )
    }

    /// Newton's method on λ12(α1) − λ12, which has one root in (0, π) with positive slope;
    /// the bracket (α1a, α1b) shrinks with every evaluation and supplies the midpoint whenever
    /// a Newton step leaves it or the slope is not positive.
    static func newton(_ ends: Ends, salp1: Double, calp1: Double, slam12: Double, clam12: Double)
        -> (salp1: Double, calp1: Double, salp2: Double, calp2: Double, arc: Arc)
    {
        var salp1 = salp1, calp1 = calp1
        var salp1a = tiny, calp1a = 1.0, salp1b = tiny, calp1b = -1.0
        var tripNewton = false
        var tripBracket = false
        var iteration = 0
        while true {
            let step = lambda12(
                ends, salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                derivative: iteration < newtonIterations)
            let v = step.lam12
            // Written so that a NaN ends the loop.
            if tripBracket || !(v.magnitude >= (tripNewton ? 8 : 1) * tolerance0) || iteration == maximumIterations {
                return (salp1, calp1, step.salp2, step.calp2, step.arc)
            }
            if v > 0 && (iteration > newtonIterations || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1
                calp1b = calp1
            } else if v < 0 && (iteration > newtonIterations || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1
                calp1a = calp1
            }
            iteration += 1
            if iteration <= newtonIterations && step.dlam12 > 0 {
                let dalp1 = -v / step.dlam12
                if dalp1.magnitude < Double.pi {
                    let (sdalp1, cdalp1) = Math.sinCos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        calp1 = calp1 * cdalp1 - salp1 * sdalp1
                        salp1 = nsalp1
                        (salp1, calp1) = normalize(salp1, calp1)
                        // Where the slope goes to 0 convergence is not quadratic: stop on ε.
                        tripNewton = v.magnitude <= 16 * tolerance0
                        continue
                    }
                }
            }
            salp1 = (salp1a + salp1b) / 2
            calp1 = (calp1a + calp1b) / 2
            (salp1, calp1) = normalize(salp1, calp1)
            tripNewton = false
            tripBracket = (salp1a - salp1).magnitude + (calp1a - calp1) < bracketTolerance
                || (salp1 - salp1b).magnitude + (calp1 - calp1b) < bracketTolerance
        }
    }
}
