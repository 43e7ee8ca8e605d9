import CLinux

extension FileDescriptor {
    /// True when something exists at `path` (access(2) F_OK), e.g. whether a config file is there.
    public static func exists(_ path: String) -> Bool {
        path.withCString { access($0, F_OK) } == 0
    }

    /// The whole content of the file at `path`, e.g. a GPX route read at start-up.
    /// Fails with EFBIG when it holds more than `limit` bytes (default 64 MiB).
    ///
    /// The buffer starts at the size fstat reports plus one byte (so the read that finds the
    /// end needs no second buffer) and doubles when the file is longer, as /proc files are
    /// (they report 0): a small file costs a small buffer, not a zero-filled chunk.
    public static func readWholeFile(_ path: String, limit: Int = 64 << 20) throws(Errno) -> [UInt8] {
        let file = try openForReading(path)
        defer { try? file.close() }
        let reported = Int(max(clinux_descriptor_size(file.rawValue), 0))
        guard reported <= limit else { throw Errno(rawValue: EFBIG) }
        var bytes: [UInt8] = []
        var failure: Errno?
        var room = min(max(reported + 1, 256), limit + 1)
        while failure == nil {
            let used = bytes.count
            guard used <= limit else { throw Errno(rawValue: EFBIG) }
            if used == room { room = min(room * 2, limit + 1) }
            let step = room - used
            bytes.append(contentsOf: repeatElement(0, count: step))
            let got = bytes.withUnsafeMutableBytes { (buffer) -> Int in
                do throws(Errno) {
                    return try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[used...]))
                } catch {
                    failure = error
                    return 0
                }
            }
            bytes.removeLast(step - got)
            if got == 0 { break }
        }
        if let failure { throw failure }
        guard bytes.count <= limit else { throw Errno(rawValue: EFBIG) }
        return bytes
    }

    /// Reads whatever is waiting without blocking the caller for long: returns 0 when nothing
    /// is (EAGAIN on a non-blocking descriptor) as well as at end of file.
    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        do {
            return try read(into: buffer)
        } catch where error == .wouldBlock {
            return 0
        }
    }

    /// Writes as much of `buffer` as the descriptor takes now; returns the bytes written, fewer
    /// than `buffer.count` when a non-blocking descriptor is full (EAGAIN).
    public func writeAvailable(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        var offset = 0
        while offset < buffer.count {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
            do {
                offset += try syscall { CLinux.write(rawValue, rest.baseAddress, rest.count) }
            } catch where error == .wouldBlock {
                return offset
            }
        }
        return offset
    }
}
