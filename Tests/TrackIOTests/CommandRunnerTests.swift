import Foundation
import Testing
@testable import TrackIO

// Fence commands as real child processes: argv without a shell, exactly the given environment,
// the limit on running children, failures counted, children reaped by pid.

@Suite struct CommandRunnerTests {
    /// Reaps until `runner` has no child left (bounded: a stuck child fails the test).
    func reapAll(_ runner: inout CommandRunner) {
        for _ in 0..<500 where runner.running > 0 {
            runner.reap()
            if runner.running > 0 { usleep(10_000) }
        }
        #expect(runner.running == 0)
    }

    @Test func runsArgvWithTheGivenEnvironmentOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        var runner = CommandRunner(maximum: 2)
        // "$1" is an argument, not shell text: a quote or a semicolon in it stays literal.
        let outcome = runner.start(["/bin/sh", "-c", "printf '%s|%s|%s|%s' \"$TRACKD_EVENT\" \"$1\" \"$HOME\" \"$(cat)\" > \"$2\"",
                                    "sh", "a'b; rm -rf x", out],
                                   environment: ["TRACKD_EVENT=enter", "PATH=/usr/bin:/bin"])
        guard case .started(let pid) = outcome else {
            Issue.record("not started: \(outcome)")
            return
        }
        #expect(pid > 0)
        reapAll(&runner)
        #expect(runner.lastExitCode == 0)
        // No HOME (nothing inherited); standard input is /dev/null.
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "enter|a'b; rm -rf x||")
    }

    @Test func limitSkipsAndFailuresAreCounted() {
        var runner = CommandRunner(maximum: 1)
        let first = runner.start(["/bin/sleep", "0.2"], environment: [])
        #expect(first != .skipped)
        #expect(runner.start(["/bin/true"], environment: []) == .skipped)
        #expect(runner.skipped == 1)
        reapAll(&runner)
        #expect(runner.start(["/nonexistent/alert"], environment: []) == .failed(.noSuchFile))
        #expect(runner.failedToStart == 1)
        #expect(runner.start(["/bin/false"], environment: []) != .skipped)
        reapAll(&runner)
        #expect(runner.failedExits == 1)
        #expect(runner.lastExitCode == 1)
        #expect(runner.start([], environment: []) == .failed(Errno(rawValue: EINVAL)))
        #expect(CommandRunner(maximum: 0).maximum == 0)
        #expect(CommandRunner(maximum: 1000).maximum == 64)
    }
}
