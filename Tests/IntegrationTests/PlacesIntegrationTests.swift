import Foundation
import TestData
import Testing

/// The place commands on the real binaries: `trackctl place`, and a drive through the demo
/// fences replayed through the real trackd, then `log trips`, `log export --trip` and `log plot`
/// naming its places and fences. The gazetteer is the one scripts/build-places compiles;
/// without it the suite is reported skipped.
@Suite(.serialized, .needsGazetteer) struct PlacesIntegrationTests {
    static let table = TestData.gazetteer
    static let demoFences = DaemonHarness.root.appendingPathComponent("board/demo-fences.geojson").path

    @Test func placeSaysWhereAndGivesTheFieldsAsJSON() throws {
        let words = try ExportIntegrationTests.trackctl(["place", "48.54", "9.08", "--places", Self.table])
        #expect(words.status == 0)
        #expect(words.output == "in Tübingen, Baden-Wurttemberg, DE\n")
        let json = try ExportIntegrationTests.trackctl(["place", "48.54", "9.08", "--json", "--places", Self.table])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let place = try #require(object["place"] as? [String: Any])
        #expect(place["name"] as? String == "Tübingen")
        #expect(place["country_code"] as? String == "DE")
        #expect(place["population"] as? Int == 83_416)
        #expect(object["compass"] as? String == "NE")
        #expect(abs((object["distance_m"] as? Double ?? 0) - 2_815.6) < 0.1)
        // The middle of the Atlantic: the coordinates, and no place.
        let sea = try ExportIntegrationTests.trackctl(["place", "30", "-40", "--json", "--places", Self.table])
        #expect(sea.output == "{\"text\":\"30.000000°N, 40.000000°W\",\"lat\":30,\"lon\":-40,\"place\":null}\n")
    }

