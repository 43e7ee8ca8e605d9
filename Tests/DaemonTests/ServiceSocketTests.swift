import Foundation
import Glibc
import Testing
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// The control and gpsd services in-process, over their real sockets, on times the test
/// chooses: what trackctl and gpsd's clients see, in every permission state that matters.
@Suite("the control and gpsd services in-process", .serialized)
struct ServiceSocketTests {
    /// Twenty epochs a second apart from 1 s, moving north at 12 knots.
    static func drive(seconds: Int = 20) -> ScriptedSource {
        ScriptedSource((0..<seconds).map { second in
            ScriptedSource.Chunk(atMilliseconds: Int64(second) * 1_000 + 1_000,
                                 bytes: NMEA.epoch(second: second, latitude: 48.5 + Double(second) * 0.0001, longitude: 9.05, knots: 12))
        })
    }

    @Test("trackctl's requests on the control socket: privacy, where, mark, status json; a line too long refused")
    func controlSocket() throws {
        let harness = try InProcessDaemon(Self.drive(), permission: nil, parts: [.controlSocket])
        let notDetermined = try harness.ask("where")
        #expect(notDetermined.hasPrefix("error "), "\(notDetermined)")
        let allowed = try harness.ask("privacy allow always")
        #expect(allowed == "ok\nalways, precise\n\n", "\(allowed)")
        harness.run(until: 6_000)
        let position = try harness.ask("where plain")
        #expect(position.hasPrefix("ok\n48.500"), "\(position)")
        let mark = try harness.ask("mark old bridge")
        #expect(mark.hasPrefix("ok\nwaypoint 1 at 48.500"), "\(mark)")
        let status = try harness.ask("status json")
        #expect(status.hasPrefix("ok\n{"), "\(status)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.dropFirst(3).utf8)) as? [String: Any])
        #expect(json["waypoints"] as? Int == 1)
        #expect((json["permission"] as? [String: Any])?["state"] as? String == "always")
        #expect((json["control"] as? [String: Any])?["refused"] as? Int == 0)
        let text = try harness.ask("status")
        #expect(text.contains("control   \(harness.directory.path)/control.sock, 0 refused, 0 dropped"), "\(text)")
        let long = try harness.ask(String(repeating: "x", count: 300))
        #expect(long.hasPrefix("error protocol: request line too long"), "\(long)")
        let approximate = try harness.ask("privacy approximate")
        #expect(approximate == "ok\nalways, approximate (1 km grid, no fences)\n\n", "\(approximate)")
        let snapped = try harness.ask("where")
        #expect(snapped.contains("(approximate, 1 km grid)"), "\(snapped)")
        let (records, _) = try harness.stopAndReadLog()
        #expect(records.contains { if case .waypoint = $0 { true } else { false } })
    }

    @Test("gpsd's clients: VERSION, WATCH, TPV and SKY each epoch, raw sentences only while precise, POLL; as the permission lets them out")
    func gpsdService() throws {
        let port = InProcessDaemon.freePort()
        let harness = try InProcessDaemon(Self.drive(), configure: { config in
            config.gpsd.listen = [ListenAddress(parsing: "127.0.0.1:\(port)")].compactMap { $0 }
        }, parts: [.gpsd, .controlSocket])
        let client = try harness.gpsdClient()
        defer { _ = close(client) }
        let greeting = harness.gpsd(client)
        #expect(greeting.first?.hasPrefix("{\"class\":\"VERSION\",\"release\":\"3.22\"") == true, "\(greeting)")
        let watch = harness.gpsd(client, send: "?WATCH={\"enable\":true,\"json\":true,\"nmea\":true};\n")
        #expect(watch.count == 2 && watch[0].hasPrefix("{\"class\":\"DEVICES\"") && watch[1].hasPrefix("{\"class\":\"WATCH\""),
                "\(watch)")

