import CLinux
import TrackCore

/// The compiled fences file the daemon maps, `fences.image` beside the state file (e.g.
/// `/var/lib/trackd/fences.image`): 10,000 fences are 13 MB of tables, and mapped read-only they
/// cost resident memory only for the pages a fix near a fence touches. Written atomically (a
/// temporary file, fsync, rename, fsync of the directory) when the fences file or the circle
/// limits change, so a power cut leaves the old image or the new one; an image that fails its
/// checks is compiled again, and one that cannot be written leaves the fences on the heap.
public enum FenceImageFile {
    /// The image's path for a state file at `statePath`, e.g. `/var/lib/trackd/state` →
    /// `/var/lib/trackd/fences.image`.
    public static func path(besideState statePath: String) -> String {
        let bytes = Array(statePath.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "fences.image" }
        return String(decoding: bytes[...slash], as: UTF8.self) + "fences.image"
    }

    /// Maps the image at `path` and checks it; ENOENT when there is none.
    public static func open(_ path: String) throws(FenceImageFileError) -> FenceImage {
        let file: FileDescriptor
        do { file = try FileDescriptor.openForReading(path) } catch { throw .unreadable(error) }
        defer { try? file.close() }
        let size = clinux_descriptor_size(file.rawValue)
        guard size >= 0 else { throw .unreadable(Errno.current) }
        guard size > 0 else { throw .bad(.tooShort(bytes: 0)) }
        guard let address = clinux_map_readonly(file.rawValue, Int(size)) else { throw .unreadable(Errno.current) }
        let count = Int(size)
        let storage = FenceStorage(base: address, count: count,
                                   release: { _ = munmap(UnsafeMutableRawPointer(mutating: address), count) },
                                   forget: { _ = madvise(UnsafeMutableRawPointer(mutating: address), count, MADV_DONTNEED) })
        let image: FenceImage
        do { image = try FenceImage(storage) } catch { throw .bad(error) }
        // The check read every page: none of them needs to stay mapped, nor cached. Left in the
        // page cache, every later fault would map the 64 KiB around it (fault-around) as well;
        // evicted, a fault maps what fixes have touched, and random access reads no more.
        storage.releasePages()
        _ = posix_fadvise(file.rawValue, 0, 0, POSIX_FADV_DONTNEED)
        return image
    }

    /// Writes `image` to `path` atomically.
    public static func save(_ image: FenceImage, to path: String) throws(StateFileError) {
        try save(to: path) { (handle) throws(Errno) in try handle.writeAll(image.bytes) }
    }

    /// Writes what `write` writes to its descriptor to `path` atomically: a temporary file
    /// beside it, fsync, rename, fsync of the directory.
    static func save(to path: String, _ write: (FileDescriptor) throws(Errno) -> Void) throws(StateFileError) {
        var storage = PosixStateFileStorage()
        let temporary = path + ".tmp"
        var step = StateFileStep.create
        do throws(Errno) {
            let handle = try storage.create(temporary)
            do throws(Errno) {
                step = .write
                try write(handle)
                step = .sync
                try storage.sync(handle)
            } catch {
                try? storage.close(handle)
                _ = temporary.withCString { unlink($0) }
                throw error
            }
            step = .close
            try storage.close(handle)
            step = .rename
            try storage.rename(temporary, to: path)
            step = .syncDirectory
            let bytes = Array(path.utf8)
            let directory = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 == 0 ? "/" : String(decoding: bytes[..<$0], as: UTF8.self) } ?? "."
            try storage.syncDirectory(directory)
        } catch {
            throw .saveFailed(path: path, step: step, error)
        }
    }
}

/// Why an image file could not be used.
public enum FenceImageFileError: Error, Equatable {
    /// It cannot be opened or mapped, e.g. ENOENT.
    case unreadable(Errno)
    /// Its bytes fail the image's checks.
    case bad(FenceImageError)

    /// One line, e.g. `the CRC does not match (torn or damaged)`.
    public var description: String {
        switch self {
        case .unreadable(let error): error.message
        case .bad(let error): error.description
        }
    }
}
