import Foundation
import Glibc
import TestData
import Testing

/// The real trackd replaying a real capture, and Debian's gpsd-clients (`gpspipe`) against it
/// on loopback: the protocol, privacy in every permission state, and clients that misbehave.
/// Reported skipped when gpsd-clients is not installed (scripts/setup installs it) or the
/// shared captures are absent. About 26 s on 2 shared cores (debug trackd, captures replayed at
/// 4× receiver time).
@Suite("gpsd clients against trackd", .serialized, .needsProgram("/usr/bin/gpspipe", package: "gpsd-clients"),
       .needsShared("gpsd-regress"))
struct GpsdIntegrationTests {
    static let gpspipe = "/usr/bin/gpspipe"

    /// A loopback port nobody listens on now (the kernel's choice of an ephemeral one).
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(fd, raw, length)
                _ = getsockname(fd, raw, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Runs `arguments` and returns its standard output, ending it after `seconds`.
    static func run(_ path: String, _ arguments: [String], seconds: Double) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-client-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        // SIGKILL: a child of the test process inherits its blocked signals, SIGTERM among them.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
    }

    /// The lines of `output` without their CRLF. Not `split(separator: "\n")`: as Characters,
    /// "\r\n" is one and never equals "\n".
    static func lines(_ output: String) -> [String] {
        output.utf8.split(separator: UInt8(ascii: "\n")).map {
            String(decoding: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0[...], as: UTF8.self)
        }.filter { !$0.isEmpty }
    }

    static func objects(_ output: String) -> [[String: Any]] {
        lines(output).compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// A trackd on a fresh port replaying ublox-8.log at `speed`, the permission set by
    /// `privacy` (trackctl arguments); the caller is `.needsShared("gpsd-regress")`.
    static func start(speed: Int, privacy: [[String]], extra: String = "", repeats: Int = 1)
        throws -> (harness: DaemonHarness, process: Process, port: UInt16) {
        let capture = try DaemonHarness.capture("ublox-8.log")
        let port = freePort()
        let harness = try DaemonHarness(extraConfig: "[gpsd]\nlisten = 127.0.0.1:\(port)\n" + extra)
        var bytes: [UInt8] = []
        for _ in 0..<repeats { bytes += capture }
        let process = try harness.replay(bytes, speed: speed)
        for arguments in privacy { _ = try harness.trackctl(["privacy"] + arguments) }
        return (harness, process, port)
    }

    @Test("gpspipe -w and -r: VERSION, DEVICES, WATCH, then TPV and SKY per epoch; raw sentences as received")
    func gpspipe() throws {
        let (harness, process, port) = try Self.start(speed: 4, privacy: [["allow", "always"]])
        defer { process.terminate(); process.waitUntilExit(); _ = harness }
        let json = try Self.run(Self.gpspipe, ["-w", "-n", "10", "127.0.0.1:\(port)"], seconds: 15)
        let lines = Self.lines(json)
        #expect(lines.count == 10, "\(json)")
        let objects = Self.objects(json)
        #expect(objects.count == lines.count, "every line one JSON object: \(json)")
        #expect(objects.prefix(3).map { $0["class"] as? String } == ["VERSION", "DEVICES", "WATCH"])
        #expect(objects.first?["release"] as? String == "3.22" && objects.first?["proto_minor"] as? Int == 14)
        for line in lines {
            #expect(!line.contains(": ") && !line.contains("null"), "gpsd's framing: \(line)")
        }
        let tpvs = objects.filter { $0["class"] as? String == "TPV" }
        #expect(tpvs.count >= 3 && objects.contains { $0["class"] as? String == "SKY" }, "\(json)")
        for tpv in tpvs where (tpv["mode"] as? Int ?? 0) >= 2 {
            let lat = tpv["lat"] as? Double ?? 0, lon = tpv["lon"] as? Double ?? 0
            #expect(abs(lat - 44.0689) < 0.001 && abs(lon + 121.3143) < 0.001, "\(tpv)")
        }
        let raw = try Self.run(Self.gpspipe, ["-r", "-n", "20", "127.0.0.1:\(port)"], seconds: 15)
        let sentences = Self.lines(raw).filter { $0.hasPrefix("$") }
        #expect(sentences.count >= 10, "\(raw)")
        let capture = String(decoding: try DaemonHarness.capture("ublox-8.log"), as: UTF8.self)
        for sentence in sentences {
            #expect(capture.contains(sentence), "as received: \(sentence)")
        }
        #expect(raw.contains("\r\n"), "CRLF after each line")
    }

    /// Each permission state: whether TPVs carry a position, and which; whether raw sentences flow.
    static let states: [(name: String, privacy: [[String]], extra: String, position: String, sentences: Bool)] = [
        ("not-determined", [], "", "none", false),
        ("denied", [["allow", "always"], ["deny"]], "", "none", false),
        ("restricted", [], "[privacy]\nrestricted = yes\n", "none", false),
        // ublox-8.log stands still: not in use and no trip.
        ("when-in-use, idle", [["allow", "when-in-use"]], "", "none", false),
        ("always, approximate", [["allow", "always"], ["approximate"]], "", "snapped", false),
        ("always, precise", [["allow", "always"]], "", "precise", true),
    ]

    @Test("privacy through gpspipe in every permission state", arguments: 0..<6)
    func privacy(_ index: Int) throws {
        let state = Self.states[index]
        let (harness, process, port) = try Self.start(speed: 4, privacy: state.privacy, extra: state.extra)
        defer { process.terminate(); process.waitUntilExit(); _ = harness }
        let json = try Self.run(Self.gpspipe, ["-w", "-n", "12", "127.0.0.1:\(port)"], seconds: 15)
        // Withheld: every TPV says mode 1, since clients read 2 or 3 as "lat and lon are here".
        let timed = Self.objects(json).filter { $0["class"] as? String == "TPV" && $0["time"] != nil }
        let tpvs = state.position == "none" ? timed : timed.filter { ($0["mode"] as? Int ?? 0) >= 2 }
        #expect(!tpvs.isEmpty, "\(state.name): \(json)")
        if state.position == "none" {
            #expect(tpvs.allSatisfy { $0["mode"] as? Int == 1 }, "\(state.name): \(json)")
        }
        for tpv in tpvs {
            let precise = ["speed", "track", "altHAE", "altMSL", "alt", "epx", "epy", "epv", "climb", "geoidSep"]
            switch state.position {
            case "none":
                #expect(tpv["lat"] == nil && tpv["lon"] == nil, "\(state.name): \(tpv)")
                #expect(precise.allSatisfy { tpv[$0] == nil }, "\(state.name): \(tpv)")
            case "snapped":
                let lat = tpv["lat"] as? Double ?? 0
                #expect(tpv["lon"] != nil && abs(lat - 44.0689) < 0.01, "\(state.name): \(tpv)")
                #expect(abs(lat - 44.068897833) > 0.000_01, "snapped, not the receiver's: \(tpv)")
                #expect(precise.allSatisfy { tpv[$0] == nil }, "\(state.name): \(tpv)")
            default:
                #expect(tpv["lat"] != nil && tpv["speed"] != nil && tpv["altHAE"] != nil, "\(state.name): \(tpv)")
            }
        }
        let raw = try Self.run(Self.gpspipe, ["-r", "-n", "8", "127.0.0.1:\(port)"], seconds: 3)
        let sentences = Self.lines(raw).filter { $0.hasPrefix("$") }
        #expect(state.sentences ? sentences.count >= 5 : sentences.isEmpty, "\(state.name): \(raw)")
    }
}
