import Foundation
import Testing
import TrackCore

// Known values: correctly rounded results from mpmath at 400 bits. Math promises ≤ 1 ulp;
// measured on 20,000 random arguments per function against mpmath it is within 0.5 ulp for
// atan, atan2, cbrt and hypot, 0.74 for sin, cos and the degree functions.

/// Distance between two doubles in units of the expected value's ulp.
private func ulps(_ value: Double, _ expected: Double) -> Double {
    if value == expected || (value.isNaN && expected.isNaN) { return 0 }
    return (value - expected).magnitude / max(expected.ulp, Double.leastNonzeroMagnitude)
}

/// SplitMix64: a seeded generator so the random sweeps are the same on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random double of either sign with a uniformly random binary exponent in `exponents`.
private func randomDouble(_ exponents: ClosedRange<Int>, _ generator: inout SeededGenerator) -> Double {
    let magnitude = Double(
        sign: .plus, exponent: Int.random(in: exponents, using: &generator),
        significand: Double.random(in: 1..<2, using: &generator))
    return Bool.random(using: &generator) ? magnitude : -magnitude
}

struct MathTests {
    @Test(arguments: [
        (0x1p-1, 0x1.eaee8744b05f0p-2, 0x1.c1528065b7d50p-1),
        (0x1p+0, 0x1.aed548f090ceep-1, 0x1.14a280fb5068cp-1),
        (-0x1p+1, -0x1.d18f6ead1b446p-1, -0x1.aa22657537205p-2),
        (0x1.921fb54442d18p-1, 0x1.6a09e667f3bccp-1, 0x1.6a09e667f3bcdp-1),  // π/4
        (0x1.921fb54442d18p+0, 0x1p+0, 0x1.1a62633145c07p-54),  // π/2
        (0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53, -0x1p+0),  // π
        (0x1.9p+6, -0x1.03425b78c4db8p-1, 0x1.b981dbf665fdfp-1),  // 100
        (0x1.e848p+19, -0x1.6664b2568d867p-2, 0x1.df9df9906d32cp-1),  // 1e6
        (0x1.869ffe6666666p+20, -0x1.3ec9b794013dfp-1, 0x1.90a5b3c06b12cp-1),  // last Cody–Waite
        (0x1.86a001999999ap+20, -0x1.d1ac97ecaadd0p-2, 0x1.c7fe908a35b4bp-1),  // first Payne–Hanek
        (0x1.0f0cf064dd592p+73, -0x1.b453ab76bf397p-1, 0x1.0be2cef01c8f4p-1),  // 1e22
        (-0x1.0f0cf064dd592p+73, 0x1.b453ab76bf397p-1, 0x1.0be2cef01c8f4p-1),
        // 6381956970095103 · 2^797: the double closest to a multiple of π/2.
        (0x1.6ac5b262ca1ffp+849, 0x1p+0, -0x1.14ae72e6ba22fp-61),
        (0x1.fffffffffffffp+1023, 0x1.452fc98b34e97p-8, -0x1.fffe62ecfab75p-1),
        (0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x1p+0),
        (0x1.5798ee2308c3ap-27, 0x1.5798ee2308c3ap-27, 0x1p+0),  // 1e-8
    ])
    func sineAndCosine(x: Double, sine: Double, cosine: Double) {
        #expect(ulps(Math.sin(x), sine) <= 1, "sin(\(x))")
        #expect(ulps(Math.cos(x), cosine) <= 1, "cos(\(x))")
        let both = Math.sinCos(x)
        #expect(both.sin == Math.sin(x) && both.cos == Math.cos(x))
    }

    @Test(arguments: [
        (0.0, 0.0), (0x1.56e1fc2f8f359p-997, 0x1.56e1fc2f8f359p-997), (0x1p-4, 0x1.ff55bb72cfdeap-5),
        (0x1.999999999999ap-4, 0x1.983e282e2cc4dp-4), (0x1p-1, 0x1.dac670561bb4fp-2),
        (0x1.fffffffffffffp-1, 0x1.921fb54442d18p-1), (0x1p+0, 0x1.921fb54442d18p-1),
        (0x1.0000000000001p+0, 0x1.921fb54442d19p-1), (0x1p+1, 0x1.1b6e192ebbe44p+0),
        (0x1.4p+3, 0x1.789bd2c160054p+0), (0x1.2a05f2p+33, 0x1.921fb543d4de0p+0),
        (0x1.7e43c8800759cp+996, 0x1.921fb54442d18p+0), (-0x1.8p+1, -0x1.3fc176b7a8560p+0),
        (Double.infinity, 0x1.921fb54442d18p+0),
    ])
    func arcTangent(x: Double, expected: Double) {
        #expect(ulps(Math.atan(x), expected) <= 1, "atan(\(x))")
    }

