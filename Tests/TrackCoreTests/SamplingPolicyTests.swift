import TrackCore
import Testing

/// One fix offered to the policy, its accuracy, and the trigger expected (nil: not recorded).
struct SamplingStep: Sendable {
    var fix: Fix
    var accuracyMillimetres: Int64
    var expected: RecordTrigger?
    init(_ fix: Fix, _ expected: RecordTrigger?, accuracy: Int64 = 5_000) {
        self.fix = fix
        self.accuracyMillimetres = accuracy
        self.expected = expected
    }
}

/// A named sequence of fixes through one policy.
struct SamplingCase: Sendable, CustomTestStringConvertible {
    var name: String
    var settings: SamplingSettings
    var steps: [SamplingStep]
    var testDescription: String { name }
}

private typealias S = Synthetic

/// Standing still for 70 s at 1 Hz: speed under 0.3 m/s, the course all over the place, the
/// position wandering by a metre or two.
private func standingStill() -> [SamplingStep] {
    var steps: [SamplingStep] = []
    var state: UInt32 = 12_345
    func next() -> Double {
        state = state &* 1_103_515_245 &+ 12_345
        return Double(state >> 16 & 0x7FFF) / 32_767
    }
    for second in 0...70 {
        let fix = S.fix(Double(second), north: next() * 2 - 1, east: next() * 2 - 1,
                        speed: next() * 0.3, course: next() * 360)
        let expected: RecordTrigger? = second == 0 ? .first : second == 60 ? .heartbeat : nil
        steps.append(SamplingStep(fix, expected))
    }
    return steps
}