        // Precise: the receiver's sentences as they came (the checksum in upper case), then
        // TPV and SKY for each epoch.
        harness.run(until: 5_500)
        let precise = InProcessDaemon.lines(client)
        let sentences = precise.filter { $0.hasPrefix("$") }
        let fed = (0..<5).flatMap { second in
            String(decoding: NMEA.epoch(second: second, latitude: 48.5 + Double(second) * 0.0001, longitude: 9.05, knots: 12),
                   as: UTF8.self).split(separator: "\r\n").map(String.init)
        }
        #expect(sentences == fed, "\(sentences)")
        let tpv = precise.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(tpv.count >= 3, "\(precise)")
        #expect(tpv.last?.contains("\"lat\":48.500") == true, "\(tpv)")

        // Approximate: the snapped position, and no raw sentence (it carries the precise one).
        #expect(try harness.ask("privacy approximate").hasPrefix("ok"))
        harness.run(until: 8_500)
        let approximate = InProcessDaemon.lines(client)
        #expect(!approximate.contains { $0.hasPrefix("$") }, "\(approximate)")
        let snapped = approximate.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(!snapped.isEmpty && snapped.allSatisfy { !$0.contains("\"lat\":48.500") }, "\(snapped)")

        // Denied: TPVs without a position (mode 1), SKYs without elevation and azimuth.
        #expect(try harness.ask("privacy deny").hasPrefix("ok"))
        harness.run(until: 11_500)
        let denied = InProcessDaemon.lines(client)
        let withheld = denied.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(!withheld.isEmpty && withheld.allSatisfy { $0.contains("\"mode\":1") && !$0.contains("\"lat\"") }, "\(withheld)")
        #expect(!denied.contains { $0.hasPrefix("$") || $0.contains("\"el\":") }, "\(denied)")
        let poll = harness.gpsd(client, send: "?POLL;\n")
        #expect(poll.count == 1 && poll[0].hasPrefix("{\"class\":\"POLL\"") && !poll[0].contains("\"lat\""), "\(poll)")

        let status = try harness.ask("status")
        #expect(status.contains("gpsd      127.0.0.1:\(port); 1 client (1 json, 1 nmea); 1 accepted"), "\(status)")
    }

    @Test("doctor on the loop's own time: too early right after start, then silence; garbage after good data, then silence")
    func doctorOnChosenTime() throws {
        var chunks = (0..<6).map { second in
            ScriptedSource.Chunk(atMilliseconds: 10_000 + Int64(second) * 1_000,
                                 bytes: NMEA.epoch(second: second, latitude: 48.5, longitude: 9.05))
        }
        // Then noise for six seconds: bytes no parser can use, as from a receiver at another baud.
        var random = SystemRandomNumberGenerator()
        for tenth in 0..<60 {
            chunks.append(ScriptedSource.Chunk(atMilliseconds: 16_000 + Int64(tenth) * 100,
                                               bytes: (0..<30).map { _ in UInt8.random(in: 0x80...0xFF, using: &random) }))
        }
        let harness = try InProcessDaemon(ScriptedSource(chunks), parts: [.controlSocket])
        let early = try harness.ask("doctor")
        #expect(early.contains("wait data: no bytes from the receiver yet"), "\(early)")
        harness.run(until: 5_500)
        let silent = try harness.ask("doctor")
        #expect(silent.contains("error data: nothing received from the receiver since trackd started 5.5s ago"), "\(silent)")
        harness.run(until: 15_500)
        let good = try harness.ask("doctor")
        #expect(good.contains("ok fix: 3D"), "\(good)")
        harness.run(until: 21_900)
        let garbage = try harness.ask("doctor")
        #expect(garbage.contains("ok data:"), "\(garbage)")
        #expect(garbage.contains("error baud: bytes arrive but no valid NMEA sentence in the last 5 s"), "\(garbage)")
        #expect(garbage.contains("valid sentences came before"), "\(garbage)")
        let status = try harness.ask("status")
        #expect(status.contains("open; 0.0 sentences/s"), "\(status)")
        // Then silence: judged on what arrives now, not on the totals.
        harness.run(until: 28_000)
        let quiet = try harness.ask("doctor")
        #expect(quiet.contains("error data: nothing received from the receiver for 6.1s"), "\(quiet)")
    }
}
