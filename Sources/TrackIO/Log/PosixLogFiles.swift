import CLinux
import TrackCore

/// The real file layer of the track log: open/write/fdatasync/ftruncate/unlink over
/// `FileDescriptor`, e.g. `LogReader(directory: "/var/lib/trackd/log", files: PosixLogFiles())`.
public struct PosixLogFiles: LogFileLayer {
    /// The layer; it holds nothing.
    public init() {}

    /// readdir(3) over `directory`, without "." and "..".
    public mutating func names(in directory: String) throws(Errno) -> [String] {
        guard let handle = directory.withCString({ opendir($0) }) else { throw Errno.current }
        defer { closedir(handle) }
        var names: [String] = []
        while true {
            clinux_set_errno(0)
            guard let entry = readdir(handle) else {
                let error = Errno.current
                if error.rawValue != 0 { throw error }
                return names
            }
            let name = String(cString: clinux_dirent_name(entry))
            if !name.bytesEqual(".") && !name.bytesEqual("..") { names.append(name) }
        }
    }

    /// The whole file, at most 64 MiB (EFBIG beyond: a segment is far smaller).
    public mutating func readAll(_ path: String) throws(Errno) -> [UInt8] {
        try FileDescriptor.readWholeFile(path)
    }

    /// stat(2)'s size.
    public mutating func byteCount(of path: String) throws(Errno) -> Int {
        Int(try syscall { path.withCString { clinux_file_size($0) } })
    }

    /// mkdir(2) with mode 0750; EEXIST is not an error.
    public mutating func makeDirectory(_ directory: String) throws(Errno) {
        do {
            _ = try syscall { directory.withCString { mkdir($0, 0o750) } }
        } catch where error.rawValue == EEXIST {
            return
        }
    }

    /// open(2) write-only, append, created 0640, close-on-exec.
    public mutating func openForAppend(_ path: String) throws(Errno) -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC
        return FileDescriptor(rawValue: try syscall { path.withCString { clinux_open($0, flags, 0o640) } })
    }

    /// truncate(2).
    public mutating func truncate(_ path: String, to byteCount: Int) throws(Errno) {
        _ = try syscall { path.withCString { CLinux.truncate($0, off_t(byteCount)) } }
    }

    /// write(2) until all of `bytes` is written; allocates nothing.
    public mutating func write(_ bytes: Span<UInt8>, to handle: FileDescriptor) throws(Errno) {
        var failure: Errno?
        bytes.withUnsafeBufferPointer { buffer in
            do throws(Errno) { try handle.writeAll(UnsafeRawBufferPointer(buffer)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// fdatasync(2); an error is returned, never retried (the page cache may have dropped the data).
    public mutating func sync(_ handle: FileDescriptor) throws(Errno) {
        _ = try syscall(retryOnInterrupt: false) { fdatasync(handle.rawValue) }
    }

    /// close(2).
    public mutating func close(_ handle: FileDescriptor) throws(Errno) {
        try handle.close()
    }

    /// unlink(2).
    public mutating func remove(_ path: String) throws(Errno) {
        _ = try syscall { path.withCString { unlink($0) } }
    }

    /// Opens the directory read-only and fsyncs it, so a created or removed name survives a power cut.
    public mutating func syncDirectory(_ directory: String) throws(Errno) {
        let fd = try syscall { directory.withCString { clinux_open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) } }
        defer { try? FileDescriptor(rawValue: fd).close() }
        _ = try syscall(retryOnInterrupt: false) { fsync(fd) }
    }

    /// True when this process may create files in `directory` (access(2) with W_OK), e.g. for
    /// the doctor: false for a read-only mount or a directory owned by another user.
    public func isWritable(_ directory: String) -> Bool {
        directory.withCString { access($0, W_OK) } == 0
    }

    /// statvfs(3): f_bavail × f_frsize.
    public mutating func availableBytes(in directory: String) throws(Errno) -> Int {
        Int(try syscall { directory.withCString { clinux_available_bytes($0) } })
    }
}
