import Foundation
import Glibc
import TestData
import Testing

/// Runs the real `trackd` binary on a pseudo-terminal and the real `trackctl` against it.
/// The binaries come from the package's debug build (scripts/test builds them first).
final class DaemonHarness {
    static let root = TestData.repository

    let directory: URL
    let master: Int32
    let slavePath: String
    var socketPath: String { directory.appendingPathComponent("control.sock").path }
    var configPath: String { directory.appendingPathComponent("trackd.conf").path }
    /// The track log's directory (created by trackd; set it before `writeConfig` to move it).
    var logDirectory: String
    /// The state file (set it before `writeConfig` to move it).
    var stateFile: String
    var daemon: Process?
    var output = Pipe()
    /// The `[receiver]` keys besides device and reopen delays. By default a fixed 9600 baud and
    /// `type = none`: a capture fed through the pty is a recording, which answers nothing.
    let receiverKeys: String

    /// A fresh directory and pty; the config names the pty's slave as the receiver device
    /// unless `device` says otherwise.
    init(device: String? = nil, extraConfig: String = "", receiver: String = "baud = 9600\ntype = none") throws {
        receiverKeys = receiver
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-it-\(UUID().uuidString)")
        logDirectory = directory.appendingPathComponent("log").path
        stateFile = directory.appendingPathComponent("state").path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(.EIO) }
        self.master = master
        slavePath = String(cString: ttyname(slave))
        // Keep the slave open here too, so the pty survives trackd reopening it.
        _ = slave
        try writeConfig(device: device ?? slavePath, extra: extraConfig)
    }

    deinit {
        stop()
        close(master)
        try? FileManager.default.removeItem(at: directory)
    }

    func writeConfig(device: String, extra: String = "") throws {
        // No NTP shared memory: the units are the machine's (chrony's, gpsd's), and these
        // receivers' times are not the real ones.
        let text = """
            [time]
            shm = off

            [receiver]
            device = \(device)
            \(receiverKeys)
            reopen-min = 100ms
            reopen-max = 1s

            [control]
            socket = \(socketPath)

            [state]
            file = \(stateFile)

            \(extra.contains("[gpsd]") ? "" : "[gpsd]\nlisten =\n")
            [log]
            directory = \(logDirectory)
            sync-interval = 1s
            \(extra)
            """
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    static func binary(_ name: String) -> String {
        root.appendingPathComponent(".build/debug/\(name)").path
    }

    func start(environment: [String: String] = [:]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary("trackd")) else {
            Issue.record("no \(Self.binary("trackd")): run `swift build` before `swift test`")
            throw POSIXError(.ENOENT)
        }
        let process = Process()
        output = Pipe()
        process.executableURL = URL(fileURLWithPath: Self.binary("trackd"))
        process.arguments = ["--config", configPath]
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        daemon = process
        // Wait for the control socket (a loaded machine can take seconds to start a debug build).
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: socketPath) { usleep(10_000) }
    }

    /// Where `replay` sends trackd's standard error.
    var replayErrorsPath: String { directory.appendingPathComponent("trackd.err").path }

    /// Starts trackd on the harness's config replaying `bytes` from a file in receiver time,
    /// `speed` times faster (no pty in the way: nothing lost under load), standard error to
    /// `replayErrorsPath`; returns once the control socket is there. The caller stops it.
    func replay(_ bytes: [UInt8], speed: Int) throws -> Process {
        let file = directory.appendingPathComponent("replay.nmea")
        try Data(bytes).write(to: file)
        _ = FileManager.default.createFile(atPath: replayErrorsPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary("trackd"))
        process.arguments = ["--config", configPath, "--replay", file.path, "--speed", String(speed)]
        process.standardError = FileHandle(forWritingAtPath: replayErrorsPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: socketPath) { usleep(10_000) }
        return process
    }

    /// What a `replay` trackd has written to standard error so far.
    var replayErrors: String { (try? String(contentsOfFile: replayErrorsPath, encoding: .utf8)) ?? "" }

    func stop() {
        guard let daemon, daemon.isRunning else { return }
        daemon.terminate()
        daemon.waitUntilExit()
    }

    /// Writes `bytes` to the receiver side of the pty in pieces, as a UART would deliver them.
    func feed(_ bytes: [UInt8], chunk: Int = 512, pauseMicroseconds: UInt32 = 2_000) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            bytes[offset..<end].withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let wrote = write(master, raw.baseAddress! + done, raw.count - done)
                    if wrote > 0 { done += wrote } else { usleep(1_000) }
                }
            }
            offset = end
            usleep(pauseMicroseconds)
        }
    }

    /// A capture from gpsd's regression suite without its comment lines; a test that reads
    /// one is `.needsShared("gpsd-regress")`, so a missing one is a failure.
    static func capture(_ name: String) throws -> [UInt8] {
        let data = try Data(contentsOf: TestData.sharedRoot.appendingPathComponent("gpsd-regress/\(name)"))
        // Bytes, not a String: as Characters, "\r\n" is one and never equals "\n", so a CRLF
        // capture would be one line, dropped as a comment.
        let lines = [UInt8](data).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .filter { $0.first != UInt8(ascii: "#") }
        return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    /// Runs `trackctl ARGS --socket …`; returns exit code and standard output.
    func trackctl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary("trackctl"))
        process.arguments = arguments + ["--socket", socketPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs `trackctl ARGS` without a socket option (e.g. `log list --log DIR`).
    func trackctlOffline(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary("trackctl"))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Polls `condition` on `trackctl status --json` until it holds or `seconds` pass.
    func waitForStatus(seconds: Double = 5, _ condition: ([String: Any]) -> Bool) throws -> [String: Any]? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let reply = try trackctl(["status", "--json"])
            if reply.status == 0, let data = reply.output.data(using: .utf8),
               let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], condition(json) {
                return json
            }
            usleep(50_000)
        }
        return nil
    }

    var daemonOutput: String {
        String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    }
}
