import CLinux
import Foundation
import TrackCore
@testable import TrackIO

/// `$BODY*hh\r\n` with the right checksum.
func sentence(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(sum, radix: 16, uppercase: true)
    return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n"
}

extension MonotonicTime {
    /// Test times: `.at(1500)` is 1.5 s after an arbitrary start.
    static func at(_ milliseconds: Int64) -> MonotonicTime { .milliseconds(10_000 + milliseconds) }
}

/// Writes `bytes` to `descriptor`, failing the test on a short write.
func write(_ bytes: [UInt8], to descriptor: FileDescriptor) throws {
    try bytes.withUnsafeBytes { raw in try descriptor.writeAll(raw) }
}

/// Waits (polling, at most 2 s) until `descriptor` has at least `count` bytes queued: a pty
/// hands bytes from master to slave asynchronously.
func waitForQueued(_ count: Int, on descriptor: FileDescriptor) {
    for _ in 0..<200 {
        if clinux_bytes_readable(descriptor.rawValue) >= count { return }
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 10)
    }
}

/// Waits (at most 2 s) until `descriptor` reports input, a hang-up or an error.
func waitReadable(_ descriptor: FileDescriptor) -> Bool {
    var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 2000) == 1
}

/// Reads from `source` at `now` into a fresh 4 KiB buffer; returns the bytes.
func readBytes<Source: ReceiverSource & ~Copyable>(
    _ source: inout Source, now: MonotonicTime, capacity: Int = 4096
) throws(SourceError) -> [UInt8] {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    let count = try source.read(into: buffer, now: now)
    return Array(buffer[0..<count])
}
