import Foundation
@testable import TrackCore
import Testing

/// One fix given to the filter and the decision expected for it.
struct FilterStep: Sendable {
    var fix: Fix
    var expected: FilterDecision
    init(_ fix: Fix, _ expected: FilterDecision) {
        self.fix = fix
        self.expected = expected
    }
}

/// A named sequence of fixes through one filter.
struct FilterCase: Sendable, CustomTestStringConvertible {
    var name: String
    var settings = FilterSettings()
    var steps: [FilterStep]
    var testDescription: String { name }
}

private typealias S = Synthetic
private let ok5m = FilterDecision.accepted(accuracyMillimetres: 5_000)

private let filterCases: [FilterCase] = [
    FilterCase(name: "a good 3D fix: HDOP 1.0 × UERE 5 m", steps: [FilterStep(S.fix(0), ok5m)]),
    FilterCase(name: "invalid: no fix (RMC status V) and mode unknown, even with a position", steps: [
        FilterStep(S.fix(0, mode: .noFix), .rejected(.invalid)),
        FilterStep(S.fix(1, mode: .unknown), .rejected(.invalid)),
        FilterStep(S.fix(2, mode: .twoD), ok5m),
    ]),
    FilterCase(name: "no position, no time", steps: [
        FilterStep(S.fix(0, hasPosition: false), .rejected(.noPosition)),
        FilterStep(S.fix(nil), .rejected(.noTime)),
    ]),
    FilterCase(name: "stale: backwards, repeated, and more than 5 s behind the newest time", steps: [
        FilterStep(S.fix(10), ok5m),
        FilterStep(S.fix(10), .rejected(.stale)),
        FilterStep(S.fix(9.5), .rejected(.stale)),
        FilterStep(S.fix(4), .rejected(.stale)),
        FilterStep(S.fix(11), ok5m),
    ]),
    FilterCase(name: "stale: an inaccurate fix still moves the newest time on", steps: [
        FilterStep(S.fix(0), ok5m),
        FilterStep(S.fix(10, hdop: 20), .rejected(.inaccurate(accuracyMillimetres: 100_000))),
        FilterStep(S.fix(4), .rejected(.stale)),
        FilterStep(S.fix(6), ok5m),
    ]),
    FilterCase(name: "too few satellites; an absent count passes", steps: [
        FilterStep(S.fix(0, satellites: 3), .rejected(.tooFewSatellites(3))),
        FilterStep(S.fix(1, satellites: nil), ok5m),
        FilterStep(S.fix(2, satellites: 4), ok5m),
    ]),
    FilterCase(name: "inaccurate by HDOP: 14 × 5 m = 70 m > 65 m; 13 × 5 m is the limit", steps: [
        FilterStep(S.fix(0, hdop: 14), .rejected(.inaccurate(accuracyMillimetres: 70_000))),
        FilterStep(S.fix(1, hdop: 13), .accepted(accuracyMillimetres: 65_000)),
    ]),
    FilterCase(name: "inaccurate by GST: √(50² + 45²) = 67.27 m, whatever HDOP says", steps: [
        FilterStep(S.fix(0, hdop: 0.8, gstLatitude: 50, gstLongitude: 45),
                   .rejected(.inaccurate(accuracyMillimetres: 67_268))),
        FilterStep(S.fix(1, hdop: 20, gstLatitude: 3, gstLongitude: 4), ok5m),
    ]),
    FilterCase(name: "GST of 0 × 0 and half a GST fall back to HDOP; no HDOP assumes 1.5", steps: [
        FilterStep(S.fix(0, hdop: 2, gstLatitude: 0, gstLongitude: 0), .accepted(accuracyMillimetres: 10_000)),
        FilterStep(S.fix(1, hdop: 2, gstLatitude: 3), .accepted(accuracyMillimetres: 10_000)),
        FilterStep(S.fix(2, hdop: nil), .accepted(accuracyMillimetres: 7_500)),
        FilterStep(S.fix(3, hdop: 0), .accepted(accuracyMillimetres: 7_500)),
    ]),
    FilterCase(name: "a single jump of 1 km in 1 s is dropped; the track goes on", steps: [
        FilterStep(S.fix(0), ok5m),
        FilterStep(S.fix(1, east: 1_000), .rejected(.implausibleJump(metresPerSecond: 990))),
        FilterStep(S.fix(2, east: 20), ok5m),
        FilterStep(S.fix(3, north: -2_000, east: 20), .rejected(.implausibleJump(metresPerSecond: 1_990))),
        FilterStep(S.fix(4, east: 40), ok5m),
    ]),
    FilterCase(name: "jump check allows for both accuracies: 140 m in 1 s at 25 m each is 90 m/s", steps: [
        FilterStep(S.fix(0, hdop: 5), .accepted(accuracyMillimetres: 25_000)),
        FilterStep(S.fix(1, east: 140, hdop: 5), .accepted(accuracyMillimetres: 25_000)),
        FilterStep(S.fix(2, east: 280), .rejected(.implausibleJump(metresPerSecond: 110))),
    ]),
    FilterCase(name: "a wrong first fix: five agreeing fixes elsewhere take over", steps: [
        FilterStep(S.fix(0), ok5m),
        FilterStep(S.fix(1, north: 5_000), .rejected(.implausibleJump(metresPerSecond: 4_990))),
        FilterStep(S.fix(2, north: 5_010), .rejected(.implausibleJump(metresPerSecond: 2_500))),
        FilterStep(S.fix(3, north: 5_020), .rejected(.implausibleJump(metresPerSecond: 1_670))),
        FilterStep(S.fix(4, north: 5_030), .rejected(.implausibleJump(metresPerSecond: 1_255))),
        FilterStep(S.fix(5, north: 5_040), ok5m),
        FilterStep(S.fix(6, north: 5_050), ok5m),
        FilterStep(S.fix(7), .rejected(.implausibleJump(metresPerSecond: 5_040))),
    ]),
    FilterCase(name: "fixes that disagree with each other never take over", steps: [
        FilterStep(S.fix(0), ok5m),
        FilterStep(S.fix(1, north: 5_000), .rejected(.implausibleJump(metresPerSecond: 4_990))),
        FilterStep(S.fix(2, north: -5_000), .rejected(.implausibleJump(metresPerSecond: 2_495))),
        FilterStep(S.fix(3, north: 5_000), .rejected(.implausibleJump(metresPerSecond: 1_664))),
        FilterStep(S.fix(4, north: -5_000), .rejected(.implausibleJump(metresPerSecond: 1_248))),
        FilterStep(S.fix(5, north: 5_000), .rejected(.implausibleJump(metresPerSecond: 998))),
        FilterStep(S.fix(6, north: 10), ok5m),
    ]),
    FilterCase(name: "a receiver time an hour ahead, then back: five advancing fixes reset the time", steps: [
        FilterStep(S.fix(0), ok5m),
        FilterStep(S.fix(3_600), ok5m),
        FilterStep(S.fix(1), .rejected(.stale)),
        FilterStep(S.fix(2), .rejected(.stale)),
        FilterStep(S.fix(3), .rejected(.stale)),
        FilterStep(S.fix(4), .rejected(.stale)),
        FilterStep(S.fix(5), ok5m),
        FilterStep(S.fix(6), ok5m),
    ]),
    FilterCase(name: "repeated stale times do not count as advancing", steps: [
        FilterStep(S.fix(0), ok5m),
        FilterStep(S.fix(3_600), ok5m),
        FilterStep(S.fix(1), .rejected(.stale)),
        FilterStep(S.fix(1), .rejected(.stale)),
        FilterStep(S.fix(1), .rejected(.stale)),
        FilterStep(S.fix(1), .rejected(.stale)),
        FilterStep(S.fix(1), .rejected(.stale)),
        FilterStep(S.fix(3_601), ok5m),
    ]),
    FilterCase(
        name: "settings: 30 m accuracy, no satellite check, 300 m/s, recovery after 2",
        settings: FilterSettings(
            maxAccuracyMillimetres: 30_000, maxSpeedMillimetresPerSecond: 300_000,
            minSatellites: 0, recoveryFixes: 2),
        steps: [
            FilterStep(S.fix(0, hdop: 7, satellites: 3), .rejected(.inaccurate(accuracyMillimetres: 35_000))),
            FilterStep(S.fix(1, satellites: 3), ok5m),
            FilterStep(S.fix(2, east: 250), ok5m),
            FilterStep(S.fix(3, east: 5_000), .rejected(.implausibleJump(metresPerSecond: 4_740))),
            FilterStep(S.fix(4, east: 5_100), ok5m),
        ]),
]

