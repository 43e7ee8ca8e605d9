import Foundation
import Glibc
import Testing

/// Every output a position can leave by, through every permission state, on the real trackd:
/// the demo drive (through two circle fences) replayed from a file in receiver time, the
/// simulated board's button, `where`, `where --plain`, `mark`, `status`, `status --json`,
/// `fence list`, and the track log as `trackctl log export` gives it. docs/privacy.md is this
/// table in prose.
@Suite("privacy: every output through every permission state", .serialized)
struct PrivacyTableTests {
    /// What may leave: nothing, the 1 km grid cell's centre, or the fix as it is.
    enum Disclosure: String, Sendable { case withheld, approximate, precise }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        /// `trackctl privacy` requests made before the drive (the state file keeps them).
        var before: [[String]]
        /// Requests made while the drive runs (a temporary grant does not survive a restart).
        var during: [[String]] = []
        var restricted = false
        var expected: Disclosure
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "not-determined", before: [], expected: .withheld),
        Row(name: "restricted", before: [], restricted: true, expected: .withheld),
        Row(name: "denied", before: [["allow", "always"], ["deny"]], expected: .withheld),
        // The simulated board has an in-use input, and nobody sets it: not in use.
        Row(name: "when-in-use, not in use", before: [["allow", "when-in-use"]], expected: .withheld),
        Row(name: "always, approximate", before: [["allow", "always"], ["approximate"]], expected: .approximate),
        Row(name: "always, approximate, precise --for 1h", before: [["allow", "always"], ["approximate"]],
            during: [["precise", "--for", "1h"]], expected: .precise),
        Row(name: "always, precise", before: [["allow", "always"]], expected: .precise),
    ]

    /// True when `degrees` is the centre of an `ApproximateGrid` row (0.01° rows: …5 in the third
    /// decimal), as every approximate latitude must be.
    static func onGridRow(_ degrees: Double) -> Bool {
        let hundredths = (degrees + 90) * 100
        return abs(hundredths - hundredths.rounded(.down) - 0.5) < 1e-6
    }

    @Test(arguments: rows)
    func outputs(_ row: Row) throws {
        let route = try FenceIntegrationTests.route()
        let harness = try DaemonHarness()
        let fences = harness.directory.appendingPathComponent("fences.geojson")
        let events = harness.directory.appendingPathComponent("events.txt").path
        try FenceIntegrationTests.fencesFile(in: harness.directory, events: events)
            .write(to: fences, atomically: true, encoding: .utf8)
        try harness.writeConfig(device: harness.slavePath, extra: """
            [fences]
            file = \(fences.path)
            [board]
            simulated = yes
            [privacy]
            restricted = \(row.restricted ? "yes" : "no")
            """)
        try harness.start()
        for request in row.before {
            let reply = try harness.trackctl(["privacy"] + request)
            #expect(reply.status == 0, "privacy \(request): \(reply.output)")
        }
        harness.stop()

        // The drive in receiver time, 10× faster (about 25 s), read from a file: no pty in the way.
        let replay = try harness.replay(route, speed: 10)
        defer {
            if replay.isRunning {
                replay.terminate()
                replay.waitUntilExit()
            }
        }
        for request in row.during {
            let reply = try harness.trackctl(["privacy"] + request)
            #expect(reply.status == 0, "privacy \(request): \(reply.output)")
        }
        // A fix has passed the filter, whatever may be shown of it.
        let json = try #require(try harness.waitForStatus(seconds: 20) { json in
            ((json["filter"] as? [String: Any])?["accepted"] as? Int ?? 0) > 20
        }, "the drive gave no accepted fix")
        // Well into the drive, both fences passed in precise mode.
        _ = try harness.waitForStatus(seconds: 15) { json in
            ((json["filter"] as? [String: Any])?["accepted"] as? Int ?? 0) > 120
        }
        let expected = row.expected

        // status --json: the disclosure, and the fix as it may leave.
        let status = try #require(try harness.waitForStatus { _ in true })
        #expect(status["disclosure"] as? String == expected.rawValue)
        let fix = try #require(status["fix"] as? [String: Any])
        // The fix is the TPV a gpsd client gets: mode 1 ("no fix") when nothing of where may leave.
        #expect(fix["mode"] as? Int == (expected == .withheld ? 1 : 3))
        switch expected {
        case .withheld:
            #expect(fix["lat"] == nil && fix["lon"] == nil && fix["alt"] == nil && fix["speed"] == nil)
            #expect(status["accuracy"] == nil)
        case .approximate:
            let latitude = try #require(fix["lat"] as? Double)
            #expect(Self.onGridRow(latitude), "latitude \(latitude) is not a grid cell's centre")
            #expect(fix["alt"] == nil && fix["speed"] == nil && fix["track"] == nil && fix["latErr"] == nil)
            #expect(status["accuracy"] == nil)
        case .precise:
            let latitude = try #require(fix["lat"] as? Double)
            #expect(!Self.onGridRow(latitude))
            #expect(fix["speed"] != nil)
            #expect(status["accuracy"] != nil)
        }
        _ = json

        // status text.
        let text = try harness.trackctl(["status"]).output
        switch expected {
        case .withheld: #expect(text.contains("fix       3D, position withheld"), "\(text)")
        case .approximate: #expect(text.contains("°E (approximate)"), "\(text)")
        case .precise: #expect(text.contains("°E, ±"), "\(text)")
        }

        // where, where --plain, mark and the button.
        let whereReply = try harness.trackctl(["where"])
        let plain = try harness.trackctl(["where", "--plain"])
        let mark = try harness.trackctl(["mark", "privacy", "check"])
        #expect(try harness.trackctl(["button", "short"]).status == 0)
        let pressed = try #require(try harness.waitForStatus { json in
            ((json["gpio"] as? [String: Any])?["shortPresses"] as? Int ?? 0) == 1
        })
        switch expected {
        case .withheld:
            #expect(whereReply.status == 1 && whereReply.output.contains("error not-allowed"), "\(whereReply.output)")
            #expect(plain.status == 1 && !plain.output.contains("48."), "\(plain.output)")
            #expect(mark.status == 1 && mark.output.contains("no waypoint is recorded"), "\(mark.output)")
            #expect(pressed["waypoints"] as? Int == 0)
        case .approximate:
            #expect(whereReply.status == 0 && whereReply.output.contains("(approximate, 1 km grid)"), "\(whereReply.output)")
            let latitude = try #require(Double(plain.output.split(separator: ",").first ?? ""))
            #expect(Self.onGridRow(latitude), "where --plain \(plain.output)")
            #expect(mark.status == 0 && mark.output.contains("(approximate, 1 km grid)"), "\(mark.output)")
            #expect(pressed["waypoints"] as? Int == 2)
        case .precise:
            #expect(whereReply.status == 0 && whereReply.output.contains(" ago"), "\(whereReply.output)")
            let latitude = try #require(Double(plain.output.split(separator: ",").first ?? ""))
            #expect(!Self.onGridRow(latitude), "where --plain \(plain.output)")
            #expect(mark.status == 0 && !mark.output.contains("approximate"), "\(mark.output)")
            #expect(pressed["waypoints"] as? Int == 2)
        }

        // Fences: evaluated in precise mode only; otherwise nothing is known of them.
        let fencesJSON = try #require(pressed["fences"] as? [String: Any])
        #expect(fencesJSON["evaluated"] as? Bool == (expected == .precise))
        if expected != .precise {
            #expect(fencesJSON["inside"] as? Int == 0)
            let list = try harness.trackctl(["fence", "list"]).output
            #expect(!list.contains(" inside ") && !list.contains(" outside "), "\(list)")
        }

        // The log: what the export of the drive holds.
        replay.terminate()
        replay.waitUntilExit()
        let export = try harness.trackctlOffline(["log", "export", "--format", "geojson", "--log", harness.logDirectory])
        #expect(export.status == 0, "\(export.output)")
        // One feature a line: `{"type":"Feature",…},`.
        let body = export.output.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"Feature\"") }
        var fixLatitudes: [Double] = []
        var kinds: [String] = []
        var placeLatitudes: [Double] = []
        for line in body {
            let text = line.hasSuffix(",") ? String(line.dropLast()) : String(line)
            guard let feature = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let geometry = feature["geometry"] as? [String: Any],
                  let properties = feature["properties"] as? [String: Any] else { continue }
            if let kind = properties["kind"] as? String {
                kinds.append(kind)
                if let point = geometry["coordinates"] as? [Double], point.count >= 2 { placeLatitudes.append(point[1]) }
            } else if let line = geometry["coordinates"] as? [[Double]] {
                fixLatitudes += line.compactMap { $0.count >= 2 ? $0[1] : nil }
            }
        }
        switch expected {
        case .withheld:
            #expect(fixLatitudes.isEmpty && kinds.isEmpty, "logged \(fixLatitudes.count) fixes, places \(kinds)")
        case .approximate:
            #expect(!fixLatitudes.isEmpty)
            #expect(fixLatitudes.allSatisfy(Self.onGridRow), "a logged fix off the grid")
            #expect(placeLatitudes.allSatisfy(Self.onGridRow), "a logged place off the grid")
            #expect(kinds.filter { $0 == "waypoint" }.count == 2)
            #expect(!kinds.contains { $0.hasPrefix("fence-") })
        case .precise:
            #expect(fixLatitudes.count > 50)
            #expect(kinds.filter { $0 == "waypoint" }.count == 2)
            #expect(kinds.contains("fence-exit"), "\(kinds)")
        }
    }
}
