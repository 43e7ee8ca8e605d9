import Testing
@testable import TrackCore

/// (value in 1e-7°, grid, index, lies on the grid)
private let gridCases: [(Int64, UInt8, Int64, Bool)] = [
    // 52°22.3301′ at 4 decimals of a minute: 52.372168333…° → 523_721_683.
    (523_721_683, 2, 31_423_301, true),
    (523_721_684, 2, 31_423_301, false),
    // 36°34.376′ (IGC, 3 decimals): 36.5729333…° → 365_729_333.
    (365_729_333, 1, 2_194_376, true),
    (365_729_333, 2, 21_943_760, true),
    (365_729_333, 3, 219_437_600, true),
    (-365_729_333, 1, -2_194_376, true),
    (365_729_334, 1, 2_194_376, false),
    // u-blox, 5 decimals: 11°30.12345′ → 11.5020575° → 115_020_575.
    (115_020_575, 3, 69_012_345, true),
    (0, 1, 0, true),
    (1, 3, 1, false),
    (2, 3, 1, true),
    (-2, 3, -1, true),
    (123_456_789, 0, 123_456_789, true),
]

/// A 1 Hz walk on `grid` (all positions exact grid values), steps of a few grid units.
private func gridWalk(_ count: Int, grid: UInt8, seed: UInt64) -> [LogRecord] {
    var g = SplitMix64(seed: seed)
    var north = LogGrid.index(523_721_683, grid)
    var east = LogGrid.index(49_097_617, grid)
    return (0..<count).map { second in
        north += Int64.random(in: -2...4, using: &g)
        east += Int64.random(in: -1...3, using: &g)
        let position = LogPosition(latitudeE7: Int32(LogGrid.value(north, grid)),
                                   longitudeE7: Int32(LogGrid.value(east, grid)))
        return LogSamples.fix(Int64(second), position, speed: 120 + Int32(second % 5))
    }
}

struct LogGridTests {
    @Test(arguments: gridCases)
    func indexAndValue(_ value: Int64, _ grid: UInt8, _ index: Int64, _ holds: Bool) {
        #expect(LogGrid.index(value, grid) == index)
        #expect(LogGrid.holds(value, grid) == holds)
        if holds { #expect(LogGrid.value(index, grid) == value) }
    }

    @Test func extremesDoNotTrap() {
        for grid: UInt8 in 0...3 {
            for value in [Int64.min, Int64.min + 1, -1, Int64.max] {
                _ = LogGrid.value(LogGrid.index(value, grid), grid)
                _ = LogGrid.holds(value, grid)
            }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt8])
    func gridTrackRoundTripsAndIsSmaller(_ grid: UInt8) {
        // The same walk on the grid and moved 1e-7° off it: the grid lets the code count in grid
        // steps, so the walk on it is much smaller, and both decode exactly.
        let onGrid = gridWalk(900, grid: grid, seed: UInt64(grid))
        let offGrid = onGrid.map { record -> LogRecord in
            guard case .fix(var fix) = record else { return record }
            fix.position.latitudeE7 += 1
            return .fix(fix)
        }
        let on = encodeChunks(onGrid, recordsPerChunk: 5, keyframeInterval: 300_000)
        let off = encodeChunks(offGrid, recordsPerChunk: 5, keyframeInterval: 300_000)
        #expect(readLog(on.flatMap { $0 }) == LogReadout(records: onGrid))
        #expect(readLog(off.flatMap { $0 }) == LogReadout(records: offGrid))
        let saved = 1 - Double(on.joined().count) / Double(off.joined().count)
        #expect(saved > (grid == 3 ? 0.03 : 0.15), "grid \(grid): \(saved)")
    }

    @Test func switchingGridsRoundTrips() {
        // A receiver that changes its decimals, and a fix off every grid in between.
        var records = gridWalk(100, grid: 2, seed: 7) + gridWalk(100, grid: 1, seed: 8) + gridWalk(100, grid: 3, seed: 9)
        records.insert(LogSamples.fix(50, LogPosition(latitudeE7: 523_721_684, longitudeE7: 49_097_618)), at: 50)
        #expect(readLog(encodeChunks(records, recordsPerChunk: 5).flatMap { $0 }) == LogReadout(records: records))
    }

    @Test func chooserWaitsBeforeACoarserGrid() {
        var chooser = LogGridChooser()
        var grid: UInt8 = 0
        // Moves to positions on grid 1 (and so on 2 and 3): the grid is taken at the 16th.
        for step in 1..<16 {
            grid = chooser.grid(latitude: LogGrid.value(Int64(step), 1), longitude: 0, current: grid)
            #expect(grid == 0)
        }
        grid = chooser.grid(latitude: LogGrid.value(16, 1), longitude: 0, current: grid)
        #expect(grid == 1)
        // Standing still is no evidence: 20 fixes at one position on grid 3 leave the choice.
        var still = LogGridChooser()
        for _ in 0..<20 { #expect(still.grid(latitude: 2, longitude: 0, current: 0) == 0) }
        // A position only on grid 2: at once the finer grid.
        grid = chooser.grid(latitude: LogGrid.value(161, 2), longitude: 0, current: grid)
        #expect(grid == 2)
        // On no grid at all: none.
        grid = chooser.grid(latitude: 1, longitude: 0, current: grid)
        #expect(grid == 0)
    }
}
