import TrackCore
import TrackIO

/// trackd's lines on standard error, the journal under systemd: `trackd: LINE`. Each service
/// says its own changes once, when they happen (a receiver lost or back, a log that fills, a
/// state file that cannot be saved), from its own state.
enum Journal {
    /// Where the lines go: trackd's standard error. A test running the daemon in its own
    /// process points it at a file of its own to read what was said.
    nonisolated(unsafe) static var output = FileDescriptor.standardError

    /// `trackd: LINE` from a buffer built without the heap (the loop's messages).
    static func say(_ line: inout TextBuffer) {
        var out = TextBuffer()
        out.append("trackd: ")
        line.withBytes { bytes in out.append(bytes: bytes) }
        out.append(UInt8(ascii: "\n"))
        out.withBytes { bytes in
            bytes.withUnsafeBytes { raw in try? output.writeAll(raw) }
        }
    }

    /// `trackd: MESSAGE`, for messages built as strings (rare: start-up, a reload).
    static func say(_ message: String) {
        try? output.writeAll("trackd: " + message + "\n")
    }
}
