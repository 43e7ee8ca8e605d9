// The direct problem (Karney 2013, section 3): from the start and its azimuth find the
// equatorial azimuth α0 and σ1 on the auxiliary sphere, convert the distance to σ12 with the
// reverted series (eq. 20), and read off latitude, longitude and azimuth at σ2.

extension Geodesic {
    static func solveDirect(_ latitude1: Double, _ longitude1: Double, _ azimuth1: Double, _ s12: Double)
        -> GeodesicDirect
    {
        let f1 = Ellipsoid.f1
        let (salp1, calp1) = Math.sinCosDegrees(roundAngle(Math.normalizedDegrees(azimuth1)))
        let lat1 = latitude1.magnitude > 90 ? Double.nan : latitude1
        let (sbet1, cbet1) = reducedLatitude(roundAngle(lat1))
        // sin α0 = sin α1 cos β1; α0 in [0, π/2 − |β1|].
        let salp0 = salp1 * cbet1
        let calp0 = Math.hypot(calp1, salp1 * sbet1)
        // tan β1 = tan σ1 cos α1, tan ω1 = sin α0 tan σ1; σ = 0 is the northward equator
        // crossing. A pole start heading along a meridian gets σ1 = ±π/2 from csig1 = 1.
        let somg1 = salp0 * sbet1
        let comg1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let (ssig1, csig1) = normalize(sbet1, comg1)
        let k2 = calp0 * calp0 * Ellipsoid.ep2
        let eps = k2 / (2 * (1 + Math.squareRoot(1 + k2)) + k2)

        // Distance to σ12: τ12 = s12 / (b A1), then σ12 = τ12 − (B1(τ2) − B1(σ1)).
        let a1 = a1Minus1(eps)
        let c1a = c1(eps)
        let b11 = sineSeries(ssig1, csig1, c1a)
        let (sb11, cb11) = Math.sinCos(b11)
        let stau1 = ssig1 * cb11 + csig1 * sb11
        let ctau1 = csig1 * cb11 - ssig1 * sb11
        let tau12 = s12 / (Ellipsoid.b * (1 + a1))
        let (stau12, ctau12) = Math.sinCos(tau12)
        let b12 = -sineSeries(stau1 * ctau12 + ctau1 * stau12, ctau1 * ctau12 - stau1 * stau12, c1Prime(eps))
        // f < 1/100, so the reverted series is accurate without a Newton correction.
        let sig12 = tau12 - (b12 - b11)
        let (ssig12, csig12) = Math.sinCos(sig12)

        // σ2 = σ1 + σ12, then β2, α2 and ω2 from the spherical triangle.
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = Math.hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // A meridian through a pole (salp0 = 0, csig2 = 0): break the degeneracy.
            cbet2 = tiny
            csig2 = tiny
        }
        let salp2 = salp0
        let calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2
        let comg2 = csig2
        let omg12 = Math.atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        // λ12 = ω12 − f sin α0 A3 (σ12 + B3(σ2) − B3(σ1)).
        let c3a = c3(eps)
        let a3c = -Ellipsoid.f * salp0 * a3(eps)
        let lam12 = omg12 + a3c * (sig12 + (sineSeries(ssig2, csig2, c3a) - sineSeries(ssig1, csig1, c3a)))
        let lon12 = lam12 / radiansPerDegree
        let longitude2 = Math.normalizedDegrees(
            Math.normalizedDegrees(longitude1) + Math.normalizedDegrees(lon12))
        return GeodesicDirect(
            latitudeDegrees: Math.atan2Degrees(sbet2, f1 * cbet2),
            longitudeDegrees: longitude2,
            finalAzimuthDegrees: Math.atan2Degrees(salp2, calp2)
        )
    }
}
