import Foundation
import Testing

// The compiled fence image through the real trackd: made beside the state file at the first
// start, mapped at the next, made again when SIGHUP brings another fences file or when the
// image is damaged, and when it cannot be written the fences stay in memory and work.
@Suite(.serialized) struct FenceImageIntegrationTests {
    @Test func theImageIsMadeReusedAndMadeAgain() throws {
        let harness = try DaemonHarness()
        // The state (and so the image) in a directory of its own, apart from the socket's.
        let stateDirectory = harness.directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: false)
        harness.stateFile = stateDirectory.appendingPathComponent("state").path
        let fences = harness.directory.appendingPathComponent("fences.geojson")
        let events = harness.directory.appendingPathComponent("events.txt").path
        let three = FenceIntegrationTests.fencesFile(in: harness.directory, events: events)
        try three.write(to: fences, atomically: true, encoding: .utf8)
        try harness.writeConfig(device: harness.slavePath, extra: "[fences]\nfile = \(fences.path)\n")
        let image = stateDirectory.appendingPathComponent("fences.image").path

        func run(_ body: () throws -> Void = {}) throws -> (output: String, list: [String]) {
            try harness.start()
            try body()
            let list = try harness.trackctl(["fence", "list"])
            #expect(list.status == 0)
            harness.stop()
            return (harness.daemonOutput, list.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) })
        }

        var first = try run()
        #expect(first.output.contains("trackd: fences: 3 fences compiled to \(image)\n"), "\(first.output)")
        #expect(first.list == ["start", "bend", "far"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: image)[.size] as? Int)
        #expect(size > 64 + 3 * 168)

        first = try run()
        #expect(first.output.contains("trackd: fences: 3 fences from \(image)\n"), "\(first.output)")
        #expect(first.list == ["start", "bend", "far"])

        // SIGHUP with a file of two fences: compiled again, the mapped old image still in use
        // until the new monitor replaces it.
        let reloaded = try run {
            let far = try #require(three.range(of: ",\n{\"type\":\"Feature\",\"properties\":{\"id\":\"far\"}"))
            try (three[..<far.lowerBound] + "]}").write(to: fences, atomically: true, encoding: .utf8)
            if let pid = harness.daemon?.processIdentifier { kill(pid, SIGHUP) }
            let loaded = try harness.waitForStatus { json in (json["fences"] as? [String: Any])?["count"] as? Int == 2 }
            #expect(loaded != nil, "the reload did not load two fences")
        }
        #expect(reloaded.output.contains("trackd: fences: 2 fences compiled to \(image) (the old one: compiled from another fences file)\n"),
                "\(reloaded.output)")
        #expect(reloaded.list == ["start", "bend"])

        // A decayed byte: refused by its CRC, compiled again.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        bytes[200] ^= 0x04
        try bytes.write(to: URL(fileURLWithPath: image))
        let damaged = try run()
        #expect(damaged.output.contains("trackd: fences: 2 fences compiled to \(image) (the old one: the CRC does not match (torn or damaged))\n"),
                "\(damaged.output)")
        #expect(damaged.list == ["start", "bend"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: image)) != bytes)

        // Nowhere to write it beside the state (its temporary file's name taken by a
        // directory): compiled beside the control socket instead, and the fences work.
        try FileManager.default.removeItem(atPath: image)
        try FileManager.default.createDirectory(atPath: image + ".tmp", withIntermediateDirectories: false)
        let runtime = harness.directory.appendingPathComponent("fences.image").path
        let unwritable = try run()
        #expect(unwritable.output.contains("trackd: fences: 2 fences compiled to \(runtime) (\(image): save failed at create: "),
                "\(unwritable.output)")
        #expect(unwritable.list == ["start", "bend"])
        #expect(!FileManager.default.fileExists(atPath: image))

    }
}
