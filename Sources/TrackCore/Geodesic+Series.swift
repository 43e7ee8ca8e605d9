// The series of Karney, "Algorithms for geodesics" (J. Geodesy 87, 43–55, 2013), to sixth
// order in the small parameter ε (eqs. 15–24); the coefficients are the rational numbers of
// the paper's appendix (and its addenda for A2), in Horner form.

extension Geodesic {
    /// Fourier coefficients c[1]…c[6]; c[0] is unused.
    typealias Coefficients = [7 of Double]

    /// The WGS-84 ellipsoid and the derived quantities the algorithms use.
    enum Ellipsoid {
        static let a = 6_378_137.0
        static let f = 1 / 298.257223563
        static let f1 = 1 - f
        static let e2 = f * (2 - f)
        static let ep2 = e2 / (f1 * f1)
        static let n = f / (2 - f)
        static let b = a * f1
        /// Below this σ12 the auxiliary-sphere solution at the mid latitude is exact to ε
        /// (Karney's `etol2`, with his safety factor 0.1).
        static let shortLineSigma = 0.1 * 0x1p-26 / Math.squareRoot(max(0.001, f) * min(1, 1 - f / 2) / 2)
        /// A3 as a polynomial in ε, coefficients of ε⁵ … ε⁰ (eq. 24).
        static let a3Polynomial: [6 of Double] = [
            -3.0 / 128,
            (-2 * n - 3) / 64,
            ((-n - 3) * n - 1) / 16,
            ((3 * n - 1) * n - 2) / 8,
            (n - 1) / 2,
            1,
        ]
        /// C3[l] as polynomials in ε with coefficients in n (eq. 25), highest power first.
        static let c3Polynomial: [15 of Double] = [
            3.0 / 128, (2 * n + 5) / 128, ((3 - n) * n + 3) / 64, (1 - n * n) / 8, (1 - n) / 4,
            5.0 / 256, (n + 3) / 128, ((-3 * n - 2) * n + 3) / 64, ((n - 3) * n + 2) / 32,
            7.0 / 512, (9 - 10 * n) / 384, ((5 * n - 9) * n + 5) / 192,
            7.0 / 512, (7 - 14 * n) / 512,
            21.0 / 2560,
        ]
    }

    /// Σ c[l] sin(2lσ) for l = 1…6 by Clenshaw summation, from sin σ and cos σ.
    static func sineSeries(_ sinx: Double, _ cosx: Double, _ c: Coefficients) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2σ
        var y0 = 0.0
        var y1 = 0.0
        var l = 6
        while l > 0 {
            y1 = ar * y0 - y1 + c[l]
            y0 = ar * y1 - y0 + c[l - 1]
            l -= 2
        }
        return 2 * sinx * cosx * y0
    }

    /// A1 − 1 (eq. 17): the mean of dI1/dσ − 1, for the distance along the geodesic.
    static func a1Minus1(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = eps2 * (eps2 * (eps2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C1[l] (eq. 18).
    static func c1(_ eps: Double) -> Coefficients {
        let eps2 = eps * eps
        var c: Coefficients = .init(repeating: 0)
        var d = eps
        c[1] = d * ((6 - eps2) * eps2 - 16) / 32
        d *= eps
        c[2] = d * ((64 - 9 * eps2) * eps2 - 128) / 2048
        d *= eps
        c[3] = d * (9 * eps2 - 16) / 768
        d *= eps
        c[4] = d * (3 * eps2 - 5) / 512
        d *= eps
        c[5] = -7 * d / 1280
        d *= eps
        c[6] = -7 * d / 2048
        return c
    }

    /// C′1[l] (eq. 21): the reversion of the C1 series, σ from the distance.
    static func c1Prime(_ eps: Double) -> Coefficients {
        let eps2 = eps * eps
        var c: Coefficients = .init(repeating: 0)
        var d = eps
        c[1] = d * ((205 * eps2 - 432) * eps2 + 768) / 1536
        d *= eps
        c[2] = d * ((4005 * eps2 - 4736) * eps2 + 3840) / 12288
        d *= eps
        c[3] = d * (116 - 225 * eps2) / 384
        d *= eps
        c[4] = d * (2695 - 7173 * eps2) / 7680
        d *= eps
        c[5] = 3467 * d / 7680
        d *= eps
        c[6] = 38081 * d / 61440
        return c
    }

    /// A2 − 1 (eq. 42, as corrected in the addenda): for the reduced length.
    static func a2Minus1(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = eps2 * (eps2 * (-11 * eps2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// C2[l] (eq. 43).
    static func c2(_ eps: Double) -> Coefficients {
        let eps2 = eps * eps
        var c: Coefficients = .init(repeating: 0)
        var d = eps
        c[1] = d * (eps2 * (eps2 + 2) + 16) / 32
        d *= eps
        c[2] = d * (eps2 * (35 * eps2 + 64) + 384) / 2048
        d *= eps
        c[3] = d * (15 * eps2 + 80) / 768
        d *= eps
        c[4] = d * (7 * eps2 + 35) / 512
        d *= eps
        c[5] = 63 * d / 1280
        d *= eps
        c[6] = 77 * d / 2048
        return c
    }

    /// A3 (eq. 24): the mean of dI3/dσ, for the longitude.
    static func a3(_ eps: Double) -> Double {
        var value = 0.0
        for index in 0..<6 { value = value * eps + Ellipsoid.a3Polynomial[index] }
        return value
    }

    /// C3[l] for l = 1…5 (eq. 25); c[6] is 0.
    static func c3(_ eps: Double) -> Coefficients {
        var c: Coefficients = .init(repeating: 0)
        var multiplier = 1.0
        var offset = 0
        for l in 1..<6 {
            let order = 5 - l  // of the polynomial in ε
            multiplier *= eps
            var value = 0.0
            for index in offset...(offset + order) { value = value * eps + Ellipsoid.c3Polynomial[index] }
            c[l] = multiplier * value
            offset += order + 1
        }
        return c
    }
}
