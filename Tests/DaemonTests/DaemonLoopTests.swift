import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// The real loop and services in-process: a capture, the simulated board, the demo drive
/// through fences; every time is the test's, nothing sleeps.
@Suite("the daemon in-process")
struct DaemonLoopTests {
    static let root = TestData.repository

    static func capture(_ name: String) throws -> [UInt8] {
        let url = try #require(TestData.shared("gpsd-regress/" + name), "gpsd-regress/\(name) is absent")
        return [UInt8](try Data(contentsOf: url))
    }

    /// The NMEA of the demo route from the real simulator, one epoch a second.
    static func demoDrive() throws -> ScriptedSource {
        let gpx = try Data(contentsOf: root.appendingPathComponent("board/demo-route.gpx"))
        var simulator = try NMEASimulator(track: GPXTrack(parsing: [UInt8](gpx)),
                                          configuration: NMEASimulator.Configuration(seed: 3))
        var chunks: [ScriptedSource.Chunk] = []
        var second: Int64 = 0
        while !simulator.isFinished {
            var epoch = TextBuffer()
            guard simulator.writeEpoch(to: &epoch) else { break }
            chunks.append(ScriptedSource.Chunk(atMilliseconds: second * 1_000, bytes: Array(epoch.string.utf8)))
            second += 1
        }
        return ScriptedSource(chunks)
    }

    static func fixes(_ records: [LogRecord]) -> [LogFix] {
        records.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }

    @Test("a real capture: the log holds every recorded fix, led-fix and led-log follow the loop", .needsShared("gpsd-regress"))
    func realCapture() throws {
        let bytes = try Self.capture("ublox-neo-m9n-nmea.log")
        let source = ScriptedSource.paced(bytes)
        let lastChunk = source.chunks.last?.atMilliseconds ?? 0
        let harness = try InProcessDaemon(source)
        harness.run(until: lastChunk + 6_000)
        let recorded = harness.daemon.fixes.sampling.counters.recorded
        let syncs = harness.daemon.trackLog.status.syncCount
        // led-fix: the 1 Hz "receiver talking" blink until the first epoch completes (a fix is
        // out when the next epoch begins), solid through the capture, dark 2.5 s after its end.
        let fix = harness.edges(.fix)
        #expect(fix.first == "1@0", "\(fix)")
        #expect(fix.last == "0@\(lastChunk + 2_500)", "\(fix)")
        #expect(fix.count <= 4, "solid during the capture: \(fix)")
        // led-log: one 50 ms flash per instant the log was synced at (a chunk that reached its
        // span and the timer's sync at the same instant are one flash).
        let log = harness.edges(.log)
        #expect(syncs >= harness.syncInstants.count && harness.syncInstants.count > 0)
        #expect(log.count == 2 * harness.syncInstants.count, "\(log) for syncs at \(harness.syncInstants.sorted())")
        #expect(log.first.map { $0.hasPrefix("1@") } == true)
        // led-status: `always`, solid from the start.
        #expect(harness.edges(.status) == ["1@0"])
        // The loop woke for bytes, syncs and LED edges, never in between for nothing.
        #expect(harness.wakeUps.count < Int(lastChunk / 1_000) * 6 + 20, "\(harness.wakeUps.count) wake-ups")
        let (records, problems) = try harness.stopAndReadLog()
        #expect(problems.isEmpty)
        #expect(recorded > 0)
        #expect(Self.fixes(records).count == recorded)
        #expect(records.contains { if case .bootMarker = $0 { true } else { false } })
    }