@Suite struct FixFilterTests {
    @Test(arguments: filterCases)
    func decisions(_ testCase: FilterCase) {
        var filter = FixFilter(settings: testCase.settings)
        for (index, step) in testCase.steps.enumerated() {
            let decision = filter.evaluate(step.fix, now: Synthetic.now(step.fix))
            #expect(decision == step.expected, "step \(index)")
        }
        #expect(filter.counters.accepted + filter.counters.rejected == testCase.steps.count)
    }

    @Test func countersPerReasonAndStatusLine() {
        var filter = FixFilter()
        let fixes = [
            S.fix(0, mode: .noFix), S.fix(1, hasPosition: false), S.fix(nil), S.fix(2), S.fix(2),
            S.fix(3, satellites: 2), S.fix(4, hdop: 30), S.fix(5, east: 9_000), S.fix(6),
        ]
        for fix in fixes { _ = filter.evaluate(fix, now: Synthetic.now(fix)) }
        var expected = FilterCounters()
        (expected.accepted, expected.invalid, expected.noPosition, expected.noTime) = (2, 1, 1, 1)
        (expected.stale, expected.tooFewSatellites, expected.inaccurate, expected.implausibleJump) = (1, 1, 1, 1)
        #expect(filter.counters == expected)
        #expect(filter.lastAcceptedAt == Synthetic.now(S.fix(6)))

        var buffer = TextBuffer()
        filter.counters.write(to: &buffer)
        #expect(buffer.string ==
            "accepted=2 invalid=1 no-position=1 no-time=1 stale=1 too-few-satellites=1 inaccurate=1 implausible-jump=1 recoveries=0")
    }

    @Test func resetForgetsTheReferenceButNotTheCounters() {
        var filter = FixFilter()
        _ = filter.evaluate(S.fix(10), now: .seconds(1))
        filter.reset()
        #expect(filter.evaluate(S.fix(0, east: 50_000), now: .seconds(2)) == ok5m)
        #expect(filter.counters.accepted == 2)
    }
}

