import Foundation
import TestData
import Testing
import TrackCore

/// Trips cut from synthetic logs (each rule on its own) and from the shared real tracks.
@Suite struct TripCutterTests {
    /// A fix `north` metres north of the origin at `seconds`, moving at `speed` m/s.
    static func fix(_ seconds: Double, north: Double, east: Double = 0, speed: Double? = nil) -> LogRecord {
        .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: Synthetic.originMilliseconds + Int64(seconds * 1000)),
                    position: LogPosition(Synthetic.coordinate(north: north, east: east)),
                    speedCentimetresPerSecond: speed.map { Int32($0 * 100) }, mode: .threeD))
    }

    /// A drive north at 10 m/s for `seconds` from `start` s and `from` metres, one fix a second.
    static func drive(from start: Double, _ seconds: Int, at from: Double) -> [LogRecord] {
        (0...seconds).map { fix(start + Double($0), north: from + 10 * Double($0), speed: 10) }
    }

    /// Standing still (±3 m of jitter) at `north` from `start` for `seconds`, one fix every 5 s.
    static func stand(from start: Double, _ seconds: Int, at north: Double) -> [LogRecord] {
        stride(from: 5, through: seconds, by: 5).map { step in
            fix(start + Double(step), north: north + Double(step % 7) - 3, east: Double(step % 5) - 2, speed: 0)
        }
    }

    static func cut(_ records: [LogRecord], _ settings: TripSettings = TripSettings()) -> [Trip] {
        var cutter = TripCutter(settings)
        var trips: [Trip] = []
        for record in records { cutter.consume(record) { trips.append($0) } }
        cutter.finish { trips.append($0) }
        return trips
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var records: @Sendable () -> [LogRecord]
        var trips: Int
        var reasons: [Trip.EndReason]
    }

    static let cases: [Case] = [
        Case(testDescription: "one drive", records: { drive(from: 0, 120, at: 0) }, trips: 1, reasons: [.end]),
        Case(testDescription: "a 6 min stop splits it",
             records: { drive(from: 0, 60, at: 0) + stand(from: 60, 360, at: 600) + drive(from: 425, 60, at: 600) },
             trips: 2, reasons: [.stop, .end]),
        Case(testDescription: "a 4 min stop does not",
             records: { drive(from: 0, 60, at: 0) + stand(from: 60, 240, at: 600) + drive(from: 305, 60, at: 600) },
             trips: 1, reasons: [.end]),
        Case(testDescription: "a boot marker splits",
             records: { drive(from: 0, 60, at: 0) + [.bootMarker(time: UTCTime(millisecondsSinceEpoch: Synthetic.originMilliseconds + 61_000), bootID: 7)]
                 + drive(from: 62, 60, at: 600) },
             trips: 2, reasons: [.boot, .end]),
        Case(testDescription: "a gap record splits",
             records: { drive(from: 0, 60, at: 0) + [.gap(from: UTCTime(millisecondsSinceEpoch: Synthetic.originMilliseconds + 61_000),
                                                        to: UTCTime(millisecondsSinceEpoch: Synthetic.originMilliseconds + 62_000))]
                 + drive(from: 62, 60, at: 600) },
             trips: 2, reasons: [.gap, .end]),
        Case(testDescription: "6 min without fixes splits",
             records: { drive(from: 0, 60, at: 0) + drive(from: 421, 60, at: 600) }, trips: 2, reasons: [.gap, .end]),
        Case(testDescription: "standing still is no trip", records: { stand(from: 0, 1_200, at: 0) }, trips: 0, reasons: []),
        Case(testDescription: "time going backwards splits",
             records: { drive(from: 100, 60, at: 0) + drive(from: 0, 60, at: 600) }, trips: 2, reasons: [.gap, .end]),
    ]

    @Test(arguments: cases)
    func cutsAtBootsGapsAndStops(_ example: Case) {
        let trips = Self.cut(example.records())
        #expect(trips.count == example.trips)
        #expect(trips.map(\.endReason) == example.reasons)
        #expect(trips.map(\.number) == Array(1...max(1, trips.count)).prefix(trips.count).map { $0 })
    }

    @Test func aStopEndsTheTripWhereItArrivedAndTheNextLeavesFromItsEnd() throws {
        let records = Self.drive(from: 0, 60, at: 0) + Self.stand(from: 60, 360, at: 600) + Self.drive(from: 425, 60, at: 600)
        let trips = Self.cut(records)
        try #require(trips.count == 2)
        // Arrival: the last drive fix, 600 m north at 60 s; departure: the last fix within 50 m
        // of the stop's first, 4 or 5 s into the next drive (640 or 650 m north; 650 m is 50 m to rounding).
        #expect(trips[0].end.time.millisecondsSinceEpoch == Synthetic.originMilliseconds + 60_000)
        #expect(abs(trips[0].distanceMetres - 600) < 0.5)
        #expect((429_000...430_000).contains(trips[1].start.time.millisecondsSinceEpoch - Synthetic.originMilliseconds))
        #expect(trips[0].movingMilliseconds == 60_000)
        #expect(trips[0].maximumMillimetresPerSecond == 10_000)
        #expect(trips[0].averageMillimetresPerSecond.map { abs($0 - 10_000) <= 10 } == true)
    }

    @Test func eventsGoToTheTripTheyHappenOnOrArriveWith() throws {
        let mark = LogRecord.waypoint(time: UTCTime(millisecondsSinceEpoch: Synthetic.originMilliseconds + 30_000),
                                      position: LogPosition(Synthetic.coordinate(north: 300, east: 0)), label: LogLabel("bridge")!)
        let atStop = LogRecord.fenceEvent(time: UTCTime(millisecondsSinceEpoch: Synthetic.originMilliseconds + 200_000), fenceID: 1,
                                          kind: .dwell, position: LogPosition(Synthetic.coordinate(north: 600, east: 0)))
        var records = Self.drive(from: 0, 60, at: 0)
        records.insert(mark, at: 31)
        records += Self.stand(from: 60, 360, at: 600)
        records.insert(atStop, at: records.count - 30)
        records += Self.drive(from: 425, 60, at: 600)
        let trips = Self.cut(records)
        try #require(trips.count == 2)
        #expect(trips[0].events == [mark, atStop])
        #expect(trips[1].events.isEmpty)
    }

    // The shared tracks: a trip each, but the stationary receiver (none) and the mountain ride
    // (two pauses of 691 s and 533 s and one 309 s stop within 50 m: four).
    static let expectedTrips = ["cycle-coros-mtn": 4, "static-nmea-ams": 0]

    @Test(.needsShared("tracks/csv"))
    func sharedTracksCutAsTheirPausesSayAndDistancesAreTheGeodesicSum() throws {
        let tracks = try SharedTracks.logTracks()
        #expect(!tracks.isEmpty, "no track in ../shared/data/tracks/csv")
        for (name, fixes) in tracks {
            let trips = Self.cut(fixes.map { .fix($0) })
            #expect(trips.count == Self.expectedTrips[name, default: 1], "\(name)")
            for trip in trips {
                // The geodesic sum of the fixes from its start to its end, summed here.
                guard let first = fixes.firstIndex(of: trip.start), let last = fixes[first...].firstIndex(of: trip.end) else {
                    Issue.record("\(name) trip \(trip.number): start or end is not a fix of the track")
                    continue
                }
                var metres = 0.0
                for index in (first + 1)...last where first < last {
                    metres += fixes[index - 1].position.coordinate.distance(to: fixes[index].position.coordinate)
                }
                #expect(abs(trip.distanceMetres - metres) <= 1e-6 * max(metres, 1), "\(name) trip \(trip.number)")
                #expect(trip.fixCount == last - first + 1, "\(name) trip \(trip.number)")
                #expect(trip.movingMilliseconds <= trip.durationMilliseconds)
            }
            if trips.count == 1, let trip = trips.first {
                #expect(trip.start == fixes.first && trip.end == fixes.last, "\(name): one trip covers the track")
            }
        }
    }
}
