import Foundation
import TestData
import Testing
import TrackCore
@testable import TrackIO

@Suite struct ReplaySourceTests {
    // Three epochs: 12:00:00 (three lines), 12:00:01 (two), 12:00:03 (one, two seconds later).
    static let first = [
        sentence("GPRMC,120000.00,A,4807.03800,N,01131.32400,E,0.000,,010524,,,A"),
        sentence("GPGGA,120000.00,4807.03800,N,01131.32400,E,1,08,0.90,545.4,M,47.0,M,,"),
        sentence("GPGSV,1,1,01,04,45,120,40"),
    ].joined()
    static let second = [
        sentence("GPRMC,120001.00,A,4807.03900,N,01131.32400,E,0.000,,010524,,,A"),
        sentence("GPGGA,120001.00,4807.03900,N,01131.32400,E,1,08,0.90,545.4,M,47.0,M,,"),
    ].joined()
    static let third = sentence("GPRMC,120003.00,A,4807.04000,N,01131.32400,E,0.000,,010524,,,A")
    static let capture = "# a capture header, as in gpsd's regression logs\n" + first + "# a comment between epochs\n\n"
        + second + third

    static func withCapture(_ text: String, _ body: (String) throws -> Void) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("capture.nmea")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    @Test func asFastAsPossibleHandsOutEveryLineButComments() throws {
        try Self.withCapture(Self.capture) { path in
            var replay = ReplaySource(path: path)
            try replay.open(now: .at(0))
            var deadline: MonotonicTime?
            let descriptor = replay.descriptor
            #expect(descriptor == nil)
            let bytes = try readBytes(&replay, now: .at(0), capacity: 65_536)
            #expect(String(decoding: bytes, as: UTF8.self) == Self.first + Self.second + Self.third)
            #expect(throws: SourceError.endOfInput(path: path)) { _ = try readBytes(&replay, now: .at(0)) }
            let status = replay.status
            #expect(status == SourceStatus(path: path, isOpen: false, opens: 1, lastError: .endOfInput(path: path)))
            deadline = replay.nextDeadline()
            #expect(deadline == nil)
        }
    }

    @Test(arguments: [1, 7, 64, 100])
    func smallBuffersAndChunksGiveTheSameBytes(size: Int) throws {
        try Self.withCapture(Self.capture) { path in
            // A 256-byte chunk (the smallest) makes lines straddle refills.
            var replay = ReplaySource(path: path, chunkBytes: 1)
            try replay.open(now: .at(0))
            var bytes: [UInt8] = []
            while true {
                do {
                    bytes += try readBytes(&replay, now: .at(0), capacity: size)
                } catch let error as SourceError {
                    #expect(error == .endOfInput(path: path))
                    break
                }
            }
            #expect(String(decoding: bytes, as: UTF8.self) == Self.first + Self.second + Self.third)
        }
    }

    @Test func pacedInRealTimeReleasesOneEpochPerReceiverSecond() throws {
        try Self.withCapture(Self.capture) { path in
            var replay = ReplaySource(path: path, pacing: .receiverTime(speedFactor: 1))
            try replay.open(now: .at(0))
            var deadline: MonotonicTime?
            #expect(String(decoding: try readBytes(&replay, now: .at(0)), as: UTF8.self) == Self.first)
            deadline = replay.nextDeadline()
            #expect(deadline == .at(1000))
            #expect(try readBytes(&replay, now: .at(999)).isEmpty)
            #expect(String(decoding: try readBytes(&replay, now: .at(1000)), as: UTF8.self) == Self.second)
            // The next epoch is two receiver seconds later.
            deadline = replay.nextDeadline()
            #expect(deadline == .at(3000))
            // A late loop gets the epoch as soon as it asks; the schedule does not drift.
            #expect(String(decoding: try readBytes(&replay, now: .at(3040)), as: UTF8.self) == Self.third)
            #expect(throws: SourceError.endOfInput(path: path)) { _ = try readBytes(&replay, now: .at(3040)) }
        }
    }

    @Test func pacedTenTimesFaster() throws {
        try Self.withCapture(Self.capture) { path in
            var replay = ReplaySource(path: path, pacing: .receiverTime(speedFactor: 10))
            try replay.open(now: .at(0))
            var deadline: MonotonicTime?
            _ = try readBytes(&replay, now: .at(0))
            deadline = replay.nextDeadline()
            #expect(deadline == .at(100))
            _ = try readBytes(&replay, now: .at(100))
            deadline = replay.nextDeadline()
            #expect(deadline == .at(300))
        }
    }

    @Test func midnightAndSplicedCapturesKeepAReasonablePace() throws {
        let capture = sentence("GPZDA,235959.00,31,12,2023,00,00") + sentence("GPZDA,000000.00,01,01,2024,00,00")
            + sentence("GPZDA,063000.00,01,01,2024,00,00") + sentence("GPZDA,062959.00,01,01,2024,00,00")
        try Self.withCapture(capture) { path in
            var replay = ReplaySource(path: path, pacing: .receiverTime(speedFactor: 1))
            try replay.open(now: .at(0))
            var deadlines: [MonotonicTime?] = []
            for _ in 0..<3 {
                var now = replay.nextDeadline() ?? .at(0)
                now = max(now, .at(0))
                _ = try readBytes(&replay, now: now)
                deadlines.append(replay.nextDeadline())
            }
            // Across midnight: 1 s. A jump of six hours, and a step back: replayed as 1 s each.
            #expect(deadlines == [.at(1000), .at(2000), .at(3000)])
        }
    }

    @Test func aLastLineWithoutNewlineGetsOne() throws {
        let text = sentence("GPZDA,201530.00,04,07,2002,00,00")
        let unterminated = String(text.dropLast(2))
        try Self.withCapture(unterminated) { path in
            var replay = ReplaySource(path: path)
            try replay.open(now: .at(0))
            #expect(String(decoding: try readBytes(&replay, now: .at(0)), as: UTF8.self) == unterminated + "\n")
        }
    }

    @Test func aMissingCaptureIsAnOpenError() {
        var replay = ReplaySource(path: "/nonexistent/capture.nmea")
        #expect(throws: SourceError.open(path: "/nonexistent/capture.nmea", .noSuchFile)) {
            try replay.open(now: .at(0))
        }
    }
}
