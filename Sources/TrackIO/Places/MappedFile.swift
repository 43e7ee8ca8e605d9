import CLinux

/// A file mapped read-only into memory, e.g. the gazetteer `/usr/share/trackd/places.bin`:
/// the kernel reads a page only when something touches it (random access advised, so no
/// read-ahead), and pages stay shared with the page cache rather than copied onto the heap.
///
/// Unmapped when the value goes away. The bytes reach other modules only as a `Span` inside
/// `withBytes`, so no pointer leaves TrackIO. Example:
///
///     let places = try MappedFile(path: "/usr/share/trackd/places.bin")   // 4,711,195 bytes
///     let table = try places.withBytes { (bytes) throws(PlaceTableError) in try PlaceTable(bytes) }
public struct MappedFile: ~Copyable {
    let base: UnsafeRawPointer?
    /// The file's size in bytes when it was mapped.
    public let count: Int

    /// Maps the file at `path`; an empty file maps to no pages and has no bytes.
    public init(path: String) throws(Errno) {
        let file = try FileDescriptor.openForReading(path)
        defer { try? file.close() }
        let size = clinux_descriptor_size(file.rawValue)
        guard size >= 0 else { throw Errno.current }
        guard size > 0 else {
            base = nil
            count = 0
            return
        }
        guard let address = clinux_map_readonly(file.rawValue, Int(size)) else { throw Errno.current }
        base = address
        count = Int(size)
    }

    deinit {
        if let base { _ = munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// Pages of the mapping in the page cache now (mincore), e.g. after evicting the file
    /// (`evictFromPageCache`) and one lookup, the pages the lookup read from storage: with
    /// random access advised the kernel reads no others. -1 when the kernel cannot say.
    public func cachedPageCount() -> Int {
        guard let base, count > 0 else { return 0 }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = (count + page - 1) / page
        var vector = [UInt8](repeating: 0, count: pages)
        let result = vector.withUnsafeMutableBufferPointer { buffer in
            mincore(UnsafeMutableRawPointer(mutating: base), count, buffer.baseAddress)
        }
        guard result == 0 else { return -1 }
        return vector.reduce(0) { $0 + Int($1 & 1) }
    }

    /// Asks the kernel to drop the file's clean cached pages (benchmarks: a cold start).
    public static func evictFromPageCache(path: String) throws(Errno) {
        let file = try FileDescriptor.openForReading(path)
        defer { try? file.close() }
        let result = posix_fadvise(file.rawValue, 0, 0, POSIX_FADV_DONTNEED)
        guard result == 0 else { throw Errno(rawValue: result) }
    }

    /// Takes the mapping's pages out of this process's resident memory (MADV_DONTNEED): they
    /// stay in the page cache, and the next touch maps them back without reading storage. The
    /// daemon calls it after each lookup, so a table touched along a drive, and the 64 KiB the
    /// kernel maps around every page fault, do not pile up as resident memory. No allocation.
    public func releasePages() {
        guard let base, count > 0 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), count, MADV_DONTNEED)
    }

    /// Calls `body` with the mapped bytes (an empty span for an empty file).
    public func withBytes<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        let bytes = UnsafeBufferPointer<UInt8>(start: base?.assumingMemoryBound(to: UInt8.self), count: count)
        return try body(bytes.span)
    }
}
