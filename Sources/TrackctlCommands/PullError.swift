import TrackCore
import TrackIO

/// Why a pull from one host failed; the host's copy keeps what it had before.
enum PullError: Error, Equatable {
    /// The transfer did not verify (cut, changed in transit, not a transfer).
    case transfer(LogTransferError)
    /// `ssh` could not be started.
    case spawn(Errno)
    /// `ssh` (or the remote trackctl) exited with `code` and said `message` (its last line).
    case remote(code: Int32, message: String)
    /// The tracker's log no longer fits the cursor (reset or rewritten); `message` is its word.
    case cursorMismatch(message: String)
    /// A local file could not be read or written.
    case local(path: String, Errno)
    /// The cursor file holds something other than a cursor.
    case badCursorFile(path: String)
    /// The local copy of `segment` is shorter than the cursor says (`offset`): someone changed it.
    case localShorter(segment: UInt64, offset: Int)
    /// The transfer's segment `segment` starts at `offset`, not where the copy ends (`expected`).
    case discontinuous(segment: UInt64, offset: Int, expected: Int)

    /// One line, e.g. "segment 0000000003.tlog offset 1234: chunk CRC mismatch (changed in transit)".
    var description: String {
        switch self {
        case .transfer(let error): return error.description + "; nothing kept"
        case .spawn(let error): return "cannot run ssh: " + error.message
        case .remote(let code, let message):
            return "ssh exited with " + String(code) + (message.isEmpty ? "" : ": " + message)
        case .cursorMismatch(let message): return message
        case .local(let path, let error): return path + ": " + error.message
        case .badCursorFile(let path): return path + ": not a cursor (remove it to pull everything again)"
        case .localShorter(let segment, let offset):
            return LogSegmentName.name(segment) + " here is shorter than the cursor's offset " + String(offset)
                + ": the copy was changed; pull into a new directory"
        case .discontinuous(let segment, let offset, let expected):
            return "the transfer's " + LogSegmentName.name(segment) + " starts at offset " + String(offset)
                + ", the copy ends at " + String(expected) + "; nothing kept"
        }
    }
}
