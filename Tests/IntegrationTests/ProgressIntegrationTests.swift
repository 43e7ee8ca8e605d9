import Foundation
import Glibc
import Testing

/// Progress of long trackctl work (`log import`, `log export`, `fence compile`) as a person
/// sees it: redrawn in place on standard error when that is a terminal (a pseudo-terminal
/// here, 100 columns), taken away before the result; nothing of it through a pipe, and the
/// same standard output either way.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: DaemonHarness.binary("trackctl")),
                "needs the debug build's trackctl (swift build)"))
struct ProgressIntegrationTests {
    /// What a run of trackctl left: standard output (through a file), and standard error as
    /// the terminal received it or as a pipe did.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func trackctl(_ arguments: [String], terminal: Bool, in directory: URL) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.binary("trackctl"))
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let outputURL = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        var errors = Data()
        if terminal {
            var master: Int32 = -1
            var slave: Int32 = -1
            var size = winsize(ws_row: 24, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
            guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.EIO) }
            process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
            try process.run()
            close(slave)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            // Until every holder of the terminal closed it (EIO), as a terminal emulator reads.
            while true {
                let got = read(master, &buffer, buffer.count)
                if got <= 0 { break }
                errors.append(contentsOf: buffer[0..<got])
            }
            close(master)
        } else {
            let pipe = Pipe()
            process.standardError = pipe
            try process.run()
            errors = pipe.fileHandleForReading.readDataToEndOfFile()
        }
        process.waitUntilExit()
        try output.close()
        let written = try String(contentsOf: outputURL, encoding: .utf8)
        try FileManager.default.removeItem(at: outputURL)
        return Run(status: process.terminationStatus, output: written, errors: String(decoding: errors, as: UTF8.self))
    }

    /// Runs `arguments` on a terminal and through a pipe (each in a fresh copy of what
    /// `prepare` makes): both succeed with the same output; the terminal saw every one of
    /// `progress` drawn in place and cleared at the end; the pipe got no escape or carriage return.
    func check(_ arguments: [String], progress: [String], prepare: (URL) throws -> Void = { _ in }) throws {
        var outputs: [String] = []
        for terminal in [true, false] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-progress-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try prepare(directory)
            let run = try Self.trackctl(arguments, terminal: terminal, in: directory)
            #expect(run.status == 0, "\(arguments) exit \(run.status): \(run.errors)")
            outputs.append(run.output)
            if terminal {
                for line in progress {
                    #expect(run.errors.contains(line), "no progress line '\(line)' on the terminal: \(run.errors.debugDescription)")
                }
                #expect(run.errors.contains("\u{1B}[K\r"), "the progress is not redrawn in place: \(run.errors.debugDescription)")
                // The last redraw returns to the line's start and clears it.
                #expect(run.errors.contains("\r\u{1B}[J"), "progress left on the terminal: \(run.errors.debugDescription)")
            } else {
                #expect(!run.errors.contains("\u{1B}") && !run.errors.contains("\r"), "progress through a pipe: \(run.errors.debugDescription)")
                for line in progress { #expect(!run.errors.contains(line)) }
            }
        }
        #expect(outputs[0] == outputs[1], "standard output changed with a terminal on standard error")
    }

    /// A day's drive at 1 Hz from 00:00 UTC, `count` fixes, in the shared tracks' CSV layout.
    static func track(_ count: Int) -> String {
        var text = "time_utc,lat,lon,ele_m,speed_mps\n"
        for second in 0..<count {
            let time = String(format: "2026-06-01T%02d:%02d:%02dZ", second / 3600, second / 60 % 60, second % 60)
            text += time + String(format: ",%.7f,%.7f,%.1f,5.00\n", 48.5 + Double(second) * 0.00004, 9.05 + Double(second) * 0.00003, 320.0)
        }
        return text
    }

    @Test("log import: reading, parsing and records written on a terminal, nothing through a pipe")
    func logImport() throws {
        try check(["log", "import", "week.csv", "--to", "log"],
                  progress: ["log import: reading week.csv", "log import: parsing week.csv (0.2 MB)",
                             "log import: 1 of 4,000 records into log"]) { directory in
            try Self.track(4000).write(to: directory.appendingPathComponent("week.csv"), atomically: true, encoding: .utf8)
        }
    }

    @Test("log export: segments and records read on a terminal, nothing through a pipe")
    func logExport() throws {
        try check(["log", "export", "--format", "csv", "--log", "log"],
                  progress: ["log export: segment 1 of 1, 256 records"]) { directory in
            try Self.track(3000).write(to: directory.appendingPathComponent("day.csv"), atomically: true, encoding: .utf8)
            let run = try Self.trackctl(["log", "import", "day.csv", "--to", "log"], terminal: false, in: directory)
            try #require(run.status == 0, "import: \(run.errors)")
        }
    }

    @Test("fence compile: reading (bytes of the file's size) and writing on a terminal, nothing through a pipe")
    func fenceCompile() throws {
        var features: [String] = []
        for index in 0..<500 {
            let longitude = 9.0 + Double(index) * 0.01
            features.append("""
                {"type":"Feature","properties":{"id":"f\(index)","radius":100},"geometry":{"type":"Point","coordinates":[\(longitude),48.5]}}
                """)
        }
        let file = "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
        try check(["fence", "compile", "--config", "/dev/null", "fences.geojson", "fences.image"],
                  progress: ["fence compile: reading fences.geojson, 0.1 of 0.1 MB (100%)",
                             "fence compile: writing fences.image (500 fences)"]) { directory in
            try file.write(to: directory.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        }
    }
}
