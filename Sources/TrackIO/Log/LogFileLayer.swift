/// The file operations the track log needs, so tests can swap in a disk that loses power at
/// any step; `PosixLogFiles()` on the device.
///
/// Paths are full paths, e.g. "/var/lib/trackd/log/0000000001.tlog". Every call reports a
/// failure as the errno it got; none retries a failed sync.
public protocol LogFileLayer {
    /// A file open for appending.
    associatedtype Handle
    /// The names (not paths) of the entries of `directory`, in no particular order, without
    /// "." and "..". ENOENT when it does not exist.
    mutating func names(in directory: String) throws(Errno) -> [String]
    /// The whole content of `path`.
    mutating func readAll(_ path: String) throws(Errno) -> [UInt8]
    /// The size of `path` in bytes.
    mutating func byteCount(of path: String) throws(Errno) -> Int
    /// Creates `directory` (mode 0750); an existing one is fine.
    mutating func makeDirectory(_ directory: String) throws(Errno)
    /// Opens `path` for appending, creating it empty when missing.
    mutating func openForAppend(_ path: String) throws(Errno) -> Handle
    /// Cuts `path` to its first `byteCount` bytes (a torn tail).
    mutating func truncate(_ path: String, to byteCount: Int) throws(Errno)
    /// Appends all of `bytes` to `handle`.
    mutating func write(_ bytes: Span<UInt8>, to handle: Handle) throws(Errno)
    /// Makes what was written to `handle` durable (fdatasync(2)); never retried by a caller.
    mutating func sync(_ handle: Handle) throws(Errno)
    /// Closes `handle`.
    mutating func close(_ handle: Handle) throws(Errno)
    /// Deletes `path`.
    mutating func remove(_ path: String) throws(Errno)
    /// Makes `directory`'s entries durable (fsync on the directory), e.g. a new segment's name.
    mutating func syncDirectory(_ directory: String) throws(Errno)
    /// Bytes still free for this process on the file system of `directory`.
    mutating func availableBytes(in directory: String) throws(Errno) -> Int
}
