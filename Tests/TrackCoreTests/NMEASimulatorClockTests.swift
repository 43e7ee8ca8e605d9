import Testing
@testable import TrackCore

/// The simulator's receiver clock: the route's own times by default, or a clock that starts at a
/// given time (trackctl simulate gives it the system's), with the positions still moving along
/// the route by its times.
@Suite struct NMEASimulatorClockTests {
    /// 2026-12-01T21:00:00.400Z: not on a whole second.
    static let now = UTCTime(millisecondsSinceEpoch: 1_796_158_800_400)

    @Test func aClockStartGivesTheEpochsItsTimesOnWholeIntervals() throws {
        var simulator = try NMEASimulator(track: NMEASimulatorTests.track, configuration: .init(clockStart: Self.now))
        let fixes = NMEASimulatorTests.decode(NMEASimulatorTests.run(&simulator).joined()).fixes
        // Rounded up to the next whole second, as a receiver's epochs fall.
        #expect(fixes.first?.time == UTCTime(millisecondsSinceEpoch: 1_796_158_801_000))
        #expect(fixes.last?.time == UTCTime(millisecondsSinceEpoch: 1_796_158_821_000))
        #expect(fixes.count == 21)
    }

    @Test func thePositionsFollowTheRouteWhateverTheClock() throws {
        var routeTimes = try NMEASimulator(track: NMEASimulatorTests.track)
        var nowTimes = try NMEASimulator(track: NMEASimulatorTests.track, configuration: .init(clockStart: Self.now))
        let route = NMEASimulatorTests.decode(NMEASimulatorTests.run(&routeTimes).joined()).fixes
        let shifted = NMEASimulatorTests.decode(NMEASimulatorTests.run(&nowTimes).joined()).fixes
        #expect(route.count == shifted.count)
        #expect(route.map(\.position) == shifted.map(\.position))
        // 2024-05-01T10:00:00Z, the route's first point.
        #expect(route.first?.time == UTCTime(millisecondsSinceEpoch: 1_714_557_600_000))
    }

    /// At 5 Hz the clock is rounded up to the next 200 ms, and the cold start comes before it.
    @Test func aColdStartRunsBeforeTheClockStart() throws {
        var simulator = try NMEASimulator(
            track: NMEASimulatorTests.track, configuration: .init(rateHertz: 5, coldStartSeconds: 2, clockStart: Self.now))
        #expect(simulator.nextEpochTime == UTCTime(millisecondsSinceEpoch: 1_796_158_800_400 - 2_000))
        let fixes = NMEASimulatorTests.decode(NMEASimulatorTests.run(&simulator).joined()).fixes
        let first = try #require(fixes.first { $0.position != nil })
        #expect(first.time == Self.now)
    }
}
