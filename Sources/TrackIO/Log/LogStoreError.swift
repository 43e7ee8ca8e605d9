/// Why the track log directory could not be read or written; every case names the path.
public enum LogStoreError: Error, Equatable, Sendable {
    /// The directory could not be listed (or created), e.g. ENOENT or EACCES.
    case directoryUnreadable(path: String, Errno)
    /// A step on a segment failed, e.g. `.sync` with EIO.
    case segmentFailed(path: String, step: LogStoreStep, Errno)
    /// Segment numbers ran out (9,999,999,999 segments written).
    case segmentNumbersExhausted(path: String)

    /// One line naming the problem, e.g. "log/0000000003.tlog: fdatasync failed: Input/output error".
    public var description: String {
        switch self {
        case .directoryUnreadable(let path, let errno):
            return path + ": cannot read the log directory: " + errno.message
        case .segmentFailed(let path, let step, let errno):
            return path + ": " + step.name + " failed: " + errno.message
        case .segmentNumbersExhausted(let path):
            return path + ": no segment numbers left"
        }
    }
}

/// A step on a segment file, named in errors, e.g. `.sync`.
public enum LogStoreStep: UInt8, Equatable, Sendable {
    /// Reading it (open, stat, read).
    case read
    /// Creating or opening it for append.
    case open
    /// Cutting its torn tail.
    case truncate
    /// Appending a chunk.
    case write
    /// fdatasync.
    case sync
    /// fsync of the directory after creating or deleting a segment.
    case syncDirectory
    /// Deleting it (quota).
    case remove

    /// The step's name for messages, e.g. "fdatasync".
    public var name: String {
        switch self {
        case .read: "read"
        case .open: "open"
        case .truncate: "truncate"
        case .write: "write"
        case .sync: "fdatasync"
        case .syncDirectory: "directory fsync"
        case .remove: "remove"
        }
    }
}
