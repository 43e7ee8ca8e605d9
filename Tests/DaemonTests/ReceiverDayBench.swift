import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// The figure of `scripts/bench receiver` (d): a day of three shared tracks with long stops
/// between them (night, a 3 h and a 4 h stop), sent at 1 Hz by the simulator's u-blox M8 to the
/// real daemon in-process on the loop's own time, once with power save off and once with
/// `power-save = sleep` (after 5 min, the track profile's 60 s heartbeat). Writes its figures
/// to the file `TRACKD_RECEIVER_DAY` names; skipped without it (it is a measurement, not a
/// check) or without the shared tracks.
@Suite("receiver: a day with long stops")
struct ReceiverDayBench {
    static let output = ProcessInfo.processInfo.environment["TRACKD_RECEIVER_DAY"]
    static let tracks = ["cycle-edge810", "car-sbn-nl", "run-fenix2"]
    /// The day's start, 2026-06-21T00:00:00Z, in ms since 1970.
    static let dayStart: Int64 = 1_782_000_000_000

    /// One part of the day: a track's fixes moved to start at `start` s after midnight, or a
    /// stop at the last position.
    struct Epoch {
        var second: Int64
        var latitude: Double
        var longitude: Double
        var knots: Double
    }

    /// The day: stop until 07:00, a ride, 3 h stop, a drive, 4 h stop, a run, stop to midnight.
    static func day() throws -> (epochs: [Epoch], moving: [Range<Int64>]) {
        var epochs: [Epoch] = []
        var moving: [Range<Int64>] = []
        var clock: Int64 = 0
        var last = Epoch(second: 0, latitude: 0, longitude: 0, knots: 0)
        func stop(until end: Int64) {
            while clock < end {
                epochs.append(Epoch(second: clock, latitude: last.latitude, longitude: last.longitude, knots: 0))
                clock += 1
            }
        }
        for (index, name) in tracks.enumerated() {
            let url = try #require(TestData.shared("tracks/csv/\(name).csv"))
            let fixes = try TrackCSV.parse([UInt8](try Data(contentsOf: url)))
            if index == 0 {
                last = Epoch(second: 0, latitude: fixes[0].position.coordinate.latitudeDegrees,
                             longitude: fixes[0].position.coordinate.longitudeDegrees, knots: 0)
            }
            // Night until 07:00; then 3 h and 4 h after the ride and the drive.
            stop(until: index == 0 ? 25_200 : clock + [0, 3 * 3600, 4 * 3600][index])
            let first = fixes[0].time.millisecondsSinceEpoch
            let start = clock
            var previous: LogFix?
            for fix in fixes {
                let second = start + (fix.time.millisecondsSinceEpoch - first) / 1000
                guard second >= clock else { continue }
                var speed = fix.speedCentimetresPerSecond.map { Double($0) / 100 }
                if speed == nil, let previous {
                    let elapsed = Double(fix.time.millisecondsSinceEpoch - previous.time.millisecondsSinceEpoch) / 1000
                    speed = elapsed > 0 ? previous.position.coordinate.distance(to: fix.position.coordinate) / elapsed : 0
                }
                last = Epoch(second: second, latitude: fix.position.coordinate.latitudeDegrees,
                             longitude: fix.position.coordinate.longitudeDegrees, knots: (speed ?? 0) / 0.514444)
                epochs.append(last)
                clock = second + 1
                previous = fix
            }
            moving.append(start..<clock)
        }
        stop(until: 86_400)
        return (epochs, moving)
    }

