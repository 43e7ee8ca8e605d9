import TrackCore
import TrackIO

/// A log file layer in memory that keeps what was written apart from what is durable, fails a
/// chosen step with a chosen errno, and can produce the disk as it would be after a power cut.
///
/// File content is durable after `sync` of its handle; a file's name after `syncDirectory`
/// (created and removed names alike). Every mutating call is one step, numbered from 1; the
/// `observer` sees the disk after each step, which is where a harness cuts power.
/// `truncate` is treated as durable at once (a journaled metadata change).
public struct FaultyLogDisk: LogFileLayer {
    struct File {
        var data: [UInt8] = []
        var durable: [UInt8] = []
        /// Writes since the last sync: offset and length in `data`.
        var pending: [(offset: Int, count: Int)] = []
    }

    var files: [String: File] = [:]
    var names: Set<String> = []
    var durableNames: Set<String> = []
    var directories: Set<String> = []
    /// Steps taken so far (the number of the last one).
    public private(set) var stepCount = 0
    /// Step number → the errno that step fails with (once).
    public var failures: [Int: Errno] = [:]
    /// Called after every step with the disk and the step's number.
    public var observer: ((FaultyLogDisk, Int) -> Void)?
    /// When true, `sync` succeeds without making anything durable: a broken disk the harness
    /// must catch.
    public var syncLies = false
    /// Files deleted so far.
    public private(set) var removedCount = 0
    /// What `availableBytes` answers.
    public var availableByteCount = 1 << 30
    /// A file system that stays full (ENOSPC: every write fails, writing nothing) or read-only
    /// (EROFS: writes and the creation of files fail) until set back to nil.
    public var persistentFailure: Errno?

    /// An empty disk.
    public init() {}

    private mutating func step() throws(Errno) {
        stepCount += 1
        // The power can go at the failing step too: the observer sees the disk as it failed.
        if let failure = failures.removeValue(forKey: stepCount) {
            observe()
            throw failure
        }
    }

    private mutating func observe() {
        if let observer { observer(self, stepCount) }
    }

    public mutating func names(in directory: String) throws(Errno) -> [String] {
        guard directories.contains(directory) else { throw Errno.noSuchFile }
        let prefix = directory + "/"
        return names.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    public mutating func readAll(_ path: String) throws(Errno) -> [UInt8] {
        guard names.contains(path), let file = files[path] else { throw Errno.noSuchFile }
        return file.data
    }

    public mutating func byteCount(of path: String) throws(Errno) -> Int {
        guard names.contains(path), let file = files[path] else { throw Errno.noSuchFile }
        return file.data.count
    }

    public mutating func makeDirectory(_ directory: String) throws(Errno) {
        directories.insert(directory)
    }

    public mutating func openForAppend(_ path: String) throws(Errno) -> String {
        try step()
        if persistentFailure == .readOnlyFileSystem { throw Errno.readOnlyFileSystem }
        if !names.contains(path) {
            names.insert(path)
            files[path] = File()
        }
        observe()
        return path
    }

    public mutating func truncate(_ path: String, to byteCount: Int) throws(Errno) {
        try step()
        guard names.contains(path), var file = files[path] else { throw Errno.noSuchFile }
        file.data = Array(file.data.prefix(byteCount))
        file.durable = Array(file.durable.prefix(byteCount))
        file.pending = file.pending.filter { $0.offset + $0.count <= byteCount }
        files[path] = file
        observe()
    }

    /// Appends `bytes`; an injected EIO leaves the first half written (a torn write), ENOSPC
    /// writes nothing.
    public mutating func write(_ bytes: Span<UInt8>, to handle: String) throws(Errno) {
        var copy: [UInt8] = []
        copy.reserveCapacity(bytes.count)
        for index in 0..<bytes.count { copy.append(bytes[index]) }
        stepCount += 1
        var written = copy.count
        let failure = failures.removeValue(forKey: stepCount) ?? persistentFailure
        if let failure { written = failure == .noSpace || failure == .readOnlyFileSystem ? 0 : copy.count / 2 }
        if var file = files[handle] {
            file.pending.append((file.data.count, written))
            file.data.append(contentsOf: copy[..<written])
            files[handle] = file
        }
        observe()
        if let failure { throw failure }
    }

    /// Makes the file's content durable; an injected failure makes nothing durable.
    public mutating func sync(_ handle: String) throws(Errno) {
        try step()
        if !syncLies, var file = files[handle] {
            file.durable = file.data
            file.pending = []
            files[handle] = file
        }
        observe()
    }

    public mutating func close(_ handle: String) throws(Errno) {}

    public mutating func remove(_ path: String) throws(Errno) {
        try step()
        guard names.remove(path) != nil else { throw Errno.noSuchFile }
        removedCount += 1
        observe()
    }

    public mutating func syncDirectory(_ directory: String) throws(Errno) {
        try step()
        let prefix = directory + "/"
        durableNames = durableNames.filter { !$0.hasPrefix(prefix) }.union(names.filter { $0.hasPrefix(prefix) })
        observe()
    }

    public mutating func availableBytes(in directory: String) throws(Errno) -> Int {
        availableByteCount
    }
}