    @Test(arguments: [
        (0x1p+0, 0x1p+0, 0x1.921fb54442d18p-1), (0x1p+0, -0x1p+0, 0x1.2d97c7f3321d2p+1),
        (-0x1p+0, -0x1p+0, -0x1.2d97c7f3321d2p+1), (0x1.8p+1, 0x1p+2, 0x1.4978fa3269ee1p-1),
        (-0x1p+2, 0x1.8p+1, -0x1.dac670561bb4fp-1), (0x1.56e1fc2f8f359p-997, 0x1p+0, 0x1.56e1fc2f8f359p-997),
        (0x1p+0, 0x1.56e1fc2f8f359p-997, 0x1.921fb54442d18p+0),
        (0x1.7e43c8800759cp+996, 0x1.56e1fc2f8f359p-997, 0x1.921fb54442d18p+0),
        (0x1.999999999999ap-4, -0x1.2a05f2p+33, 0x1.921fb5443d522p+1),
        (0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x1.921fb54442d18p-1),
        (0x1.1ccf385ebc8a0p+1023, 0x1.c7b1f3cac7433p+1019, 0x1.789bd2c160054p+0),
    ])
    func arcTangentOfQuotient(y: Double, x: Double, expected: Double) {
        #expect(ulps(Math.atan2(y, x), expected) <= 1, "atan2(\(y), \(x))")
    }

    // C99 Annex F.9.1.4: the signs of zeros and the infinities.
    @Test(arguments: [
        (0.0, 1.0, 0.0), (-0.0, 1.0, -0.0), (0.0, -1.0, Double.pi), (-0.0, -1.0, -Double.pi),
        (0.0, 0.0, 0.0), (-0.0, 0.0, -0.0), (0.0, -0.0, Double.pi), (-0.0, -0.0, -Double.pi),
        (1.0, 0.0, Double.pi / 2), (-1.0, -0.0, -Double.pi / 2),
        (1.0, Double.infinity, 0.0), (-1.0, -Double.infinity, -Double.pi),
        (Double.infinity, 1.0, Double.pi / 2), (Double.infinity, Double.infinity, Double.pi / 4),
        (-Double.infinity, -Double.infinity, -3 * Double.pi / 4),
    ])
    func arcTangentSpecialValues(y: Double, x: Double, expected: Double) {
        let value = Math.atan2(y, x)
        #expect(value == expected && value.sign == expected.sign, "atan2(\(y), \(x)) = \(value)")
    }

    @Test(arguments: [
        (0x1p+0, 0x1p+0), (0x1p+1, 0x1.428a2f98d728bp+0), (0x1.8p+1, 0x1.7137449123ef6p+0),
        (0x1.4p+3, 0x1.13c484138704fp+1), (0x1.bp+4, 0x1.8p+1), (-0x1p+3, -0x1p+1),
        (0x1.0624dd2f1a9fcp-10, 0x1.999999999999ap-4), (0x1.56e1fc2f8f359p-997, 0x1.bff2ee48e0530p-333),
        (0x0.0000000000001p-1022, 0x1p-358), (0x1.fffffffffffffp+1023, 0x1.428a2f98d728bp+341),
        (0x1.7bdb02726a955p-922, 0x1.cf80d4eb4dd91p-308), (0x1.8a777659e8f64p+744, 0x1.27af7efd050d6p+248),
    ])
    func cubeRoot(x: Double, expected: Double) {
        #expect(ulps(Math.cbrt(x), expected) <= 1, "cbrt(\(x))")
    }

    @Test(arguments: [
        (0x1.8p+1, 0x1p+2, 0x1.4p+2), (0x1p+0, 0x1p+0, 0x1.6a09e667f3bcdp+0),
        (0x1.7e43c8800759cp+996, 0x1.7e43c8800759cp+996, 0x1.0e4d50f99b211p+997),
        (0x1.56e1fc2f8f359p-997, 0x1.56e1fc2f8f359p-997, 0x1.e4e8d12762225p-997),
        (0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x0.0000000000001p-1022),
        (0x1p+0, 0x1.79ca10c924223p-67, 0x1p+0),
        (0x1.38751730b4929p-1, 0x1.94cab3f194858p-1, 0x1.ff5b672cede64p-1),
    ])
    func hypotenuse(x: Double, y: Double, expected: Double) {
        #expect(ulps(Math.hypot(x, y), expected) <= 1, "hypot(\(x), \(y))")
        #expect(Math.hypot(-y, x) == Math.hypot(x, y))
    }

    @Test(arguments: [
        (0x1.ep+4, 0x1p-1, 0x1.bb67ae8584caap-1), (0x1.68p+5, 0x1.6a09e667f3bcdp-1, 0x1.6a09e667f3bcdp-1),
        (0x1.ep+5, 0x1.bb67ae8584caap-1, 0x1p-1), (0x1p+0, 0x1.1df0b2b89dd1ep-6, 0x1.ffec097f5af8ap-1),
        (-0x1.edd2f1a9fbe77p+6, -0x1.ab2a9b25a9ab9p-1, -0x1.1a43870d371f9p-1),
        (0x1.dcd650fp+29, -0x1.8836fa2cf5039p-1, 0x1.491b7523c161dp-1),  // 1e9 + 30
        (0x1.67fffffe5280dp+8, -0x1.dfc0a7bec36e4p-30, 0x1p+0),
        (0x1.12e0be826d695p-30, 0x1.330aa445be654p-36, 0x1p+0),
    ])
    func sineAndCosineOfDegrees(x: Double, sine: Double, cosine: Double) {
        let value = Math.sinCosDegrees(x)
        #expect(ulps(value.sin, sine) <= 1, "sind(\(x))")
        #expect(ulps(value.cos, cosine) <= 1, "cosd(\(x))")
    }

