import CLinux

/// The file operations a `StateFile` needs, so tests can swap in a fake disk that loses power,
/// e.g. `PosixStateFileStorage()` on the device.
public protocol StateFileStorage {
    /// An open file being written.
    associatedtype Handle
    /// The whole content of `path`; ENOENT when there is none.
    mutating func readAll(_ path: String) throws(Errno) -> [UInt8]
    /// Creates `path` empty for writing (truncating one that exists).
    mutating func create(_ path: String) throws(Errno) -> Handle
    /// Writes all of `bytes` at the end of `handle`.
    mutating func write(_ bytes: [UInt8], to handle: Handle) throws(Errno)
    /// Makes the content of `handle` durable (fsync).
    mutating func sync(_ handle: Handle) throws(Errno)
    /// Closes `handle`.
    mutating func close(_ handle: Handle) throws(Errno)
    /// Replaces `destination` by `source` in one step (rename(2)).
    mutating func rename(_ source: String, to destination: String) throws(Errno)
    /// Makes the directory's entries durable (fsync on the directory), e.g. after a rename.
    mutating func syncDirectory(_ path: String) throws(Errno)
}

/// The real file layer: open/write/fsync/close/rename over `FileDescriptor`.
public struct PosixStateFileStorage: StateFileStorage {
    /// The layer; it holds nothing.
    public init() {}

    /// The whole file, at most 64 KiB (a state file is 40 bytes).
    public mutating func readAll(_ path: String) throws(Errno) -> [UInt8] {
        try FileDescriptor.readWholeFile(path, limit: 65_536)
    }

    /// Opens `path` write-only, created 0640 or truncated, close-on-exec.
    public mutating func create(_ path: String) throws(Errno) -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        let fd = try syscall { path.withCString { clinux_open($0, flags, 0o640) } }
        return FileDescriptor(rawValue: fd)
    }

    /// write(2) until all of `bytes` is written.
    public mutating func write(_ bytes: [UInt8], to handle: FileDescriptor) throws(Errno) {
        var failure: Errno?
        bytes.withUnsafeBytes { buffer in
            do throws(Errno) { try handle.writeAll(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// fsync(2); an error is returned, never retried (the page cache may have dropped the data).
    public mutating func sync(_ handle: FileDescriptor) throws(Errno) {
        _ = try syscall(retryOnInterrupt: false) { fsync(handle.rawValue) }
    }

    /// close(2).
    public mutating func close(_ handle: FileDescriptor) throws(Errno) {
        try handle.close()
    }

    /// rename(2).
    public mutating func rename(_ source: String, to destination: String) throws(Errno) {
        _ = try syscall {
            source.withCString { from in destination.withCString { to in CLinux.rename(from, to) } }
        }
    }

    /// Opens the directory read-only and fsyncs it, so a rename in it survives a power cut.
    public mutating func syncDirectory(_ path: String) throws(Errno) {
        let fd = try syscall { path.withCString { clinux_open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) } }
        let directory = FileDescriptor(rawValue: fd)
        defer { try? directory.close() }
        _ = try syscall(retryOnInterrupt: false) { fsync(fd) }
    }
}
