import Foundation
import Glibc
import Testing

/// The track log on a small file system of its own (a tmpfs the test mounts, so it needs root)
/// while the real trackd logs the demo drive: another program fills it, then frees it; then it
/// is remounted read-only, then writable again. Nothing synced may be lost, nothing deleted,
/// the fixes not written counted, status, doctor and the journal must say what happened, and
/// logging must resume by itself. The state file is on the same file system, as on a card: its
/// failed save must not hide the log's trouble from doctor.
@Suite("storage trouble: a full and a read-only file system under the real trackd", .serialized)
struct StorageTroubleTests {
    static func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The fixes of an export of `log` as `time` strings, in order.
    static func fixTimes(_ harness: DaemonHarness) throws -> [String] {
        let export = try harness.trackctlOffline(["log", "export", "--format", "csv", "--log", harness.logDirectory])
        return export.output.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: ",").first.map(String.init)
        }.filter { $0.hasPrefix("20") }
    }

    static func log(_ json: [String: Any]) -> [String: Any] { json["log"] as? [String: Any] ?? [:] }

    /// The demo drive at 10 epochs a second with 3 m of noise (a smooth simulated line packs
    /// into half a byte a fix), each fix recorded (`min-period = 100ms`), in 4 KiB segments: a
    /// tmpfs gives ENOSPC only when a write needs a new page, so small segments make the writer
    /// meet the full disk within seconds of it filling.
    static func drive() throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackctl"))
        process.arguments = ["simulate", DaemonHarness.root.appendingPathComponent("board/demo-route.gpx").path,
                             "--stdout", "--seed", "3", "--rate", "10", "--noise", "3"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// Whether this process may mount a tmpfs: root, and a kernel and container that allow it
    /// (tried once on a folder of its own).
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-mount-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard run(["/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path]) == 0 else { return false }
        return run(["/bin/umount", probe.path]) == 0
    }()

    @Test("full, then freed; read-only, then writable: every synced fix kept, logging resumes by itself",
          .enabled(if: canMount, "mounting a small file system for the log needs root and a tmpfs mount allowed here"))
    func fullThenFreedThenReadOnly() throws {
        let drive = try Self.drive()
        let harness = try DaemonHarness()
        let mount = harness.directory.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try #require(Self.run(["/bin/mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount.path]) == 0, "mount a tmpfs")
        defer { _ = Self.run(["/bin/umount", "-l", mount.path]) }
        let logDirectory = mount.appendingPathComponent("log").path
        harness.logDirectory = logDirectory
        harness.stateFile = mount.appendingPathComponent("state").path
        try harness.writeConfig(device: harness.slavePath, extra: "segment-size = 4K\n[sampling]\nmin-period = 100ms\n")
        try harness.start()
        #expect(try harness.trackctl(["privacy", "allow", "always"]).status == 0)
        harness.stop()

        // 1. Another program fills the partition, far below trackd's quota; then frees it.
        var replay = try harness.replay(drive, speed: 10)
        defer {
            if replay.isRunning {
                replay.terminate()
                replay.waitUntilExit()
            }
        }
        let logging = try harness.waitForStatus(seconds: 30) { json in (Self.log(json)["records"] as? Int ?? 0) > 50 }
        #expect(logging != nil, "trackd logged nothing: \(harness.replayErrors)")
        let filler = mount.appendingPathComponent("filler").path
        _ = Self.run(["/bin/dd", "if=/dev/zero", "of=\(filler)", "bs=4k"])
        let full = try harness.waitForStatus(seconds: 30) { json in Self.log(json)["blocked"] as? String == "full" }
        let blocked = try #require(full, "the log never said it was full: \(harness.replayErrors)")
        #expect(Self.log(blocked)["storageError"] as? Bool == true)
        #expect(Self.log(blocked)["deletedForQuota"] as? Int == 0)
        let keptWhileFull = try Self.fixTimes(harness)
        #expect(keptWhileFull.count > 50)
        let text = try harness.trackctl(["status"]).output
        #expect(text.contains("not writing: the file system is full (tmpfs (tmpfs) mounted at \(mount.path)"), "\(text)")
        let doctor = try harness.trackctl(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.output.contains("error storage: nothing is written to the track log"), "\(doctor.output)")
        #expect(doctor.output.contains("nothing is deleted for it"), "\(doctor.output)")
        #expect(!doctor.output.contains("check the card"), "\(doctor.output)")
        usleep(2_000_000)
        // Freed: logging resumes with nobody touching trackd.
        try FileManager.default.removeItem(atPath: filler)
        let resumed = try harness.waitForStatus(seconds: 10) { json in
            Self.log(json)["blocked"] == nil && (Self.log(json)["storageError"] as? Bool) == false
        }
        let afterFull = try #require(resumed, "logging did not resume: \(harness.replayErrors)")
        #expect(Self.log(afterFull)["fixesNotWritten"] as? Int ?? 0 > 0, "the fixes not written while full are counted")
        usleep(1_500_000)
        replay.terminate()
        replay.waitUntilExit()
        let journal = harness.replayErrors
        #expect(journal.contains("the file system is full"), "\(journal)")
        #expect(journal.contains("writable again, logging resumed"), "\(journal)")
        #expect(!journal.contains("deleted the oldest segment"), "\(journal)")
        let afterOutage = try Self.fixTimes(harness)
        #expect(afterOutage.count > keptWhileFull.count)
        #expect(Array(afterOutage.prefix(keptWhileFull.count)) == keptWhileFull, "a fix synced before the disk filled is gone")

        // 2. A read-only file system (as ext4 goes after an I/O error) when trackd starts, then
        // writable again.
        #expect(Self.run(["/bin/mount", "-o", "remount,ro", mount.path]) == 0)
        replay = try harness.replay(drive, speed: 10)
        let readOnly = try harness.waitForStatus(seconds: 10) { json in Self.log(json)["blocked"] as? String == "read-only" }
        #expect(readOnly != nil, "the log never said it was read-only: \(harness.replayErrors)")
        // A permission change saves the state file, on the same read-only file system: that
        // fails too, and doctor must still name the log's file system, the thing to fix.
        let approximate = try harness.trackctl(["privacy", "approximate"])
        #expect(approximate.status == 0, "\(approximate.output)")
        let stateFailed = try harness.waitForStatus(seconds: 5) { json in
            ((json["permission"] as? [String: Any])?["stateProblem"] as? String)?.contains("Read-only file system") == true
        }
        #expect(stateFailed != nil, "the state file's save did not fail on the read-only file system")
        let advice = try harness.trackctl(["doctor"]).output
        #expect(advice.contains("the file system is read-only"), "\(advice)")
        #expect(!advice.contains("check the card"), "\(advice)")
        usleep(2_000_000)
        #expect(Self.run(["/bin/mount", "-o", "remount,rw", mount.path]) == 0)
        let writable = try harness.waitForStatus(seconds: 10) { json in
            Self.log(json)["blocked"] == nil && (Self.log(json)["storageError"] as? Bool) == false
        }
        #expect(writable != nil, "logging did not resume after the remount: \(harness.replayErrors)")
        usleep(1_500_000)
        replay.terminate()
        replay.waitUntilExit()
        #expect(harness.replayErrors.contains("the file system is read-only"), "\(harness.replayErrors)")

        // Every fix synced before is still there, in order, and the log reads without damage.
        let final = try Self.fixTimes(harness)
        #expect(Array(final.prefix(afterOutage.count)) == afterOutage)
        #expect(final.count > afterOutage.count)
        let verify = try harness.trackctlOffline(["log", "verify", "--log", logDirectory])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(verify.output.contains("; 0 problems"), "\(verify.output)")
    }
}
