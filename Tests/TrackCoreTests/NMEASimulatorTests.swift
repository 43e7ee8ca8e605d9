import Foundation
import Testing
@testable import TrackCore

@Suite struct NMEASimulatorTests {
    /// Three points 10 s apart, 134 m each, with elevations: a fast cyclist at 13.4 m/s.
    static let track = GPXTrack(points: [
        point(48.1173, 11.5167, 545_400, "2024-05-01T10:00:00Z"),
        point(48.1183, 11.5177, 546_000, "2024-05-01T10:00:10Z"),
        point(48.1193, 11.5167, 547_000, "2024-05-01T10:00:20Z"),
    ])

    static func point(_ latitude: Double, _ longitude: Double, _ elevation: Int32?, _ time: String) -> GPXPoint {
        GPXPoint(
            position: Coordinate(
                latitudeNanodegrees: Int64((latitude * 1e9).rounded()), longitudeNanodegrees: Int64((longitude * 1e9).rounded())),
            elevationMillimetres: elevation, time: UTCTime(iso8601: Array(time.utf8), form: .recorded))
    }

    /// Every epoch's text, run to the end (at most `limit` epochs).
    static func run(_ simulator: inout NMEASimulator, limit: Int = 10_000) -> [String] {
        var epochs: [String] = []
        var buffer = TextBuffer()
        while epochs.count < limit {
            buffer.removeAll()
            guard simulator.writeEpoch(to: &buffer) else { break }
            let overflowed = buffer.overflowed
            #expect(!overflowed)
            epochs.append(buffer.string)
        }
        return epochs
    }

    /// The fixes the real receiver pipeline decodes from `text`.
    static func decode(_ text: String) -> (fixes: [Fix], counters: NMEACounters) {
        var receiver = NMEAReceiver()
        var fixes: [Fix] = []
        Array(text.utf8).withUnsafeBytes { bytes in receiver.consume(bytes) { fixes.append(copy $0) } }
        receiver.finish { fixes.append(copy $0) }
        return (fixes, receiver.counters)
    }

