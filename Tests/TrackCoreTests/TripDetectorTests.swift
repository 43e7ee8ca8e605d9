import Testing
import TrackCore

@Suite struct PermissionTripDetectorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// (seconds, mm/s or nil, expected onTrip after the fix)
        var fixes: [(Int64, Int32?, Bool)]
        var testDescription: String { name }
    }

    static let table: [Case] = [
        .init(name: "three fast fixes start", fixes: [(0, 2_500, false), (1, 2_500, false), (2, 2_500, true)]),
        .init(name: "exactly 2 m/s does not count", fixes: [(0, 2_000, false), (1, 2_000, false), (2, 2_000, false)]),
        .init(name: "a slow fix resets the count",
              fixes: [(0, 3_000, false), (1, 3_000, false), (2, 1_000, false), (3, 3_000, false), (4, 3_000, false),
                      (5, 3_000, true)]),
        .init(name: "missing speed changes nothing",
              fixes: [(0, 3_000, false), (1, nil, false), (2, 3_000, false), (3, 3_000, true), (4, nil, true)]),
        .init(name: "five slow minutes end",
              fixes: [(0, 3_000, false), (1, 3_000, false), (2, 3_000, true), (10, 100, true), (309, 100, true),
                      (310, 100, false)]),
        .init(name: "a moving fix restarts the stop timer",
              fixes: [(0, 3_000, false), (1, 3_000, false), (2, 3_000, true), (10, 100, true), (200, 600, true),
                      (201, 100, true), (310, 100, true), (500, 100, true),
                      (501, 100, false)]),
        .init(name: "medium speed keeps a trip", fixes: [(0, 3_000, false), (1, 3_000, false), (2, 3_000, true),
                                                         (400, 1_000, true), (800, 1_000, true)]),
        .init(name: "medium speed never starts one", fixes: [(0, 1_500, false), (1, 1_999, false), (2, 1_500, false)]),
    ]

    @Test(arguments: table)
    func trip(_ c: Case) {
        var detector = TripDetector()
        for (index, fix) in c.fixes.enumerated() {
            let now = UTCTime(millisecondsSinceEpoch: 1_700_000_000_000 + fix.0 * 1_000)
            #expect(detector.update(speedMillimetresPerSecond: fix.1, now: now) == fix.2, "fix \(index)")
            #expect(detector.onTrip == fix.2)
        }
    }
}
