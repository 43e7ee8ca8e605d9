import Foundation
import Glibc
import Testing
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// The track log on a small file system of its own (a tmpfs the test mounts, so it needs
/// root) while the daemon, in-process on the test's clock, logs the demo drive at 10 Hz:
/// another program fills the file system, then frees it; then it is remounted read-only, then
/// writable again. Nothing synced may be lost, nothing deleted, the fixes not written counted;
/// status, doctor and the journal must say what happened, and logging must resume by itself.
/// The state file is on the same file system, as on a card: its failed save must not hide the
/// log's trouble from doctor.
@Suite("storage trouble: a full and a read-only file system under the daemon", .serialized,
       .enabled(if: SmallFileSystem.canMount, "mounting a small file system for the log needs root"))
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

    /// The demo drive at 10 epochs a second with 3 m of noise (a smooth simulated line packs
    /// into half a byte a fix), from the real simulator.
    static func drive() throws -> ScriptedSource {
        let gpx = try Data(contentsOf: DaemonLoopTests.root.appendingPathComponent("board/demo-route.gpx"))
        var simulator = try NMEASimulator(track: GPXTrack(parsing: [UInt8](gpx)),
                                          configuration: NMEASimulator.Configuration(rateHertz: 10, noiseMetres: 3, seed: 3))
        var chunks: [ScriptedSource.Chunk] = []
        var tenth: Int64 = 0
        while !simulator.isFinished {
            var epoch = TextBuffer()
            guard simulator.writeEpoch(to: &epoch) else { break }
            chunks.append(ScriptedSource.Chunk(atMilliseconds: 1_000 + tenth * 100, bytes: Array(epoch.string.utf8)))
            tenth += 1
        }
        return ScriptedSource(chunks)
    }

    /// The synced fixes' times in the log, in order.
    static func fixTimes(_ directory: String) throws -> [Int64] {
        var reader = try LogReader(directory: directory, files: PosixLogFiles())
        return reader.readAll().compactMap { if case .fix(let fix) = $0 { fix.time.millisecondsSinceEpoch } else { nil } }
    }

    static func log(_ json: [String: Any]) -> [String: Any] { json["log"] as? [String: Any] ?? [:] }

    static func status(_ harness: InProcessDaemon) throws -> [String: Any] {
        let reply = try harness.ask("status json")
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.dropFirst(3).utf8)) as? [String: Any])
    }

    /// Steps the daemon a second at a time (up to `seconds` of its clock) until `condition`
    /// holds for its status.
    static func run(_ harness: InProcessDaemon, seconds: Int64, until condition: ([String: Any]) -> Bool) throws -> [String: Any]? {
        let end = harness.nowMilliseconds + seconds * 1_000
        while harness.nowMilliseconds < end {
            harness.run(until: harness.nowMilliseconds + 1_000)
            let json = try status(harness)
            if condition(json) { return json }
        }
        return nil
    }

    @Test("full, then freed; read-only, then writable: every synced fix kept, logging resumes by itself")
    func fullThenFreedThenReadOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-storage-\(UUID().uuidString)")
        let mount = directory.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try #require(Self.run(["/bin/mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount.path]) == 0)
        defer {
            _ = Self.run(["/bin/umount", "-l", mount.path])
            try? FileManager.default.removeItem(at: directory)
        }
        let logDirectory = mount.appendingPathComponent("log").path
        let journal = try JournalCapture()
        // 4 KiB segments: a tmpfs gives ENOSPC only when a write needs a new page, so small
        // segments meet the full disk within a sync of it filling. Each fix recorded.
        let configure: (inout TrackdConfig) -> Void = { config in
            config.log.directory = logDirectory
            config.log.segmentSizeBytes = 4096
            config.state.file = mount.appendingPathComponent("state").path
            config.sampling.minPeriodMilliseconds = 100
        }
        var harness = try InProcessDaemon(try Self.drive(), configure: configure, parts: [.controlSocket])

        // 1. Another program fills the partition, far below trackd's quota; then frees it.
        _ = try #require(try Self.run(harness, seconds: 30) { (Self.log($0)["records"] as? Int ?? 0) > 50 }, "nothing logged")
        let filler = mount.appendingPathComponent("filler").path
        _ = Self.run(["/bin/dd", "if=/dev/zero", "of=\(filler)", "bs=4k"])
        // A segment's last page was allocated before the filler came: the next segment finds
        // the file system full (4 KiB at ~4.5 bytes a fix: up to 90 s of the 10 Hz drive).
        let blocked = try #require(try Self.run(harness, seconds: 300) { Self.log($0)["blocked"] as? String == "full" },
                                   "the log never said it was full")
        #expect(Self.log(blocked)["storageError"] as? Bool == true)
        #expect(Self.log(blocked)["deletedForQuota"] as? Int == 0)
        let keptWhileFull = try Self.fixTimes(logDirectory)
        #expect(keptWhileFull.count > 50)
        let text = try harness.ask("status")
        #expect(text.contains("not writing: the file system is full (tmpfs (tmpfs) mounted at \(mount.path)"), "\(text)")
        let doctor = try harness.ask("doctor")
        #expect(doctor.contains("error storage: nothing is written to the track log"), "\(doctor)")
        #expect(doctor.contains("nothing is deleted for it"), "\(doctor)")
        #expect(!doctor.contains("check the card"), "\(doctor)")
        harness.run(until: harness.nowMilliseconds + 2_000)
        // Freed: logging resumes with nobody touching trackd.
        try FileManager.default.removeItem(atPath: filler)
        let resumed = try #require(try Self.run(harness, seconds: 10) {
            Self.log($0)["blocked"] == nil && (Self.log($0)["storageError"] as? Bool) == false
        }, "logging did not resume")
        #expect(Self.log(resumed)["fixesNotWritten"] as? Int ?? 0 > 0, "the fixes not written while full are counted")
        harness.run(until: harness.nowMilliseconds + 1_500)
        let afterOutage = try Self.fixTimes(logDirectory)
        #expect(afterOutage.count > keptWhileFull.count)
        #expect(Array(afterOutage.prefix(keptWhileFull.count)) == keptWhileFull, "a fix synced before the disk filled is gone")

        // 2. A read-only file system (as ext4 goes after an I/O error) when trackd starts, then
        // writable again. (A file system with a file open for writing cannot be remounted
        // read-only: the first daemon stops.)
        _ = try harness.stopAndReadLog()
        #expect(Self.run(["/bin/mount", "-o", "remount,ro", mount.path]) == 0)
        harness = try InProcessDaemon(try Self.drive(), configure: configure, parts: [.controlSocket])
        _ = try #require(try Self.run(harness, seconds: 10) { Self.log($0)["blocked"] as? String == "read-only" },
                         "the log never said it was read-only")
        // A permission change saves the state file, on the same read-only file system: that
        // fails too, and doctor must still name the log's file system, the thing to fix.
        #expect(try harness.ask("privacy approximate").hasPrefix("ok"))
        _ = try #require(try Self.run(harness, seconds: 5) {
            (($0["permission"] as? [String: Any])?["stateProblem"] as? String)?.contains("Read-only file system") == true
        }, "the state file's save did not fail on the read-only file system")
        let advice = try harness.ask("doctor")
        #expect(advice.contains("the file system is read-only"), "\(advice)")
        #expect(!advice.contains("check the card"), "\(advice)")
        harness.run(until: harness.nowMilliseconds + 2_000)
        #expect(Self.run(["/bin/mount", "-o", "remount,rw", mount.path]) == 0)
        _ = try #require(try Self.run(harness, seconds: 10) {
            Self.log($0)["blocked"] == nil && (Self.log($0)["storageError"] as? Bool) == false
        }, "logging did not resume after the remount")
        harness.run(until: harness.nowMilliseconds + 1_500)
        let said = journal.finish()
        #expect(said.contains("the file system is full"), "\(said)")
        #expect(said.contains("writable again, logging resumed"), "\(said)")
        #expect(said.contains("the file system is read-only"), "\(said)")
        #expect(!said.contains("deleted the oldest segment"), "\(said)")

        // Every fix synced before is still there, in order, and the log reads without damage.
        let (_, problems) = try harness.stopAndReadLog()
        #expect(problems.isEmpty, "\(problems)")
        let final = try Self.fixTimes(logDirectory)
        #expect(Array(final.prefix(afterOutage.count)) == afterOutage)
        #expect(final.count > afterOutage.count)
    }
}

/// What the daemon says in its journal, into a file of the test's own until `finish`.
final class JournalCapture {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-journal-\(UUID().uuidString)").path
    var done = false

    init() throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        guard fd >= 0 else { throw InProcessDaemon.SocketError.connect(errno) }
        Journal.output = FileDescriptor(rawValue: fd)
    }

    /// Points the journal at standard error again and returns what was said.
    func finish() -> String {
        if !done {
            try? Journal.output.close()
            Journal.output = .standardError
            done = true
        }
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    deinit {
        _ = finish()
        unlink(path)
    }
}

/// A small file system of the test's own.
enum SmallFileSystem {
    /// Whether this process may mount a tmpfs (root, and a kernel that lets it).
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-mount-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard StorageTroubleTests.run(["/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path]) == 0 else { return false }
        return StorageTroubleTests.run(["/bin/umount", probe.path]) == 0
    }()
}
