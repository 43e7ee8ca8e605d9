import CLinux

/// An open file descriptor: a thin typed wrapper over read/write/close, e.g. `.standardOutput`.
public struct FileDescriptor: Equatable, Sendable {
    /// The raw descriptor number.
    public var rawValue: Int32

    /// Wraps a raw descriptor number the caller owns.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// Opens `path` read-only (close-on-exec).
    public static func openForReading(_ path: String) throws(Errno) -> FileDescriptor {
        let fd = try syscall { path.withCString { clinux_open($0, O_RDONLY | O_CLOEXEC, 0) } }
        return FileDescriptor(rawValue: fd)
    }

    /// Reads up to `buffer.count` bytes; returns 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try syscall { CLinux.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `buffer`, looping over short writes.
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
            offset += try syscall { CLinux.write(rawValue, rest.baseAddress, rest.count) }
        }
    }

    /// Writes a static text, e.g. an error prefix; allocates nothing.
    public func writeAll(_ text: StaticString) throws(Errno) {
        try writeAll(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes the UTF-8 bytes of `text`.
    public func writeAll(_ text: String) throws(Errno) {
        var failure: Errno?
        Array(text.utf8).withUnsafeBytes { bytes in
            do throws(Errno) { try writeAll(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Closes the descriptor; never retried (Linux frees it even on EINTR).
    public func close() throws(Errno) {
        _ = try syscall(retryOnInterrupt: false) { CLinux.close(rawValue) }
    }
}