    @Test(arguments: [-720.0, -270, -180, -90, -0.0, 0, 90, 180, 270, 360, 450, 1e300, -0x1p60 * 90])
    func degreesAreExactOnTheAxes(x: Double) {
        // Every multiple of 90° gives exact 0 and ±1, however large.
        let value = Math.sinCosDegrees(x)
        #expect(value.sin.magnitude == 0 || value.sin.magnitude == 1)
        #expect(value.cos.magnitude == 0 || value.cos.magnitude == 1)
        #expect(value.sin.magnitude + value.cos.magnitude == 1)
    }

    @Test(arguments: [
        (0x1p+0, 0x1p+1, 0x1.a90a731a61dc4p+4), (-0x1p+0, 0x1.8p+1, -0x1.26f58ce59e23cp+4),
        (0x1p+1, -0x1.cp+2, 0x1.481bf51187872p+7), (0x1.b7cdfd9d7bdbbp-34, -0x1p+0, 0x1.67ffffffcec88p+7),
        (1, 1, 45), (-1, -1, -135), (0, -1, 180), (-0.0, -1, -180), (1, 0, 90), (-1, 0, -90), (0, 1, 0),
    ])
    func arcTangentInDegrees(y: Double, x: Double, expected: Double) {
        #expect(ulps(Math.atan2Degrees(y, x), expected) <= 1, "atan2Degrees(\(y), \(x))")
    }

    @Test(arguments: [(540.0, 180.0), (-540, -180), (-190, 170), (190, -170), (359, -1), (0x1p60, 136), (-0.0, -0.0)])
    func normalizesDegrees(x: Double, expected: Double) {
        #expect(Math.normalizedDegrees(x) == expected)
    }

    @Test func nonFiniteArgumentsGiveNaN() {
        for x in [Double.nan, .infinity, -.infinity] {
            #expect(Math.sin(x).isNaN && Math.cos(x).isNaN && Math.sinCosDegrees(x).sin.isNaN)
        }
        #expect(Math.atan(.nan).isNaN && Math.atan2(.nan, 1).isNaN && Math.cbrt(.nan).isNaN)
        #expect(Math.squareRoot(-1).isNaN && Math.squareRoot(.nan).isNaN)
        #expect(Math.hypot(.infinity, .nan) == .infinity)
    }

    // Sweeps against glibc (via Foundation), whose sin, cos, atan and atan2 are correctly
    // rounded in practice: two results within 1 ulp of the truth differ by at most 1 ulp.
    @Test(arguments: [
        ("small", -3...1), ("medium", 2...20), ("Cody–Waite edge", 20...21), ("huge", 21...1023),
    ] as [(String, ClosedRange<Int>)])
    func sineAndCosineMatchGlibc(range: String, exponents: ClosedRange<Int>) {
        var generator = SeededGenerator(state: 1)
        var worst = 0.0
        for _ in 0..<20_000 {
            let x = randomDouble(exponents, &generator)
            worst = max(worst, ulps(Math.sin(x), sin(x)), ulps(Math.cos(x), cos(x)))
        }
        #expect(worst <= 1, "\(range): \(worst) ulp")
    }

    @Test func squareRootIsCorrectlyRounded() {
        // Debug builds take the integer path, release builds the instruction: both must give
        // the processor's correctly rounded result, subnormals included.
        var generator = SeededGenerator(state: 3)
        for _ in 0..<100_000 {
            let x = Double(bitPattern: UInt64.random(in: 1..<0x7FF0_0000_0000_0000, using: &generator))
            #expect(Math.squareRoot(x) == x.squareRoot(), "\(x)")
        }
        for x in [0.0, 1, 2, 4, Double.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude] {
            #expect(Math.squareRoot(x) == x.squareRoot())
        }
        #expect(Math.squareRoot(-0.0).sign == .minus && Math.squareRoot(.infinity) == .infinity)
    }

    @Test func arcTangentsMatchGlibc() {
        var generator = SeededGenerator(state: 2)
        var worst = 0.0
        for _ in 0..<20_000 {
            let x = randomDouble(-40...40, &generator)
            let y = randomDouble(-40...40, &generator)
            worst = max(worst, ulps(Math.atan(x), atan(x)), ulps(Math.atan2(y, x), atan2(y, x)))
        }
        #expect(worst <= 1, "\(worst) ulp")
    }
}