    /// RMC, GGA and GSA of one epoch at `second` of the day (dates roll over correctly).
    static func sentences(_ epoch: Epoch) -> [UInt8] {
        let time = UTCTime(millisecondsSinceEpoch: dayStart + epoch.second * 1000)
        var text = TextBuffer()
        time.write(to: &text)
        let iso = Array(text.string.utf8)  // 2026-06-21T07:00:00.000Z
        let hms = String(decoding: iso[11..<13] + iso[14..<16] + iso[17..<19], as: UTF8.self) + ".00"
        let date = String(decoding: iso[8..<10] + iso[5..<7] + iso[2..<4], as: UTF8.self)
        let lat = NMEA.degreesMinutes(abs(epoch.latitude), degreeDigits: 2) + (epoch.latitude < 0 ? ",S" : ",N")
        let lon = NMEA.degreesMinutes(abs(epoch.longitude), degreeDigits: 3) + (epoch.longitude < 0 ? ",W" : ",E")
        return NMEA.sentence("GPRMC," + hms + ",A," + lat + "," + lon + "," + NMEA.fixed(epoch.knots, 2) + ",," + date + ",,,A")
            + NMEA.sentence("GPGGA," + hms + "," + lat + "," + lon + ",1,09,0.9,340.0,M,48.0,M,,")
            + NMEA.sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,09,,,,1.5,0.9,1.2")
    }

    struct Run {
        var recorded: [Int64] = []
        var epochsRead = 0
        var asleepPermille: Int64?
        var sleeps = 0
        var wakeUps = 0
    }

    static func run(_ epochs: [Epoch], powerSave: Bool) throws -> Run {
        let chunks = epochs.map { ScriptedSource.Chunk(atMilliseconds: $0.second * 1000, bytes: sentences($0)) }
        let harness = try InProcessDaemon(ScriptedSource(chunks, receiver: .ubloxM8), configure: { config in
            config.receiver.powerSave = powerSave
            config.log.syncIntervalMilliseconds = 60_000
        })
        harness.run(until: 86_400_000)
        var result = Run()
        result.epochsRead = harness.daemon.receiver.counters.fixes
        result.asleepPermille = harness.daemon.receiver.controller.power.asleepPermille(now: .milliseconds(86_400_000))
        result.sleeps = harness.daemon.receiver.controller.power.sleeps
        result.wakeUps = harness.wakeUps.count
        let (records, _) = try harness.stopAndReadLog()
        result.recorded = records.compactMap {
            if case .fix(let fix) = $0 { (fix.time.millisecondsSinceEpoch - dayStart) / 1000 } else { nil }
        }
        return result
    }

    @Test("the receiver's duty cycle over a day with long stops", .enabled(if: output != nil),
          .enabled(if: tracks.allSatisfy { TestData.hasShared("tracks/csv/\($0).csv") }))
    func day() throws {
        let (epochs, moving) = try Self.day()
        let awake = try Self.run(epochs, powerSave: false)
        let saving = try Self.run(epochs, powerSave: true)
        func within(_ seconds: [Int64]) -> Int { seconds.filter { second in moving.contains { $0.contains(second) } }.count }
        // How long after each track's first epoch the first fix was recorded.
        func departures(_ seconds: [Int64]) -> [Int64] {
            moving.map { range in (seconds.first { range.contains($0) } ?? range.upperBound) - range.lowerBound }
        }
        let lines = [
            "epochs_sent \(epochs.count)",
            "moving_seconds \(moving.reduce(0) { $0 + $1.count })",
            "off_epochs_read \(awake.epochsRead)", "on_epochs_read \(saving.epochsRead)",
            "off_recorded \(awake.recorded.count)", "on_recorded \(saving.recorded.count)",
            "off_recorded_moving \(within(awake.recorded))", "on_recorded_moving \(within(saving.recorded))",
            "off_departures \(departures(awake.recorded).map(String.init).joined(separator: ","))",
            "on_departures \(departures(saving.recorded).map(String.init).joined(separator: ","))",
            "on_asleep_permille \(saving.asleepPermille ?? 0)", "on_sleeps \(saving.sleeps)",
            "off_wakeups \(awake.wakeUps)", "on_wakeups \(saving.wakeUps)",
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: try #require(Self.output), atomically: true, encoding: .utf8)
        #expect(saving.recorded.count > 0 && awake.recorded.count > 0)
    }
}
