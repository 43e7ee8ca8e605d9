import CLinux
import TrackCore

/// Compiling a fences file into an image file in bounded memory, as `trackctl fence compile`
/// does for trackd: the GeoJSON read 64 KiB at a time (`FenceFile.read`), the image's tables
/// spooled to files beside the image (`FenceImageFileSpool`), the image written out piece by
/// piece through a temporary file and renamed over the old one. Memory: the strings, 40 bytes
/// per index entry, the feature being read, a few 64 KiB buffers; never the document or the
/// image.
extension FenceImageFile {
    /// Compiles the fences file at `source` into the image at `image` (atomically), with
    /// `settings`' radius limits; with `image` nil only reads and checks it. Returns what was
    /// compiled, e.g. 10,000 fences (4,000 circles), 6,000 rings, 660,000 vertices.
    public static func compile(_ source: String, to image: String?, settings: FenceSettings)
        throws(FenceCompileError) -> FenceCompileSummary {
        var silent = SilentFenceCompile()
        return try compile(source, to: image, settings: settings, observer: &silent)
    }

    /// `compile(_:to:settings:)` telling `observer` how far it got: the bytes read at every
    /// 64 KiB, then the image being written.
    public static func compile<Observer: FenceCompileObserver>(_ source: String, to image: String?, settings: FenceSettings,
                                                               observer: inout Observer)
        throws(FenceCompileError) -> FenceCompileSummary {
        let file: FileDescriptor
        do { file = try FileDescriptor.openForReading(source) } catch { throw .unreadable(path: source, error) }
        defer { try? file.close() }
        let size = Int(clinux_descriptor_size(file.rawValue))
        var reader = ObservedByteSource(FileByteSource(file), total: size > 0 ? size : nil, observer: observer)
        defer { observer = reader.observer }
        guard let image else {
            var builder = FenceImageBuilder(spool: FenceImageDiscardingSpool())
            _ = try read(&reader, source, into: &builder, settings: settings)
            return FenceCompileSummary(builder, bytes: nil)
        }
        var builder = FenceImageBuilder(spool: FenceImageFileSpool(beside: image))
        defer { builder.spool.removeAll() }
        if let failure = builder.spool.failure { throw .cannotSave(.saveFailed(path: image, step: .create, failure)) }
        let key = try read(&reader, source, into: &builder, settings: settings)
        if let failure = builder.spool.failure { throw .cannotSave(.saveFailed(path: image, step: .write, failure)) }
        reader.observer.writing(fences: builder.fenceCount)
        var bytes = 0
        do {
            try save(to: image) { (handle) throws(Errno) in
                var failure: Errno?
                bytes = builder.write(key: key) { piece in
                    guard failure == nil else { return }
                    do throws(Errno) { try handle.writeAll(piece) } catch { failure = error }
                }
                if let failure = failure ?? builder.spool.failure { throw failure }
            }
        } catch {
            throw .cannotSave(error)
        }
        return FenceCompileSummary(builder, bytes: bytes)
    }

    /// The fences `reader` gives into `builder`; its key.
    static func read<Spool: FenceImageSpool, Observer>(_ reader: inout ObservedByteSource<Observer>, _ path: String,
                                                       into builder: inout FenceImageBuilder<Spool>,
                                                       settings: FenceSettings) throws(FenceCompileError) -> UInt64 {
        let key: UInt64
        do {
            key = try FenceFile.read(&reader, into: &builder, settings: settings)
        } catch {
            // A read error cuts the text short: that, not what the reader made of it.
            if let failure = reader.source.failure { throw .unreadable(path: path, failure) }
            throw .fences(path: path, error)
        }
        if let failure = reader.source.failure { throw .unreadable(path: path, failure) }
        return key
    }
}

/// What a fence compile tells whoever waits for it, e.g. `trackctl fence compile`'s progress
/// line on a terminal.
public protocol FenceCompileObserver {
    /// `bytes` of the fences file read so far, of `total` (its size; nil when unknown).
    mutating func reading(bytes: Int, total: Int?)
    /// Everything read and checked: the image of `fences` fences is being written.
    mutating func writing(fences: Int)
}

/// An observer told nothing: trackd's own compiles, checks.
public struct SilentFenceCompile: FenceCompileObserver {
    public init() {}
    public mutating func reading(bytes: Int, total: Int?) {}
    public mutating func writing(fences: Int) {}
}

/// The fences file's bytes, counted for the observer at every read.
struct ObservedByteSource<Observer: FenceCompileObserver>: JSONByteSource {
    var source: FileByteSource
    let total: Int?
    var observer: Observer
    private(set) var bytesRead = 0

    init(_ source: FileByteSource, total: Int?, observer: Observer) {
        self.source = source
        self.total = total
        self.observer = observer
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = source.read(into: buffer)
        bytesRead += count
        observer.reading(bytes: bytesRead, total: total)
        return count
    }
}

/// What a compile made, e.g. `10000 fences (4000 circles, 6000 polygons with 6000 rings and
/// 660000 vertices)`.
public struct FenceCompileSummary: Equatable, Sendable {
    /// Fences, of them circles; rings and vertices of the polygons.
    public var fences: Int, circles: Int, rings: Int, vertices: Int
    /// The image's size; nil when only checked.
    public var bytes: Int?

    init<Spool>(_ builder: FenceImageBuilder<Spool>, bytes: Int?) {
        fences = builder.fenceCount
        circles = builder.circleCount
        rings = builder.ringCount
        vertices = builder.vertexCount
        self.bytes = bytes
    }
}

/// Why a fences file could not be compiled; `message` names the file, and the feature for a
/// bad one, e.g. `fences.geojson: feature 3 (id "depot"): ring 1 is not closed (…)`.
public enum FenceCompileError: Error, Equatable {
    /// The fences file cannot be opened or read.
    case unreadable(path: String, Errno)
    /// The fences file is not a valid fences file.
    case fences(path: String, FenceFileError)
    /// The image (or a table file beside it) cannot be written.
    case cannotSave(StateFileError)

    /// One line.
    public var message: String {
        switch self {
        case .unreadable(let path, let error): path + ": " + error.message
        case .fences(let path, let error): path + ": " + error.description
        case .cannotSave(let error): error.message
        }
    }
}