private let samplingCases: [SamplingCase] = [
    SamplingCase(name: "track: standing still with heading noise records only the heartbeat",
                 settings: SamplingProfile.track.settings, steps: standingStill()),
    SamplingCase(name: "track: a turn at 5 Hz on a bike, 350° → 10° across north", settings: SamplingProfile.track.settings, steps: [
        SamplingStep(S.fix(0.0, speed: 4, course: 350), .first),
        SamplingStep(S.fix(0.2, north: 0.8, speed: 4, course: 355), nil),
        SamplingStep(S.fix(0.4, north: 1.6, speed: 4, course: 5), .heading),
        SamplingStep(S.fix(0.6, north: 2.4, speed: 4, course: 10), nil),
        SamplingStep(S.fix(0.8, north: 3.2, speed: 4, course: 25), .heading),
    ]),
    SamplingCase(name: "track: a speed change of 1 m/s at 5 Hz", settings: SamplingProfile.track.settings, steps: [
        SamplingStep(S.fix(0.0, speed: 3, course: 90), .first),
        SamplingStep(S.fix(0.2, east: 0.6, speed: 3.9, course: 90), nil),
        SamplingStep(S.fix(0.4, east: 1.4, speed: 4.0, course: 90), .speed),
    ]),
    SamplingCase(name: "track: 1 s period while moving, not while stopped", settings: SamplingProfile.track.settings, steps: [
        SamplingStep(S.fix(0, speed: 1.5, course: 0), .first),
        SamplingStep(S.fix(1, north: 1.5, speed: 1.5, course: 0), .period),
        SamplingStep(S.fix(2, north: 2.0, speed: 0.6, course: 0), nil),
        SamplingStep(S.fix(3, north: 2.1, speed: 0.4, course: 0), .speed),
        SamplingStep(S.fix(4, north: 2.1, speed: 0.3, course: 0), nil),
        SamplingStep(S.fix(5, north: 2.2, speed: 0.2, course: 0), nil),
        SamplingStep(S.fix(6, north: 3.4, speed: 1.2, course: 0), .period),
        SamplingStep(S.fix(7, north: 4.6), .period),
    ]),
    SamplingCase(name: "checkin: 500 m at 30 m/s comes before the 5 min period", settings: SamplingProfile.checkin.settings, steps: [
        SamplingStep(S.fix(0, speed: 30, course: 0), .first),
        SamplingStep(S.fix(16, north: 480, speed: 30, course: 0), nil),
        SamplingStep(S.fix(17, north: 510, speed: 30, course: 90), .distance),
        SamplingStep(S.fix(18, north: 510, east: 30, speed: 30, course: 90), nil),
    ]),
    SamplingCase(name: "checkin: walking, the 5 min period comes before 500 m", settings: SamplingProfile.checkin.settings, steps: [
        SamplingStep(S.fix(0, speed: 1.4, course: 0), .first),
        SamplingStep(S.fix(299, north: 418, speed: 1.4, course: 0), nil),
        SamplingStep(S.fix(300, north: 420, speed: 1.4, course: 0), .period),
    ]),
    SamplingCase(name: "checkin: stopped, hourly heartbeat only", settings: SamplingProfile.checkin.settings, steps: [
        SamplingStep(S.fix(0, speed: 0.3), .first),
        SamplingStep(S.fix(300, north: 20, speed: 0.3), nil),
        SamplingStep(S.fix(3_599, north: -20, speed: 0.3), nil),
        SamplingStep(S.fix(3_600, speed: 0.3), .heartbeat),
    ]),
    SamplingCase(name: "accuracy limit: 25 m is too coarse for track even when the filter took it",
                 settings: SamplingProfile.track.settings, steps: [
        SamplingStep(S.fix(0), nil, accuracy: 25_000),
        SamplingStep(S.fix(1), .first, accuracy: 20_000),
        SamplingStep(S.fix(70, north: 50), nil, accuracy: 20_001),
    ]),
    SamplingCase(name: "checkin takes 25 m", settings: SamplingProfile.checkin.settings, steps: [
        SamplingStep(S.fix(0), .first, accuracy: 25_000),
    ]),
    SamplingCase(name: "arrival: a slow walk, 2 m steps, 10 s heartbeat", settings: SamplingProfile.arrival.settings, steps: [
        SamplingStep(S.fix(0, speed: 0.3, course: 0), .first),
        SamplingStep(S.fix(1, north: 0.3, speed: 0.3, course: 0), nil),
        SamplingStep(S.fix(6, north: 1.8, speed: 0.3, course: 0), nil),
        SamplingStep(S.fix(7, north: 2.1, speed: 0.3, course: 0), .distance),
        SamplingStep(S.fix(8, north: 3.0, speed: 0.6, course: 0), .period),
        SamplingStep(S.fix(9, north: 3.0, speed: 0.2, course: 0), nil),
        SamplingStep(S.fix(18, north: 3.5, speed: 0.2, course: 0), .heartbeat),
    ]),
    SamplingCase(name: "a fix without speed counts as moving", settings: SamplingProfile.track.settings, steps: [
        SamplingStep(S.fix(0), .first),
        SamplingStep(S.fix(1), .period),
    ]),
    SamplingCase(name: "receiver time stepped back: start afresh", settings: SamplingProfile.checkin.settings, steps: [
        SamplingStep(S.fix(3_600), .first),
        SamplingStep(S.fix(3_601), nil),
        SamplingStep(S.fix(10), .first),
    ]),
    SamplingCase(name: "overrides: 0 turns distance and period off",
                 settings: SamplingSettings(profile: .track, minPeriodMilliseconds: 0, minDistanceMillimetres: 0),
                 steps: [
        SamplingStep(S.fix(0, speed: 10, course: 0), .first),
        SamplingStep(S.fix(30, north: 300, speed: 10, course: 0), nil),
        SamplingStep(S.fix(60, north: 600, speed: 10, course: 0), .heartbeat),
    ]),
]

