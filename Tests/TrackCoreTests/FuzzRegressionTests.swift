import Foundation
import Testing
import TrackCore

/// The inputs `scripts/fuzz` found crashing, kept in `Fixtures/fuzz/TARGET/NAME.hex`: a `#`
/// header saying where the input came from and what it broke, then the input's bytes in hex.
/// scripts/fuzz also seeds its corpora with them.
enum FuzzFixtures {
    /// The bytes of `Fixtures/fuzz/target/name.hex`.
    static func load(_ target: String, _ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
            .appendingPathComponent("fuzz").appendingPathComponent(target).appendingPathComponent(name + ".hex")
        let text = try String(contentsOf: url, encoding: .utf8)
        let hex = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined().filter { !$0.isWhitespace }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index..<next], radix: 16), "bad hex in \(name)"))
            index = next
        }
        return bytes
    }
}

@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// A route with a 2,200 km/s segment: the simulator writes the fastest speed NMEA holds, and
    /// the receiver accepts every sentence it writes.
    @Test(arguments: ["simulator-speed-overflow"])
    func simulatorSpeedOverflow(name: String) async throws {
        // Trapped before the fix; in its own process so a trap fails only this test.
        await #expect(processExitsWith: .success) { [name] in
            var simulator = try NMEASimulator(track: GPXTrack(parsing: FuzzFixtures.load("gpx", name)))
            var buffer = TextBuffer()
            while simulator.writeEpoch(to: &buffer) {}
        }
        let bytes = try FuzzFixtures.load("gpx", name)
        var simulator = try NMEASimulator(track: GPXTrack(parsing: bytes))
        var text = ""
        var buffer = TextBuffer()
        while simulator.writeEpoch(to: &buffer) {
            text += buffer.string
            buffer.removeAll()
        }
        #expect(simulator.lastEpoch?.speedMillimetresPerSecond == 1_028_888_888)
        var receiver = NMEAReceiver()
        var speeds: [Int32?] = []
        Array(text.utf8).withUnsafeBytes { raw in receiver.consume(raw) { speeds.append($0.speedMillimetresPerSecond) } }
        receiver.finish { speeds.append($0.speedMillimetresPerSecond) }
        #expect(receiver.counters.accepted > 0)
        #expect(receiver.counters.outOfRange == 0 && receiver.counters.malformed == 0)
        #expect(speeds.contains(1_028_888_888))
    }

    /// A route on the antimeridian, simulated with noise: every reported longitude stays within
    /// ±180° and the receiver accepts every sentence.
    @Test func simulatorAntimeridianNoise() throws {
        let track = try GPXTrack(parsing: FuzzFixtures.load("gpx", "simulator-antimeridian-noise"))
        var simulator = try NMEASimulator(track: track, configuration: .init(noiseMetres: 5))
        var receiver = NMEAReceiver()
        var buffer = TextBuffer()
        var eastOfAntimeridian = 0
        while simulator.writeEpoch(to: &buffer) {
            let longitude = try #require(simulator.lastEpoch?.reportedPosition).longitudeNanodegrees
            #expect(abs(longitude) <= 180_000_000_000)
            if longitude < 0 { eastOfAntimeridian += 1 }
            Array(buffer.string.utf8).withUnsafeBytes { raw in receiver.consume(raw) { _ in } }
            buffer.removeAll()
        }
        // The noise carried some epochs across, so the wrap was needed.
        #expect(eastOfAntimeridian > 0)
        #expect(receiver.counters.accepted > 100)
        #expect(receiver.counters.outOfRange == 0)
    }

    /// A polygon reaching past its centre's horizon is rejected with an error that prints.
    @Test(arguments: ["polygon-past-the-horizon"])
    func polygonPastTheHorizon(name: String) async throws {
        // Describing the error trapped before the fix.
        await #expect(processExitsWith: .success) { [name] in
            let bytes = try FuzzFixtures.load("fences", name)
            do throws(FenceFileError) {
                _ = try FenceFile.parse(bytes, settings: FenceSettings())
            } catch {
                _ = error.description
            }
        }
        let bytes = try FuzzFixtures.load("fences", name)
        let error = try #require(throws: FenceFileError.self) { try FenceFile.parse(bytes, settings: FenceSettings()) }
        guard case .tooLarge(let metres, _) = error.problem else {
            Issue.record("expected tooLarge, got \(error.problem)")
            return
        }
        #expect(metres == .infinity)
        #expect(error.description == "feature 0 (id \"0\"): the polygon reaches over 84° of arc from its centre; at most 500000 m")
    }

    /// A polygon whose edge passes next to a pole: the index offers it for every point the
    /// fence does not rule out, all round the pole, the fuzzer's point among them.
    @Test(arguments: ["polygon-round-the-pole"])
    func polygonRoundThePole(name: String) throws {
        let fences = try FenceFile.parse(FuzzFixtures.load("fences", name), settings: FenceSettings())
        #expect(fences.count == 1)
        var points = [Coordinate(latitudeNanodegrees: 89_956_234_830, longitudeNanodegrees: -179_999_000_000)]
        for latitude in stride(from: 89.40, through: 90.0, by: 0.005) {
            for longitude in stride(from: -180.0, to: 180.0, by: 7.5) {
                points.append(Coordinate(latitudeNanodegrees: Int64((latitude * 1e9).rounded()),
                                         longitudeNanodegrees: Int64((longitude * 1e9).rounded())))
            }
        }
        var notOutside = 0
        for point in points {
            for accuracy in [0.0, 25, 75] {
                var found = false
                fences.boxesAround(point, metres: accuracy + 1) { box in
                    fences.index.query(box) { _ in found = true }
                }
                fences.states(at: point, accuracyMetres: accuracy) { _, state in
                    guard state != .outside else { return }
                    notOutside += 1
                    #expect(found, "the index misses the fence at \(point), accuracy \(accuracy) m")
                }
            }
        }
        #expect(notOutside > 100, "the points should reach into the fence: \(notOutside)")
    }
}
