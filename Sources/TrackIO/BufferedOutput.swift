/// Output collected in one buffer allocated at start-up and written in large chunks,
/// e.g. one JSON line per fix to standard output without a syscall per line.
public struct BufferedOutput: ~Copyable {
    let descriptor: FileDescriptor
    let storage: UnsafeMutableRawBufferPointer
    var used = 0

    /// A writer to `descriptor` with a `capacity`-byte buffer (default 64 KiB).
    public init(_ descriptor: FileDescriptor, capacity: Int = 65_536) {
        self.descriptor = descriptor
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Appends the bytes of `span`, flushing first when they do not fit.
    public mutating func write(_ span: Span<UInt8>) throws(Errno) {
        if used + span.count > storage.count { try flush() }
        if span.count > storage.count {
            try span.withUnsafeBytes { (bytes) throws(Errno) in try descriptor.writeAll(bytes) }
            return
        }
        span.withUnsafeBytes { bytes in
            UnsafeMutableRawBufferPointer(rebasing: storage[used..<(used + bytes.count)]).copyMemory(from: bytes)
        }
        used += span.count
    }

    /// Appends one byte (e.g. a newline).
    public mutating func write(byte: UInt8) throws(Errno) {
        if used == storage.count { try flush() }
        storage[used] = byte
        used += 1
    }

    /// Writes out everything buffered.
    public mutating func flush() throws(Errno) {
        guard used > 0 else { return }
        try descriptor.writeAll(UnsafeRawBufferPointer(rebasing: storage[0..<used]))
        used = 0
    }
}