/// Known lengths of a degree on the WGS-84 ellipsoid (from the meridional and prime-vertical
/// radii), checked on 0.01° steps scaled up ×100.
private let degreeLengths: [(latitude: Double, north: Double, east: Double)] = [
    (0, 110_574.3, 111_319.5), (15, 110_648.7, 107_550.5), (30, 110_852.4, 96_486.3),
    (45, 111_131.8, 78_846.8), (60, 111_412.3, 55_800.0), (75, 111_618.4, 28_902.0),
]

@Suite struct FixFilterGeodesyTests {
    @Test(arguments: degreeLengths)
    func lengthOfADegree(_ row: (latitude: Double, north: Double, east: Double)) {
        let base = Int64(row.latitude * 1e9)
        let a = Coordinate(latitudeNanodegrees: base - 5_000_000, longitudeNanodegrees: 7_000_000_000)
        let north = Coordinate(latitudeNanodegrees: base + 5_000_000, longitudeNanodegrees: 7_000_000_000)
        let b = Coordinate(latitudeNanodegrees: base, longitudeNanodegrees: 6_995_000_000)
        let east = Coordinate(latitudeNanodegrees: base, longitudeNanodegrees: 7_005_000_000)
        let meridian = geodesicDistanceAndBearing(a, north)
        let parallel = geodesicDistanceAndBearing(b, east)
        #expect(abs(meridian.metres * 100 - row.north) < 1, "north at \(row.latitude)°")
        #expect(abs(parallel.metres * 100 - row.east) < 1, "east at \(row.latitude)°")
        #expect(abs(meridian.degrees) < 1e-9)
        // A geodesic heading east leaves at slightly less than 90° (meridians converge):
        // Δλ/2 · sin φ, 0.005° for this 0.01° step at 75°.
        #expect(abs(parallel.degrees - 90) < 0.01)
    }

    @Test(arguments: [(0.0, 100.0, 0.0), (100, 100, 45), (100, 0, 90), (0, -100, 180), (-100, -100, 225),
                      (-100, 0, 270), (-100, 100, 315), (300, 400, 36.869_897_645_844)])
    func bearings(_ row: (east: Double, north: Double, degrees: Double)) {
        let from = Synthetic.coordinate(north: 0, east: 0)
        let to = Synthetic.coordinate(north: row.north, east: row.east)
        let result = geodesicDistanceAndBearing(from, to)
        // The synthetic offsets are a flat-earth approximation; 0.01° is far below any
        // heading threshold the sampling policy uses.
        #expect(abs(result.degrees - row.degrees) < 0.01)
        #expect(abs(result.metres - (row.east * row.east + row.north * row.north).squareRoot()) < 1e-3)
    }

    @Test func acrossTheAntimeridianAndEqualPoints() {
        let west = Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: 179_999_000_000)
        let east = Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: -179_999_000_000)
        let result = geodesicDistanceAndBearing(west, east)
        #expect(abs(result.metres - 222.639) < 0.01)
        #expect(abs(result.degrees - 90) < 1e-6)
        #expect(geodesicDistanceAndBearing(west, west) == (0, 0))
    }
}