    @Test("the simulated button: a short press marks a waypoint, a long one enters private mode")
    func button() throws {
        var chunks: [ScriptedSource.Chunk] = []
        for second in 0..<30 {
            chunks.append(.init(atMilliseconds: Int64(second) * 1_000,
                                bytes: NMEA.epoch(second: second, latitude: 48.5231, longitude: 9.0663)))
        }
        let harness = try InProcessDaemon(ScriptedSource(chunks))
        harness.run(until: 30_000, at: [
            (5_000, { #expect($0.request("button short").hasPrefix("ok\nbutton pressed (short)")) }),
            (12_000, { #expect($0.request("button long").hasPrefix("ok\nbutton held (long)")) }),
        ])
        #expect(harness.daemon.board.gpio.shortPresses == 1)
        #expect(harness.daemon.board.gpio.longPresses == 1)
        #expect(harness.daemon.state.permission.state == .denied)
        // led-status: solid, three quick flashes at the waypoint (debounced press + 30 ms),
        // then the 1 s private-mode flash and the denied blip.
        // The simulated finger lets go 150 ms after pressing: the press is a short one once
        // the release has settled for the debounce time (30 ms), and the flashes start then.
        let status = harness.edges(.status)
        #expect(status.first == "1@0")
        #expect(status.contains("0@5180"), "\(status)")
        let (records, _) = try harness.stopAndReadLog()
        let waypoints = records.filter { if case .waypoint = $0 { true } else { false } }
        #expect(waypoints.count == 1)
        #expect(records.contains { if case .permissionChange(_, .always, .denied) = $0 { true } else { false } })
        // Nothing recorded after private mode began (the press is held 3 s from 12 s).
        let lastFix = Self.fixes(records).last?.time.millisecondsSinceEpoch ?? 0
        #expect(lastFix <= 1_796_040_000_000 + 15_500, "a fix logged in private mode")
    }

    @Test("the demo drive through two fences: events in the log, led-fence at their epochs")
    func fencesThroughTheLoop() throws {
        let fences = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"start","radius":60},"geometry":{"type":"Point","coordinates":[9.0663039,48.5231]}},
            {"type":"Feature","properties":{"id":"bend","radius":80},"geometry":{"type":"Point","coordinates":[9.0556037,48.5262749]}}]}
            """
        let source = try Self.demoDrive()
        let end = (source.chunks.last?.atMilliseconds ?? 0) + 3_000
        let harness = try InProcessDaemon(source, fences: fences)
        harness.run(until: end)
        #expect(harness.daemon.fences.events >= 6, "initial states, then exit start, enter and exit bend, enter start")
        // led-fence: lit inside `start` from the initial state, three flashes at each event.
        let fence = harness.edges(.fence)
        #expect(fence.first?.hasPrefix("1@") == true, "\(fence)")
        #expect(fence.count >= 4 * 6, "three flashes for each of four events: \(fence)")
        let (records, problems) = try harness.stopAndReadLog()
        #expect(problems.isEmpty)
        var kinds: [String] = []
        for record in records {
            if case .fenceEvent(_, let fence, let kind, _) = record { kinds.append("\(kind) \(fence)") }
        }
        #expect(kinds == ["exit 0", "enter 1", "exit 1", "enter 0"], "\(kinds)")
    }

    @Test("the odometer: recorded fixes add their geodesic distance; not allowed, nothing",
          arguments: [PermissionRequest.allowAlways, .deny])
    func odometer(permission: PermissionRequest) throws {
        // Ten 3D fixes a second apart, each 50 m north of the last (180 km/h, within max-speed).
        var chunks: [ScriptedSource.Chunk] = []
        for second in 0..<10 {
            chunks.append(.init(atMilliseconds: Int64(second) * 1_000,
                                bytes: NMEA.epoch(second: second, latitude: 48.0 + Double(second) * 0.00044964, longitude: 9.0)))
        }
        let harness = try InProcessDaemon(ScriptedSource(chunks), permission: permission)
        harness.run(until: 12_000)
        let odometer = harness.daemon.state.odometer.totalMillimetres
        if permission == .allowAlways {
            // Nine steps of 50 m when every fix is recorded (the last epoch completes at the end).
            #expect(abs(odometer - 400_000) < 50_000 || abs(odometer - 450_000) < 2_000, "\(odometer) mm")
        } else {
            #expect(odometer == 0)
        }
    }

    @Test("where and mark refuse a fix minutes old, saying its age, and take a current one")
    func staleFix() throws {
        // Five good epochs, then the receiver goes quiet (unplugged) for eight minutes.
        var chunks: [ScriptedSource.Chunk] = []
        for second in 0..<5 {
            chunks.append(.init(atMilliseconds: Int64(second) * 1_000,
                                bytes: NMEA.epoch(second: second, latitude: 48.0 + Double(second) * 0.0001, longitude: 9.0)))
        }
        chunks.append(.init(atMilliseconds: 485_000, bytes: NMEA.epoch(second: 485, latitude: 48.01, longitude: 9.0)))
        chunks.append(.init(atMilliseconds: 486_000, bytes: NMEA.epoch(second: 486, latitude: 48.0101, longitude: 9.0)))
        let harness = try InProcessDaemon(ScriptedSource(chunks))
        harness.run(until: 5_000)
        let fresh = harness.request("where")
        #expect(fresh.hasPrefix("ok\n48.000"), "\(fresh)")

        harness.run(until: 480_000)
        let stale = harness.request("where")
        #expect(stale.hasPrefix("error stale: the last fix is 7m"), "\(stale)")
        let mark = harness.request("mark old bridge")
        #expect(mark.hasPrefix("error stale:") && mark.contains("no waypoint is recorded"), "\(mark)")

        harness.run(until: 487_000)
        let current = harness.request("where")
        #expect(current.hasPrefix("ok\n48.010"), "\(current)")
        #expect(harness.request("mark new bridge").hasPrefix("ok"), "a current fix is marked")
        let log = try harness.stopAndReadLog()
        let labels = log.records.compactMap { record -> String? in
            if case .waypoint(_, _, let label) = record { label.string } else { nil }
        }
        #expect(labels == ["new bridge"], "only the current fix was marked: \(labels)")
    }
}
