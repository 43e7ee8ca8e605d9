import TestData
import Testing
import TrackCore

/// Positions `metres` north and east of 48°N 11°E, on a local flat approximation (fine at
/// these distances: the tests measure with the geodesic code, not with this).
private func local(north: Double, east: Double) -> LogPosition {
    let latitude = 48.0 + north / 111_200
    let longitude = 11.0 + east / (111_320 * 0.669_130_606)
    return LogPosition(latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))
}

/// Checks the bound the way a user would: every dropped position against the geodesic
/// segment between the kept positions around it; returns the largest distance found.
private func worstDroppedDistance(_ positions: [LogPosition], _ kept: [Bool], toleranceMetres: Double,
                                  name: String = "") -> Double {
    var worst = 0.0
    var previous = 0
    for index in 1..<positions.count where kept[index] {
        for dropped in (previous + 1)..<index {
            let distance = geodesicDistance(from: positions[dropped], toSegment: positions[previous], positions[index])
            worst = max(worst, distance)
            #expect(distance <= toleranceMetres, "\(name) fix \(dropped) is \(distance) m from the kept line")
        }
        previous = index
    }
    return worst
}

@Test func aStraightNoisyLineKeepsItsEndsAndCorners() {
    // 0…1000 m east with ±0.3 m of jitter, then a right angle and 500 m north.
    var g = SplitMix64(seed: 7)
    var positions: [LogPosition] = []
    for step in 0...1000 { positions.append(local(north: Double.random(in: -0.3...0.3, using: &g), east: Double(step))) }
    for step in 1...500 { positions.append(local(north: Double(step), east: 1000 + Double.random(in: -0.3...0.3, using: &g))) }
    let kept = DouglasPeucker.keep(positions, toleranceMillimetres: 5_000)
    #expect(kept.first == true && kept.last == true)
    #expect(kept[1000] || kept[999] || kept[1001], "the corner is kept")
    #expect(kept.filter { $0 }.count <= 5)
    _ = worstDroppedDistance(positions, kept, toleranceMetres: 5)
}

@Test func shortInputsAreKeptWhole() {
    #expect(DouglasPeucker.keep([], toleranceMillimetres: 5_000) == [])
    #expect(DouglasPeucker.keep([local(north: 0, east: 0)], toleranceMillimetres: 5_000) == [true])
    #expect(DouglasPeucker.keep([local(north: 0, east: 0), local(north: 0, east: 0)], toleranceMillimetres: 5_000) == [true, true])
    // Three identical positions: the middle one is 0 m away.
    let same = [LogPosition](repeating: local(north: 0, east: 0), count: 3)
    #expect(DouglasPeucker.keep(same, toleranceMillimetres: 10) == [true, false, true])
    #expect(DouglasPeucker.keep(same, toleranceMillimetres: 0) == [true, false, true])
    let bent = [local(north: 0, east: 0), local(north: 1, east: 5), local(north: 0, east: 10)]
    #expect(DouglasPeucker.keep(bent, toleranceMillimetres: 0) == [true, true, true])
}

@Test(arguments: [(5_000.0, 10.0), (50.0, 1.0), (500_000.0, 25.0)])
func theBoundHoldsOnLongSegments(lengthMetres: Double, toleranceMetres: Double) {
    // A geodesic from Lisbon towards Moscow, with points pushed sideways by up to just under
    // the tolerance (so a flat or spherical distance would wrongly drop or keep them).
    let start = Coordinate(latitudeNanodegrees: 38_722_000_000, longitudeNanodegrees: -9_139_000_000)
    let azimuth = 60.0
    var positions: [LogPosition] = []
    let steps = 400
    var g = SplitMix64(seed: 11)
    for step in 0...steps {
        let along = Geodesic.direct(latitude: start.latitudeDegrees, longitude: start.longitudeDegrees,
                                    azimuthDegrees: azimuth, distanceMetres: lengthMetres * Double(step) / Double(steps))
        let side = step == 0 || step == steps ? 0 : Double.random(in: -0.97...0.97, using: &g) * toleranceMetres
        let off = Geodesic.direct(latitude: along.latitudeDegrees, longitude: along.longitudeDegrees,
                                  azimuthDegrees: along.finalAzimuthDegrees + 90, distanceMetres: side)
        positions.append(LogPosition(Coordinate(latitudeNanodegrees: Int64((off.latitudeDegrees * 1e9).rounded()),
                                                longitudeNanodegrees: Int64((off.longitudeDegrees * 1e9).rounded()))))
    }
    let kept = DouglasPeucker.keep(positions, toleranceMillimetres: Int64(toleranceMetres * 1000))
    let worst = worstDroppedDistance(positions, kept, toleranceMetres: toleranceMetres)
    #expect(worst > toleranceMetres * 0.9, "points close to the bound were dropped: the test means something")
    // All sideways offsets are inside the tolerance, so only the ends need to stay, give or
    // take what rounding to 1e-7° adds near the bound.
    #expect(kept.filter { $0 }.count <= 4)
}

@Test(.needsShared("tracks/csv"),
      arguments: [("glider-lx8080", 10.0), ("car-sbn-nl", 10.0), ("cycle-edge800-smart", 2.0), ("static-nmea-ams", 5.0)])
func theBoundHoldsOnRealTracks(name: String, toleranceMetres: Double) throws {
    let track = try #require(try SharedTracks.logTracks().first { $0.name == name })
    let positions = track.fixes.map { $0.position }
    let kept = DouglasPeucker.keep(positions, toleranceMillimetres: Int64(toleranceMetres * 1000))
    let keptCount = kept.filter { $0 }.count
    let worst = worstDroppedDistance(positions, kept, toleranceMetres: toleranceMetres, name: name)
    #expect(keptCount < positions.count * 3 / 4, "\(name): \(keptCount) of \(positions.count) kept")
    #expect(worst > toleranceMetres * 0.5, "\(name): dropped points come near the bound")
}

@Test func aZigzagNestsAsDeepAsItIsLong() {
    // Every point is kept and every split peels off one point (the first of equally far
    // points wins): a recursive implementation would nest 1,500 calls deep here (and a day
    // of such fixes 86,400); the explicit stack does not nest at all.
    let positions = (0..<1_500).map { index in
        LogPosition(latitudeE7: 480_000_000 + Int32(index % 2) * 1_000, longitudeE7: 110_000_000 + Int32(index) * 100)
    }
    let kept = DouglasPeucker.keep(positions, toleranceMillimetres: 1_000)
    #expect(kept.allSatisfy { $0 })
}

@Test func simplifiedExportsDropFixesButKeepSegmentEnds() {
    let records = (0..<100).map { LogSamples.fix($0, LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000 + Int32($0) * 100)) }
        + [.gap(from: LogSamples.t0, to: LogSamples.t0)]
        + (100..<200).map { LogSamples.fix($0, LogPosition(latitudeE7: 481_173_000 + Int32($0) * 100, longitudeE7: 115_167_000)) }
    let (csv, counts) = exportText(records, format: .csv, ExportOptions(simplifyMillimetres: 1_000))
    #expect(counts.fixes == 4)
    #expect(counts.simplified == 196)
    #expect(counts.segments == 2)
    #expect(csv.contains("2025-06-21T12:01:29Z") && csv.contains("2025-06-21T12:03:08Z"))
}
