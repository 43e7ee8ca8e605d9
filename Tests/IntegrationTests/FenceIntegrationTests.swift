import Foundation
import Testing

// Fences in the running daemon: a simulated drive along board/demo-route.gpx replayed through
// the real trackd; events reach `trackctl status`, `trackctl fence list` and the fences'
// commands; approximate mode (fixes on a pseudo-terminal) stops the evaluation; a bad fences
// file stops trackd from starting with the feature named.
@Suite(.serialized) struct FenceIntegrationTests {
    /// The NMEA of the demo route from the real simulator.
    static func route() throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackctl"))
        process.arguments = ["simulate", DaemonHarness.root.appendingPathComponent("board/demo-route.gpx").path, "--stdout", "--seed", "3"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    static func fencesFile(in directory: URL, events: String) -> String {
        let command = "[\"/bin/sh\",\"-c\",\"echo \\\"$TRACKD_EVENT $TRACKD_FENCE_ID $TRACKD_LAT\\\" >> \(events)\"]"
        return """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"start","radius":60,"command":\(command)},
             "geometry":{"type":"Point","coordinates":[9.0663039,48.5231]}},
            {"type":"Feature","properties":{"id":"bend","radius":80,"command":\(command)},
             "geometry":{"type":"Point","coordinates":[9.0556037,48.5262749]}},
            {"type":"Feature","properties":{"id":"far"},"geometry":{"type":"Polygon",
             "coordinates":[[[10,50],[10.01,50],[10.01,50.01],[10,50]]]}}]}
            """
    }

    @Test func eventsReachStatusListAndCommands() throws {
        let bytes = try Self.route()
        #expect(bytes.count > 100_000)
        let harness = try DaemonHarness()
        let fences = harness.directory.appendingPathComponent("fences.geojson")
        let events = harness.directory.appendingPathComponent("events.txt").path
        try Self.fencesFile(in: harness.directory, events: events).write(to: fences, atomically: true, encoding: .utf8)
        try harness.writeConfig(device: harness.slavePath, extra: "[fences]\nfile = \(fences.path)\n")
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.stop()
        // The drive from a file in receiver time, 50 times faster: no pseudo-terminal in the
        // way, so no byte can be lost under load; the permission comes from the state file.
        let route = harness.directory.appendingPathComponent("route.nmea")
        try Data(bytes).write(to: route)
        let replay = Process()
        replay.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackd"))
        replay.arguments = ["--config", harness.configPath, "--replay", route.path, "--speed", "50"]
        replay.standardError = FileHandle.nullDevice
        try replay.run()
        defer {
            replay.terminate()
            replay.waitUntilExit()
        }
        let status = try harness.waitForStatus(seconds: 15) { json in
            ((json["fences"] as? [String: Any])?["events"] as? Int ?? 0) >= 7
        }
        let fencesJSON = try #require(status?["fences"] as? [String: Any], "no fence events: \(harness.daemonOutput)")
        #expect(fencesJSON["count"] as? Int == 3)
        #expect(fencesJSON["evaluated"] as? Bool == true)
        // Initial states (3), then the route leaves start, passes the bend, and comes back.
        let list = try harness.trackctl(["fence", "list"])
        #expect(list.status == 0)
        let lines = list.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("start inside since 2024-"))
        #expect(lines[1].hasPrefix("bend outside since 2024-"))
        #expect(lines[2].hasPrefix("far outside since 2024-"))
        let text = try harness.trackctl(["status"])
        #expect(text.output.contains("fences    3 from \(fences.path), 1 inside; "))
        // Commands ran for enter and exit (not for initial states), each with its details.
        for _ in 0..<200 where (try? String(contentsOfFile: events, encoding: .utf8))?.split(separator: "\n").count ?? 0 < 4 {
            usleep(10_000)
        }
        let ran = Set(try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
        #expect(ran == ["exit start", "enter bend", "exit bend", "enter start"])

    }

    @Test func approximateModeStopsTheEvaluation() throws {
        let bytes = try Self.route()
        let harness = try DaemonHarness()
        let fences = harness.directory.appendingPathComponent("fences.geojson")
        let events = harness.directory.appendingPathComponent("events.txt").path
        try Self.fencesFile(in: harness.directory, events: events).write(to: fences, atomically: true, encoding: .utf8)
        try harness.writeConfig(device: harness.slavePath, extra: "[fences]\nfile = \(fences.path)\n")
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        #expect(try harness.trackctl(["privacy", "approximate"]).status == 0)
        harness.feed(Array(bytes.prefix(30_000)))
        let status = try harness.waitForStatus { json in
            ((json["filter"] as? [String: Any])?["accepted"] as? Int ?? 0) > 3
        }
        let fencesJSON = try #require(status?["fences"] as? [String: Any])
        #expect(fencesJSON["evaluated"] as? Bool == false)
        #expect(fencesJSON["events"] as? Int == 0)
        #expect(try harness.trackctl(["fence", "list"]).output.hasPrefix("start unknown since start\n"))
    }

    @Test func badFencesFileStopsTheStartNamingTheFeature() throws {
        let harness = try DaemonHarness()
        let fences = harness.directory.appendingPathComponent("fences.geojson")
        try """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"tiny","radius":2},
             "geometry":{"type":"Point","coordinates":[9,48]}}]}
            """.write(to: fences, atomically: true, encoding: .utf8)
        try harness.writeConfig(device: harness.slavePath, extra: "[fences]\nfile = \(fences.path)\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackd"))
        process.arguments = ["--check", "--config", harness.configPath]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(output.contains("feature 0 (id \"tiny\"): radius 2.0 m is outside the configured range 10.0…50000.0 m"))
    }
}
