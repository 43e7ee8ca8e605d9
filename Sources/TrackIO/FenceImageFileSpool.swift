import CLinux
import TrackCore

/// The tables of a fence image being compiled, in files beside the image instead of memory:
/// one file per table (`IMAGE.PID.TABLE.tmp`, unlinked as soon as it is open, so nothing is
/// left behind by a crash), each written through a 64 KiB buffer and read back 64 KiB at a
/// time. 100,000 fences need about 6 × 64 KiB of memory here, and disk for one more image.
/// The first error is kept in `failure`; after it, appends are dropped and reads give nothing.
///
/// Example: `FenceImageFileSpool(beside: "/var/lib/trackd/fences.image")`.
public struct FenceImageFileSpool: FenceImageSpool {
    var files: [FileDescriptor?]
    var buffers: [[UInt8]]
    /// Bytes written to each file so far.
    var written: [Int]
    /// The first failure of a create, write or read.
    public private(set) var failure: Errno?
    static var bufferBytes: Int { 65_536 }

    /// Creates the table files beside `imagePath`.
    public init(beside imagePath: String) {
        files = []
        buffers = Array(repeating: [], count: FenceImageTable.allCases.count)
        written = Array(repeating: 0, count: FenceImageTable.allCases.count)
        let process = String(getpid())
        for table in FenceImageTable.allCases {
            let path = imagePath + "." + process + "." + String(table.rawValue) + ".tmp"
            do throws(Errno) {
                let flags = O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC
                let fd = try syscall { path.withCString { clinux_open($0, flags, 0o600) } }
                _ = path.withCString { unlink($0) }
                files.append(FileDescriptor(rawValue: fd))
            } catch {
                failure = failure ?? error
                files.append(nil)
            }
        }
    }

    /// Buffers `bytes`, writing the buffer out when full.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, to table: FenceImageTable) {
        let index = table.rawValue
        if buffers[index].count + bytes.count > Self.bufferBytes { flush(index) }
        if bytes.count > Self.bufferBytes {
            write(bytes, index)
            return
        }
        if buffers[index].capacity < Self.bufferBytes { buffers[index].reserveCapacity(Self.bufferBytes) }
        buffers[index].append(contentsOf: bytes)
    }

    /// The table's file from its start, 64 KiB at a time.
    public mutating func read(_ table: FenceImageTable, _ body: (UnsafeRawBufferPointer) -> Void) {
        let index = table.rawValue
        flush(index)
        guard failure == nil, let file = files[index] else { return }
        var offset = 0
        withUnsafeTemporaryAllocation(byteCount: Self.bufferBytes, alignment: 16) { buffer in
            while offset < written[index] {
                let count: Int
                do throws(Errno) {
                    count = try syscall { pread(file.rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
                } catch {
                    failure = failure ?? error
                    return
                }
                guard count > 0 else {
                    failure = failure ?? Errno(rawValue: EIO)
                    return
                }
                body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                offset += count
            }
        }
    }

    /// Closes the table's file (unlinked already: its blocks are freed).
    public mutating func remove(_ table: FenceImageTable) {
        try? files[table.rawValue]?.close()
        files[table.rawValue] = nil
        buffers[table.rawValue] = []
    }

    /// Closes every file left.
    public mutating func removeAll() {
        for table in FenceImageTable.allCases { remove(table) }
    }

    mutating func flush(_ index: Int) {
        guard !buffers[index].isEmpty else { return }
        buffers[index].withUnsafeBytes { write($0, index) }
        buffers[index].removeAll(keepingCapacity: true)
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer, _ index: Int) {
        guard failure == nil, let file = files[index] else { return }
        do throws(Errno) { try file.writeAll(bytes) } catch {
            failure = error
            return
        }
        written[index] += bytes.count
    }
}

/// A file read 64 KiB at a time as a `JSONReader` asks; a read error ends the text and is kept
/// in `failure`, for the caller to report before whatever the reader made of the cut.
public struct FileByteSource: JSONByteSource {
    let file: FileDescriptor
    /// The read error that ended the text, if one did.
    public private(set) var failure: Errno?

    /// Reads `file` from where it stands.
    public init(_ file: FileDescriptor) {
        self.file = file
    }

    /// The next bytes of the file; 0 at its end or after an error.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard failure == nil else { return 0 }
        do throws(Errno) { return try file.read(into: buffer) } catch {
            failure = error
            return 0
        }
    }
}