    /// Metres between two positions (flat Earth; fine over metres).
    static func metres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let north = Double(a.latitudeNanodegrees - b.latitudeNanodegrees) * 1e-9 * 111_195
        let east = Double(a.longitudeNanodegrees - b.longitudeNanodegrees) * 1e-9 * 111_195
            * cos(a.latitudeDegrees * .pi / 180)
        return (north * north + east * east).squareRoot()
    }

    @Test func everySentenceIsWellFormedWithAValidChecksum() throws {
        var simulator = try NMEASimulator(
            track: Self.track, configuration: .init(rateHertz: 5, noiseMetres: 4, coldStartSeconds: 3))
        let lines = Self.run(&simulator).joined().split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        for line in lines.dropLast() {
            let bytes = Array(line.utf8)
            #expect(bytes.count <= 80, "\(line)")
            #expect(bytes.first == UInt8(ascii: "$"))
            let star = try #require(bytes.lastIndex(of: UInt8(ascii: "*")))
            let sum = bytes[1..<star].reduce(UInt8(0), ^)
            #expect(String(decoding: bytes[(star + 1)...], as: UTF8.self) == String(format: "%02X", sum), "\(line)")
        }
        let counters = Self.decode(lines.joined(separator: "\r\n")).counters
        #expect(counters.accepted == lines.count - 1)
        #expect(counters == NMEACounters.with(accepted: counters.accepted, fixes: counters.fixes))
    }

    @Test func theDecoderGetsTheTrackBackWithoutNoise() throws {
        var simulator = try NMEASimulator(track: Self.track)
        let fixes = Self.decode(Self.run(&simulator).joined()).fixes
        #expect(fixes.count == 21)
        for point in Self.track.points {
            let fix = try #require(fixes.first { $0.time == point.time })
            let position = try #require(fix.position)
            // Five decimals of minutes: 1.9 cm.
            #expect(Self.metres(position, point.position) < 0.02)
            #expect(fix.altitudeMSLMillimetres == point.elevationMillimetres)
            #expect(fix.mode == .threeD)
        }
        // The first segment: 133.7 m in 10 s on a course of 33.7°.
        let first = try #require(fixes.first)
        #expect(abs(Double(first.speedMillimetresPerSecond ?? 0) - 13_371) < 20)
        #expect(abs(Double(first.courseMillidegrees ?? 0) - 33_700) < 200)
    }

    @Test(arguments: [1.0, 5.0])
    func noiseStaysWithinItsSpread(noise: Double) throws {
        var simulator = try NMEASimulator(
            track: Self.track, configuration: .init(rateHertz: 10, noiseMetres: noise, seed: 7))
        var truth: [UTCTime: Coordinate] = [:]
        var text = ""
        var buffer = TextBuffer()
        while true {
            buffer.removeAll()
            guard simulator.writeEpoch(to: &buffer) else { break }
            text += buffer.string
            if let epoch = simulator.lastEpoch, let position = epoch.position { truth[epoch.time] = position }
        }
        let errors = try Self.decode(text).fixes.map { fix in
            let time = try #require(fix.time)
            let position = try #require(fix.position)
            let expected = try #require(truth[time])
            return Self.metres(position, expected)
        }
        #expect(errors.count == 201)
        // Two axes of σ each: the horizontal error has a mean near 1.25σ and rarely passes 4σ.
        #expect(errors.allSatisfy { $0 < 4.5 * noise })
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean > 0.3 * noise && mean < 2.5 * noise, "mean error \(mean) m for σ \(noise) m")
    }

    @Test func aColdStartReportsNoFixFirst() throws {
        var simulator = try NMEASimulator(track: Self.track, configuration: .init(coldStartSeconds: 30))
        let epochs = Self.run(&simulator)
        #expect(epochs[0].contains("$GPRMC,095930.00,V,"))
        #expect(epochs[0].contains("$GPGGA,095930.00,,,,,0,00,99.99,"))
        #expect(epochs[0].contains("$GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99*30"))
        let fixes = Self.decode(epochs.joined()).fixes
        #expect(fixes.count == 51)
        #expect(fixes.prefix(30).allSatisfy { $0.mode == .noFix && $0.position == nil })
        #expect(fixes[30].mode == .threeD)
        #expect(fixes[30].time == Self.track.points[0].time)
        // Satellites are acquired during the cold start: no SNR at first, most by the end.
        let firstSNRs = Self.trackedCount(epochs[0])
        let lastSNRs = Self.trackedCount(epochs[29])
        #expect(firstSNRs == 0 && lastSNRs >= 4, "\(firstSNRs) → \(lastSNRs) satellites with SNR")
    }

    /// Satellites with an SNR in an epoch's GSV sentences.
    static func trackedCount(_ epoch: String) -> Int {
        epoch.split(separator: "\r\n").filter { $0.hasPrefix("$GPGSV") }.reduce(0) { count, line in
            let fields = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)
            return count + stride(from: 7, to: fields.count, by: 4).filter { !fields[$0].isEmpty }.count
        }
    }

    @Test func satellitesRiseAndSet() throws {
        var simulator = try NMEASimulator(track: Self.track, configuration: .init(loops: true))
        var seen = Set<Substring>()
        var inView = Set<Substring>()
        var elevations: [Substring: Set<Substring>] = [:]
        for epoch in Self.run(&simulator, limit: 3600) {
            for line in epoch.split(separator: "\r\n") where line.hasPrefix("$GPGSV") {
                let fields = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)
                inView.insert(fields[3])
                for index in stride(from: 4, to: fields.count - 1, by: 4) {
                    seen.insert(fields[index])
                    elevations[fields[index], default: []].insert(fields[index + 1])
                }
            }
        }
        // An hour of sky: more satellites than twelve slots hold at once, changing counts, and
        // elevations that move.
        #expect(seen.count > 14)
        #expect(inView.count >= 3)
        #expect(elevations.values.filter { $0.count > 10 }.count >= 8)
    }

    @Test func ratesSpeedAndLooping() throws {
        var tenHertz = try NMEASimulator(track: Self.track, configuration: .init(rateHertz: 10))
        let epochs = Self.run(&tenHertz)
        #expect(epochs.count == 201)
        // GSV once a second, as receivers do at high rates.
        #expect(epochs.filter { $0.contains("$GPGSV") }.count == 21)
        #expect(Self.decode(epochs.joined()).fixes.count == 201)

        var fast = try NMEASimulator(track: Self.track, configuration: .init(speedFactor: 4))
        let fastFixes = Self.decode(Self.run(&fast).joined()).fixes
        #expect(fastFixes.count == 6)
        #expect(abs(Double(fastFixes[0].speedMillimetresPerSecond ?? 0) - 4 * 13_371) < 80)

        var looping = try NMEASimulator(track: Self.track, configuration: .init(loops: true))
        #expect(Self.run(&looping, limit: 100).count == 100)
        #expect(!looping.isFinished)
    }

    @Test func theSameSeedWritesTheSameBytes() throws {
        let settings = NMEASimulator.Configuration(noiseMetres: 3, coldStartSeconds: 5, seed: 42)
        var a = try NMEASimulator(track: Self.track, configuration: settings)
        var b = try NMEASimulator(track: Self.track, configuration: settings)
        var c = try NMEASimulator(track: Self.track, configuration: .init(noiseMetres: 3, coldStartSeconds: 5, seed: 43))
        let first = Self.run(&a)
        #expect(first == Self.run(&b))
        #expect(first != Self.run(&c))
    }

    @Test func aTrackWithoutElevationsGivesA2DFix() throws {
        let flat = GPXTrack(points: Self.track.points.map { point in
            var copy = point
            copy.elevationMillimetres = nil
            return copy
        })
        var simulator = try NMEASimulator(track: flat)
        let fixes = Self.decode(Self.run(&simulator).joined()).fixes
        #expect(fixes.allSatisfy { $0.mode == .twoD && $0.altitudeMSLMillimetres == nil })
    }

    @Test func unusableTracksAndSettingsAreErrors() {
        let untimed = GPXTrack(points: [
            Self.track.points[0], GPXPoint(position: Self.track.points[1].position, line: 9),
        ])
        #expect(throws: SimulatorError.missingTime(line: 9)) { _ = try NMEASimulator(track: untimed) }
        #expect(throws: SimulatorError.tooFewPoints(1)) {
            _ = try NMEASimulator(track: GPXTrack(points: [Self.track.points[0]]))
        }
        #expect(throws: SimulatorError.noDuration) {
            _ = try NMEASimulator(track: GPXTrack(points: [Self.track.points[0], Self.track.points[0]]))
        }
        #expect(throws: SimulatorError.unsupportedRate(2)) {
            _ = try NMEASimulator(track: Self.track, configuration: .init(rateHertz: 2))
        }
        #expect(throws: SimulatorError.invalidSetting("speed factor")) {
            _ = try NMEASimulator(track: Self.track, configuration: .init(speedFactor: 0))
        }
        #expect(SimulatorError.missingTime(line: 9).description
            == "line 9: the point has no <time>; the simulator needs times to move")
    }

    @Test func theDemoRouteRidesTenMinutesAtBicycleSpeeds() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("board/demo-route.gpx")
        let track = try GPXTrack(parsing: Array(try Data(contentsOf: url)))
        var simulator = try NMEASimulator(track: track, configuration: .init(noiseMetres: 2, coldStartSeconds: 20))
        let fixes = Self.decode(Self.run(&simulator).joined()).fixes
        #expect(fixes.count == 621)
        let speeds = fixes.compactMap(\.speedMillimetresPerSecond)
        #expect(speeds.count == 601)
        #expect(speeds.allSatisfy { (3_000...7_000).contains($0) })
    }
}

extension NMEACounters {
    /// Counters with only `accepted` and `fixes` set: nothing dropped.
    static func with(accepted: Int, fixes: Int) -> NMEACounters {
        var counters = NMEACounters()
        counters.accepted = accepted
        counters.fixes = fixes
        return counters
    }
}
