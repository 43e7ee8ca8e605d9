import TrackCore
import TrackIO

/// Why `trackctl log send` stopped: the cursor does not fit the log, or standard output failed.
enum LogSendError: Error, Equatable {
    /// Every segment is older than the cursor's (`newest`, nil for an empty log): the log was
    /// reset (a new card, a wiped directory) since the pull that made the cursor.
    case reset(newest: UInt64?, cursor: LogCursor)
    /// The cursor's segment holds no chunk ending at its offset with its CRC: rewritten.
    case rewritten(cursor: LogCursor)
    /// Writing the transfer failed.
    case output(Errno)

    /// True for the cases that mean the cursor does not fit (exit 3).
    var isMismatch: Bool {
        if case .output = self { return false }
        return true
    }

    /// One line, e.g. "the log was reset: its newest segment is 0000000002.tlog, the cursor is
    /// in 0000000017.tlog; pull into a new directory".
    var description: String {
        switch self {
        case .reset(let newest, let cursor):
            return "the log was reset: its newest segment is " + (newest.map { LogSegmentName.name($0) } ?? "none")
                + ", the cursor is in " + LogSegmentName.name(cursor.segment) + "; pull into a new directory"
        case .rewritten(let cursor):
            return LogSegmentName.name(cursor.segment) + " has no chunk ending at offset " + String(cursor.offset)
                + " with the cursor's CRC: the log was rewritten since the last pull; pull into a new directory"
        case .output(let error):
            return "standard output: " + error.message
        }
    }
}
