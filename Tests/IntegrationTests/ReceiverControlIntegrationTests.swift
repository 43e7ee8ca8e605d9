import Foundation
import Glibc
import TestData
import Testing

/// `trackctl simulate --receiver MODEL` on a pseudo-terminal of its own, the receiver's side.
final class SimulatedReceiverProcess {
    let process = Process()
    /// The link to the pty's slave: trackd's device.
    let link: String

    /// Starts the simulator on `route` with `arguments`, linked at `directory/gps`, and waits
    /// for the link.
    init(route: String, _ arguments: [String], directory: URL) throws {
        link = directory.appendingPathComponent("gps").path
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackctl"))
        process.arguments = ["simulate", route, "--pty", link, "--loop"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: link) { usleep(10_000) }
    }

    deinit {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// Receiver control in the real trackd against the simulator's receivers, end to end: the
/// commands go over a pseudo-terminal whose baud (trackd's termios) the simulator reads, so a
/// baud change is real on both sides. Several rigs run at once to keep the suite short.
@Suite("receiver control, end to end", .serialized)
struct ReceiverControlIntegrationTests {
    static let demoRoute = DaemonHarness.root.appendingPathComponent("board/demo-route.gpx").path

    /// A simulator of `model` and a trackd on it, `keys` added to `[receiver]`.
    struct Rig {
        let simulator: SimulatedReceiverProcess
        let harness: DaemonHarness

        init(_ simulatorArguments: [String], route: String = ReceiverControlIntegrationTests.demoRoute,
             receiver keys: String = "", extra: String = "") throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-rc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            simulator = try SimulatedReceiverProcess(route: route, simulatorArguments, directory: directory)
            harness = try DaemonHarness(device: simulator.link, extraConfig: extra, receiver: "baud = auto\n" + keys)
            try harness.start()
            _ = try harness.trackctl(["privacy", "allow", "always"])
        }

        /// `receiver.control` of the status, once `condition` holds (nil after `seconds`).
        func control(within seconds: Double, _ condition: ([String: Any]) -> Bool) throws -> [String: Any]? {
            let json = try harness.waitForStatus(seconds: seconds) { json in
                guard let control = (json["receiver"] as? [String: Any])?["control"] as? [String: Any] else { return false }
                return condition(control)
            }
            return (json?["receiver"] as? [String: Any])?["control"] as? [String: Any]
        }
    }

    @Test("every simulated receiver: identified by its answers, configured, each command acknowledged; the silent one named")
    func everyType() throws {
        let expected: [(model: String, dialect: String?, words: String)] = [
            ("ublox-m8", "UBX legacy CFG", "u-blox NEO-M8N-0 (UBX legacy CFG), identified by its MON-VER reply"),
            ("ublox-m10", "UBX CFG-VALSET", "u-blox MAX-M10S (UBX CFG-VALSET), identified by its MON-VER reply"),
            ("mediatek", "PMTK", "MediaTek AXN_2.31_3339_13101700,5632,PA6H,1.0 (PMTK), identified by its PMTK705 release"),
            ("quectel", "PAIR", "Quectel LC29HEANR11A03S,2023/07/14,14:45:13 (PAIR), identified by its Quectel version reply"),
            ("silent", nil, "not identified: it answered none of the probes"),
        ]
        let rigs = try expected.map { try Rig(["--receiver", $0.model]) }
        for (rig, want) in zip(rigs, expected) {
            let control = try rig.control(within: 45) { control in
                let phase = control["phase"] as? String
                return phase == "configured" || phase == "unidentified"
            }
            let now = try rig.harness.trackctl(["status"]).output
            let found = try #require(control, "\(want.model): not set up: \(now)")
            #expect(found["dialect"] as? String == want.dialect, "\(want.model): \(found)")
            let status = try rig.harness.trackctl(["status"]).output
            #expect(status.contains("control   " + want.words), "\(want.model): \(status)")
            let doctor = try rig.harness.trackctl(["doctor"]).output
            let info = try rig.harness.trackctl(["receiver", "info"])
            if want.dialect == nil {
                #expect(found["phase"] as? String == "unidentified")
                #expect(doctor.contains("error receiver control: the receiver did not answer (8 probes)"), "\(doctor)")
                #expect(info.status == 0)
            } else {
                #expect(found["refused"] as? Int == 0, "\(want.model): \(found)")
                #expect(found["unanswered"] as? Int == 0, "\(want.model): \(found)")
                #expect(doctor.contains("ok receiver control: " + want.words), "\(want.model): \(doctor)")
                #expect(info.output.contains(": acknowledged"), "\(want.model): \(info.output)")
                #expect(!info.output.contains("refused"), "\(want.model): \(info.output)")
            }
        }
    }

    @Test("a baud switch: followed by the port; one the receiver ignores loses it, auto-baud finds it again, doctor says so")
    func baudSwitches() throws {
        let moved = try Rig(["--receiver", "ublox-m8"], receiver: "set-baud = 115200")
        let lost = try Rig(["--receiver", "mediatek", "--keep-baud"], receiver: "set-baud = 57600")
        let arrived = try moved.control(within: 30) { _ in
            (try? moved.harness.trackctl(["receiver", "info"]).output.contains("receiver sends at 115200")) == true
        }
        let movedInfo = try moved.harness.trackctl(["receiver", "info"]).output
        #expect(arrived != nil, "\(movedInfo)")
        let baud = (try moved.harness.waitForStatus { _ in true }?["receiver"] as? [String: Any])?["baud"] as? Int
        #expect(baud == 115_200)
        let found = try lost.control(within: 40) { control in
            control["foundAtBaud"] as? Int == 9600 && control["phase"] as? String == "configured"
        }
        let lostInfo = try lost.harness.trackctl(["receiver", "info"]).output
        let control = try #require(found, "\(lostInfo)")
        #expect(control["lostAfterBaud"] as? Int == 57_600)
        let doctor = try lost.harness.trackctl(["doctor"]).output
        #expect(doctor.contains("error receiver control: the receiver was lost after switching to 57600 baud (found again at 9600 baud"),
                "\(doctor)")
        // Nothing logged lost: the fixes went on being recorded, the log reads whole.
        let before = (try lost.harness.waitForStatus { _ in true }?["sampling"] as? [String: Any])?["recorded"] as? Int ?? 0
        let grew = try lost.harness.waitForStatus(seconds: 10) { json in
            ((json["sampling"] as? [String: Any])?["recorded"] as? Int ?? 0) > before
        }
        #expect(grew != nil, "fixes are recorded again after the receiver was found")
        lost.harness.stop()
        let verify = try lost.harness.trackctlOffline(["log", "verify", "--log", lost.harness.logDirectory])
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test("power save: a receiver standing still sleeps, doctor and status say so, trackctl receiver wake wakes it, the log reads")
    func sleepsStandingStill() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-still-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let route = directory.appendingPathComponent("still.gpx")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="trackd tests" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="48.5231000" lon="9.0663039"><ele>336.8</ele><time>2024-06-15T07:30:00Z</time></trkpt>
            <trkpt lat="48.5231000" lon="9.0663039"><ele>336.8</ele><time>2024-06-15T09:30:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """.write(to: route, atomically: true, encoding: .utf8)
        let rig = try Rig(["--receiver", "mediatek"], route: route.path, receiver: "power-save = sleep\npower-save-after = 10s",
                          extra: "\n[sampling]\nheartbeat = 15s\n")
        let asleep = try rig.control(within: 40) { $0["asleep"] as? Bool == true }
        let info = try rig.harness.trackctl(["receiver", "info"]).output
        #expect(asleep != nil, "\(info)")
        let doctor = try rig.harness.trackctl(["doctor"])
        #expect(doctor.output.contains("ok receiver: asleep (power save) for "), "\(doctor.output)")
        #expect(!doctor.output.contains("error data"), "\(doctor.output)")
        let wake = try rig.harness.trackctl(["receiver", "wake"])
        #expect(wake.output.hasPrefix("waking the receiver; it stays up for 10.0s"), "\(wake.output)")
        let awake = try rig.control(within: 10) { $0["asleep"] as? Bool == false }
        #expect(awake != nil)
        let woken = try rig.harness.trackctl(["receiver", "info"]).output
        #expect(woken.contains("woken by trackctl receiver wake"), "\(woken)")
        // The heartbeat after the wake is recorded behind the sleep record, which the log reads.
        let recorded = try rig.harness.waitForStatus(seconds: 10) { json in
            ((json["sampling"] as? [String: Any])?["recorded"] as? Int ?? 0) >= 2
        }
        #expect(recorded != nil)
        rig.harness.stop()
        let verify = try rig.harness.trackctlOffline(["log", "verify", "--log", rig.harness.logDirectory])
        #expect(verify.status == 0, "\(verify.output)")
    }
}
