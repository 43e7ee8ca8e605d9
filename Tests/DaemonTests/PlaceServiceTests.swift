import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// The places service in the real daemon: the gazetteer scripts/build-places compiles, a drive
/// north from Tübingen, and what `where`, `status` and `status --json` say about the place
/// under each permission.
@Suite("place names in the daemon", .serialized)
struct PlaceServiceTests {
    static let table = DaemonLoopTests.root.appendingPathComponent(".build/places/places.bin").path

    /// The table's bytes and header; nil (and a recorded issue) when it has not been built.
    static func gazetteer() -> ([UInt8], PlaceTable)? {
        guard let data = FileManager.default.contents(atPath: table) else {
            Issue.record("no gazetteer at \(table): run scripts/build-places (scripts/setup does)")
            return nil
        }
        let bytes = [UInt8](data)
        guard let header = bytes.withUnsafeBufferPointer({ buffer in try? PlaceTable(buffer.span) }) else {
            Issue.record("\(table) is not a places table")
            return nil
        }
        return (bytes, header)
    }

    /// The words the table gives `position`, as the namer would say them.
    static func words(_ position: Coordinate, approximate: Bool) -> String? {
        guard let (bytes, header) = gazetteer() else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let target = approximate ? ApproximateGrid.snap(position) : position
            let name = PlaceName.lookUp(target, table: header, bytes: buffer.span, wholeKilometres: approximate)
            return name.text(bytes: buffer.span)
        }
    }

    static let startLatitude = 48.5231
    static let longitude = 9.0663
    /// 10.5 m/s due north, in degrees of latitude a second: 200 m are passed between the 19th
    /// and the 20th second after a lookup, never on the edge.
    static let degreesPerSecond = 10.5 / 111_200.0

    /// One 3D fix a second for `seconds` seconds, driving north at 10.5 m/s.
    static func drive(seconds: Int) -> ScriptedSource {
        var chunks: [ScriptedSource.Chunk] = []
        for second in 0..<seconds {
            chunks.append(.init(atMilliseconds: Int64(second) * 1_000,
                                bytes: NMEA.epoch(second: second, latitude: startLatitude + Double(second) * degreesPerSecond,
                                                  longitude: longitude, knots: 20.4)))
        }
        return ScriptedSource(chunks)
    }

    static func json(_ harness: InProcessDaemon) throws -> [String: Any] {
        let reply = harness.request("status json")
        let body = try #require(reply.split(separator: "\n", maxSplits: 1).last.map(String.init))
        return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    static func statusLine(_ harness: InProcessDaemon, _ prefix: String) -> String? {
        harness.request("status").split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    @Test("allowed, precise: where, status and status --json name the place of the last lookup", .needsGazetteer)
    func allowedPrecise() throws {
        guard Self.gazetteer() != nil else { return }
        let harness = try InProcessDaemon(Self.drive(seconds: 30)) { $0.places.file = Self.table }
        harness.run(until: 29_500)
        let problem = harness.daemon.places.problem
        #expect(problem == nil)
        let lookups = harness.daemon.places.lookupCount
        let placeCount = harness.daemon.places.table?.placeCount ?? 0
        let lastLookup = harness.daemon.places.namer.name?.position
        let looked = try #require(lastLookup)
        let expected = try #require(Self.words(looked, approximate: false))
        #expect(expected.contains("Tübingen, Baden-Wurttemberg, DE"), "\(expected)")
        let reply = harness.request("where").split(separator: "\n").map(String.init)
        #expect(reply.count == 3, "\(reply)")
        #expect(reply.first == "ok")
        #expect(reply.dropFirst().first?.hasSuffix(" ago") == true, "\(reply)")
        #expect(reply.last == expected)
        // `where --plain` stays `lat,lon` for scripts.
        let plain = harness.request("where plain").split(separator: "\n").map(String.init)
        #expect(plain.count == 2 && !plain[1].contains(" "), "\(plain)")
        #expect(Self.statusLine(harness, "place     ") == "place     \(expected) (\(lookups) lookups in \(placeCount) places)")
        let place = try #require(try Self.json(harness)["place"] as? [String: Any])
        #expect(place["text"] as? String == expected)
        #expect(place["gazetteer"] as? Bool == true)
        #expect(place["lookups"] as? Int == lookups)
        #expect(place["places"] as? Int == placeCount)
    }

    @Test("throttled: a lookup only after 200 m from the last one, and min-move changes it", .needsGazetteer)
    func throttled() throws {
        guard Self.gazetteer() != nil else { return }
        for (minMove, spacing) in [(Int64(200_000), 20), (Int64(500_000), 48)] {
            let harness = try InProcessDaemon(Self.drive(seconds: 100)) {
                $0.places.file = Self.table
                $0.places.minimumMoveMillimetres = minMove
            }
            // The lookup count after each second's fix is in.
            var counts: [Int] = []
            for second in 0..<99 {
                harness.run(until: Int64(second) * 1_000 + 1_500)
                counts.append(harness.daemon.places.lookupCount)
            }
            let steps = counts.indices.dropFirst().filter { counts[$0] != counts[$0 - 1] }
            #expect(counts.first == 1, "the first filtered fix is looked up: \(counts)")
            #expect(!steps.isEmpty)
            // Every lookup after the first comes exactly `spacing` fixes (10.5 m each) after the last.
            var last = 0
            for step in steps {
                #expect(step - last == spacing, "min-move \(minMove) mm: lookups after fixes \(steps)")
                last = step
            }
            #expect(counts.allSatisfy { $0 <= 1 + 99 / spacing })
        }
    }

    @Test("not allowed: no place in where, status or status --json, and no lookup", .needsGazetteer,
          arguments: ["denied", "restricted", "not-determined"])
    func notAllowed(state: String) throws {
        guard Self.gazetteer() != nil else { return }
        let permission: PermissionRequest? = state == "denied" ? .deny : state == "restricted" ? .allowAlways : nil
        let harness = try InProcessDaemon(Self.drive(seconds: 20), permission: permission) {
            $0.places.file = Self.table
            $0.privacy.restricted = state == "restricted"
        }
        harness.run(until: 19_500)
        let lookups = harness.daemon.places.lookupCount
        #expect(lookups == 0)
        let reply = harness.request("where")
        #expect(reply.hasPrefix("error not-allowed: tracking is \(state)"), "\(reply)")
        #expect(!reply.contains("Tübingen"))
        let placeCount = harness.daemon.places.table?.placeCount ?? 0
        #expect(Self.statusLine(harness, "place     ") == "place     withheld (\(state); 0 lookups in \(placeCount) places)")
        let status = harness.request("status") + harness.request("status json")
        #expect(!status.contains("Tübingen"))
        let place = try #require(try Self.json(harness)["place"] as? [String: Any])
        #expect(place["text"] == nil)
    }

    @Test("denied after a drive: the name goes at once and the next fixes look nothing up", .needsGazetteer)
    func deniedAfterADrive() throws {
        guard Self.gazetteer() != nil else { return }
        let harness = try InProcessDaemon(Self.drive(seconds: 40)) { $0.places.file = Self.table }
        harness.run(until: 10_500)
        #expect(harness.request("where").contains("Tübingen"))
        let before = harness.daemon.places.lookupCount
        _ = harness.request("privacy deny")
        #expect(!harness.request("status").contains("Tübingen"))
        harness.run(until: 39_500)
        let after = harness.daemon.places.lookupCount
        let name = harness.daemon.places.namer.name
        #expect(after == before)
        #expect(name == nil)
        #expect(!(harness.request("status") + harness.request("status json")).contains("Tübingen"))
    }

    @Test("approximate: the snapped cell's place in whole kilometres, looked up once per cell", .needsGazetteer)
    func approximate() throws {
        guard Self.gazetteer() != nil else { return }
        let harness = try InProcessDaemon(Self.drive(seconds: 60)) { $0.places.file = Self.table }
        harness.run(until: 5_500)
        let shownPrecise = harness.daemon.places.shown(.precise)?.string
        let precise = try #require(shownPrecise)
        _ = harness.request("privacy approximate")
        // Before the next fix the precise name is not shown under approximate accuracy.
        #expect(Self.statusLine(harness, "place     ")?.hasPrefix("place     none yet") == true)
        #expect(!harness.request("status json").contains(precise))
        let lookupsBefore = harness.daemon.places.lookupCount
        harness.run(until: 59_500)
        let current = harness.daemon.places.namer.name
        let name = try #require(current)
        // The position looked up is a grid cell's centre, never the fix.
        #expect(name.position == ApproximateGrid.snap(name.position))
        let expected = try #require(Self.words(name.position, approximate: true))
        let reply = harness.request("where").split(separator: "\n").map(String.init)
        #expect(reply.count == 3, "\(reply)")
        #expect(reply[1].contains("(approximate, 1 km grid)"))
        #expect(reply[2] == expected)
        #expect(!expected.contains("."), "whole kilometres: \(expected)")
        #expect(Self.statusLine(harness, "place     ")?.hasPrefix("place     \(expected) (approximate; ") == true)
        // 54 fixes over 567 m cross at most one cell boundary of 0.01° latitude (1.1 km).
        let cells = harness.daemon.places.lookupCount - lookupsBefore
        #expect(cells >= 1 && cells <= 2, "\(cells) lookups")
    }

    @Test("a missing gazetteer: said once, status says no gazetteer, and trackd tracks on")
    func missingGazetteer() throws {
        let harness = try InProcessDaemon(Self.drive(seconds: 20)) {
            $0.places.file = "/nonexistent/places.bin"
        }
        harness.run(until: 19_500)
        let problem = harness.daemon.places.problem
        #expect(problem == "/nonexistent/places.bin: No such file or directory")
        #expect(Self.statusLine(harness, "place     ") == "place     no gazetteer: /nonexistent/places.bin: No such file or directory")
        let reply = harness.request("where").split(separator: "\n")
        #expect(reply.count == 2, "the position alone: \(reply)")
        let place = try #require(try Self.json(harness)["place"] as? [String: Any])
        #expect(place["gazetteer"] as? Bool == false)
        #expect(place["problem"] as? String == "/nonexistent/places.bin: No such file or directory")
        let (records, problems) = try harness.stopAndReadLog()
        #expect(problems.isEmpty)
        #expect(DaemonLoopTests.fixes(records).count > 10)
    }

    @Test("a damaged gazetteer: the table's own error, no names, tracking goes on", .needsGazetteer)
    func damagedGazetteer() throws {
        guard let (bytes, _) = Self.gazetteer() else { return }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("places-damaged-\(UUID().uuidString).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes.prefix(bytes.count - 100)).write(to: URL(fileURLWithPath: path))
        let harness = try InProcessDaemon(Self.drive(seconds: 20)) { $0.places.file = path }
        harness.run(until: 19_500)
        let damaged = harness.daemon.places.problem
        let problem = try #require(damaged)
        #expect(problem.hasPrefix(path + ": truncated or padded"), "\(problem)")
        #expect(Self.statusLine(harness, "place     ")?.hasPrefix("place     no gazetteer: \(path): truncated") == true)
        let (records, _) = try harness.stopAndReadLog()
        #expect(DaemonLoopTests.fixes(records).count > 10)
    }

    @Test("enabled = no: nothing mapped, nothing looked up, status says off")
    func off() throws {
        let harness = try InProcessDaemon(Self.drive(seconds: 10)) {
            $0.places.enabled = false
            $0.places.file = Self.table
        }
        harness.run(until: 9_500)
        let table = harness.daemon.places.table
        let lookups = harness.daemon.places.lookupCount
        #expect(table == nil)
        #expect(lookups == 0)
        #expect(Self.statusLine(harness, "place     ") == "place     off ([places] enabled = no)")
    }
}