@Suite struct SamplingPolicyTests {
    @Test(arguments: samplingCases)
    func triggers(_ testCase: SamplingCase) {
        var policy = SamplingPolicy(settings: testCase.settings)
        for (index, step) in testCase.steps.enumerated() {
            let trigger = policy.consider(step.fix, accuracyMillimetres: step.accuracyMillimetres, now: S.now(step.fix))
            #expect(trigger == step.expected, "step \(index)")
        }
        let recorded = testCase.steps.filter { $0.expected != nil }.count
        #expect(policy.counters.recorded == recorded)
    }

    @Test(arguments: [
        (SamplingProfile.checkin, SamplingSettings(
            minPeriodMilliseconds: 300_000, minDistanceMillimetres: 500_000, minHeadingChangeMillidegrees: 0,
            minSpeedChangeMillimetresPerSecond: 0, movingSpeedMillimetresPerSecond: 1_000,
            heartbeatMilliseconds: 3_600_000, accuracyLimitMillimetres: 100_000)),
        (.track, SamplingSettings(
            minPeriodMilliseconds: 1_000, minDistanceMillimetres: 5_000, minHeadingChangeMillidegrees: 15_000,
            minSpeedChangeMillimetresPerSecond: 1_000, movingSpeedMillimetresPerSecond: 1_000,
            heartbeatMilliseconds: 60_000, accuracyLimitMillimetres: 20_000)),
        (.arrival, SamplingSettings(
            minPeriodMilliseconds: 1_000, minDistanceMillimetres: 2_000, minHeadingChangeMillidegrees: 10_000,
            minSpeedChangeMillimetresPerSecond: 500, movingSpeedMillimetresPerSecond: 500,
            heartbeatMilliseconds: 10_000, accuracyLimitMillimetres: 10_000)),
    ])
    func presets(_ profile: SamplingProfile, _ expected: SamplingSettings) {
        #expect(profile.settings == expected)
        #expect(SamplingSettings(profile: profile) == expected)
    }

    @Test func eachOverrideReplacesOnlyItsValue() {
        let resolved = SamplingSettings(
            profile: .checkin, minPeriodMilliseconds: 1, minDistanceMillimetres: 2, minHeadingChangeMillidegrees: 3,
            minSpeedChangeMillimetresPerSecond: 4, movingSpeedMillimetresPerSecond: 5, heartbeatMilliseconds: 6,
            accuracyLimitMillimetres: 7)
        #expect(resolved == SamplingSettings(
            minPeriodMilliseconds: 1, minDistanceMillimetres: 2, minHeadingChangeMillidegrees: 3,
            minSpeedChangeMillimetresPerSecond: 4, movingSpeedMillimetresPerSecond: 5, heartbeatMilliseconds: 6,
            accuracyLimitMillimetres: 7))
        var expected = SamplingProfile.arrival.settings
        expected.heartbeatMilliseconds = 30_000
        #expect(SamplingSettings(profile: .arrival, heartbeatMilliseconds: 30_000) == expected)
    }

    @Test func countersAndStatusLine() {
        var policy = SamplingPolicy(settings: SamplingProfile.track.settings)
        let steps: [(Fix, Int64)] = [
            (S.fix(0), 5_000), (S.fix(0.5), 5_000), (S.fix(1, north: 10, speed: 0), 5_000),
            (S.fix(2, north: 10, speed: 0), 30_000), (S.fix(61, north: 10, speed: 0), 5_000),
        ]
        for (fix, accuracy) in steps { _ = policy.consider(fix, accuracyMillimetres: accuracy, now: S.now(fix)) }
        #expect(policy.lastRecordedAt == S.now(S.fix(61)))
        var buffer = TextBuffer()
        policy.counters.write(to: &buffer)
        #expect(buffer.string ==
            "first=1 distance=1 heading=0 speed=0 period=0 heartbeat=1 too-inaccurate=1 skipped=1")
        #expect(RecordTrigger.allCases.map { policy.counters.count(of: $0) } == [1, 1, 0, 0, 0, 1])
        policy.reset()
        #expect(policy.consider(S.fix(62), accuracyMillimetres: 5_000, now: .seconds(99)) == .first)
    }
}