    @Test func placeRefusesBadInputNamingIt() throws {
        let bad = try ExportIntegrationTests.trackctl(["place", "95", "9", "--places", Self.table])
        #expect(bad.status == 2)
        #expect(bad.errors.hasPrefix("trackctl place: '95 9' is not a latitude and longitude"))
        let missing = try ExportIntegrationTests.trackctl(["place", "48", "9", "--places", "/nonexistent/places.bin"])
        #expect(missing.status == 1)
        #expect(missing.errors == "trackctl place: /nonexistent/places.bin: No such file or directory\n")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let truncated = directory.appendingPathComponent("places.bin")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.table))
        try bytes.prefix(bytes.count - 10).write(to: truncated)
        let short = try ExportIntegrationTests.trackctl(["place", "48", "9", "--places", truncated.path])
        #expect(short.status == 1)
        #expect(short.errors == "trackctl place: \(truncated.path): truncated or padded: the sections end at offset "
            + "\(bytes.count), the file has \(bytes.count - 10) bytes\n")
    }

    @Test func aDriveThroughTheDemoFencesIsOneTripNamedByPlacesAndFenceIDs() throws {
        let harness = try DaemonHarness()
        try harness.writeConfig(device: harness.slavePath, extra: "[fences]\nfile = \(Self.demoFences)\n")
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.stop()
        let route = harness.directory.appendingPathComponent("route.nmea")
        try Data(try FenceIntegrationTests.route()).write(to: route)
        let replay = Process()
        replay.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackd"))
        replay.arguments = ["--config", harness.configPath, "--replay", route.path, "--speed", "50"]
        replay.standardError = FileHandle.nullDevice
        try replay.run()
        // The replay keeps trackd running after the file's end: wait for the route's last fix,
        // then stop it (SIGTERM syncs the log).
        let done = try harness.waitForStatus(seconds: 60) { json in
            ((json["fix"] as? [String: Any])?["time"] as? String ?? "") >= "2024-06-15T07:39:55"
        }
        kill(replay.processIdentifier, SIGTERM)
        for _ in 0..<1_000 where replay.isRunning { usleep(10_000) }
        #expect(!replay.isRunning, "trackd did not stop within 10 s of SIGTERM")
        if replay.isRunning { kill(replay.processIdentifier, SIGKILL) }
        replay.waitUntilExit()
        try #require(done != nil, "the replay did not reach the route's end")
        let log = harness.logDirectory
        let common = ["--log", log, "--places", Self.table, "--fences", Self.demoFences]

        let trips = try ExportIntegrationTests.trackctl(["log", "trips"] + common)
        #expect(trips.status == 0, "\(trips.errors)")
        #expect(trips.output.hasPrefix("trip 1  Tübingen → Tübingen, 3.2 km, 10 min\n"), "\(trips.output)")
        #expect(!trips.output.contains("trip 2"))
        #expect(trips.output.contains("fence-enter  2024-06-15T07:30:"), "\(trips.output)")
        #expect(trips.output.contains("market-square enter  in Tübingen, Baden-Wurttemberg, DE"), "\(trips.output)")
        #expect(trips.output.contains("old-bridge exit"), "\(trips.output)")

        let gpx = try ExportIntegrationTests.trackctl(["log", "export", "--trip", "1"] + common)
        #expect(gpx.status == 0)
        #expect(gpx.output.contains("<trk><name>Tübingen → Tübingen</name>"))
        #expect(gpx.output.contains("<name>market-square enter</name><desc>geofence market-square: enter, in Tübingen, "
            + "Baden-Wurttemberg, DE</desc>"))
        let geojson = try ExportIntegrationTests.trackctl(["log", "export", "--format", "geojson", "--trip", "1"] + common)
        #expect(geojson.output.contains("\"name\":\"old-bridge exit\""))
        #expect(geojson.output.contains("\"place\":\"in Tübingen, Baden-Wurttemberg, DE\""))
        #expect(geojson.output.contains("\"track\":1,\"name\":\"Tübingen → Tübingen\""))
        let none = try ExportIntegrationTests.trackctl(["log", "export", "--trip", "2"] + common)
        #expect(none.status == 1)
        #expect(none.errors == "trackctl log export: --trip 2: the log has 1 trips (trackctl log trips lists them)\n")

        let plot = try ExportIntegrationTests.trackctl(["log", "plot"] + common)
        #expect(plot.status == 0)
        #expect(plot.output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
        #expect(plot.output.contains(">Tübingen → Tübingen, 3.2 km, 10 min</text>"))
        #expect(plot.output.contains("fence market-square"))
        #expect(plot.errors == "trackctl log plot: trip 1 of 1: Tübingen → Tübingen, 3.2 km, 10 min\n")
        let again = try ExportIntegrationTests.trackctl(["log", "plot"] + common)
        #expect(again.output == plot.output, "the same log draws the same bytes")
    }

    @Test(.needsShared("gpsd-regress")) func theRealTrackdNamesItsPlaceOnceAllowedAndSIGHUPMapsANewTable() throws {
        let bytes = try DaemonHarness.capture(DaemonIntegrationTests.capture)
        let harness = try DaemonHarness()
        let missing = harness.directory.appendingPathComponent("no-places.bin").path
        try harness.writeConfig(device: harness.slavePath, extra: "[places]\nfile = \(missing)\n")
        try harness.start()
        // No table: a journal line, status says so, and trackd tracks.
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.feed(bytes)
        _ = try harness.waitForStatus { json in ((json["filter"] as? [String: Any])?["accepted"] as? Int ?? 0) > 10 }
        // Fed again so `where` answers from a fix seconds old.
        harness.feed(Array(bytes.prefix(20_000)))
        let withoutTable = try harness.trackctl(["status"]).output
        #expect(withoutTable.contains("place     no gazetteer: \(missing): No such file or directory"), "\(withoutTable)")
        #expect(harness.daemonOutput.contains("trackd: places: \(missing): No such file or directory; no gazetteer: "
            + "positions are not named, tracking goes on"), "\(harness.daemonOutput)")
        let bare = try harness.trackctl(["where"])
        #expect(bare.status == 0 && bare.output.hasSuffix(" ago\n"), "\(bare.output)")

        // SIGHUP with the table: names from the next fix on (the capture is near Petaluma, CA).
        try harness.writeConfig(device: harness.slavePath, extra: "[places]\nfile = \(Self.table)\nmin-move = 50\n")
        ReloadTests.hangUp(harness)
        _ = try harness.waitForStatus { json in json["reloads"] as? Int == 1 }
        harness.feed(Array(bytes.prefix(20_000)))
        let named = try harness.waitForStatus { json in (json["place"] as? [String: Any])?["text"] != nil }
        let statusText = try harness.trackctl(["status"]).output
        let place = try #require(named?["place"] as? [String: Any], "\(statusText)")
        let text = try #require(place["text"] as? String)
        #expect(text.hasSuffix(", California, US"), "\(text)")
        #expect(place["gazetteer"] as? Bool == true)
        #expect((place["lookups"] as? Int ?? 0) >= 1)
        let reply = try harness.trackctl(["where"])
        #expect(reply.status == 0)
        let lines = reply.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("38.11") && lines[1] == text, "\(reply.output)")
        #expect(try harness.trackctl(["status"]).output.contains("place     \(text) ("))

        // Private mode: no place anywhere.
        #expect(try harness.trackctl(["privacy", "deny"]).status == 0)
        let denied = try harness.trackctl(["status"]).output + (try harness.trackctl(["status", "--json"]).output)
            + (try harness.trackctl(["where"]).output)
        #expect(!denied.contains(text), "\(denied)")
        #expect(denied.contains("place     withheld (denied; "))
    }
}
