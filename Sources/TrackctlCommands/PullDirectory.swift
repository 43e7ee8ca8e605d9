import TrackCore
import TrackIO

/// One host's local copy, `DIR/HOST/`: an ordinary log directory (`trackctl log export --log
/// DIR/HOST` reads it) and `pull.cursor`, where the next pull starts (readers ignore the file).
///
/// A transfer is appended only once verified, segment by segment, each file fdatasync'ed, and
/// then the cursor is replaced atomically (temporary file, fsync, rename, fsync of the
/// directory). Bytes past the cursor (an append whose cursor was never recorded: the laptop lost
/// power) are cut before the same bytes are appended again, so nothing partial is kept.
struct PullDirectory {
    /// The directory, e.g. "logs/tracker-3".
    let path: String

    /// The cursor file's name.
    static var cursorName: String { "pull.cursor" }

    var cursorPath: String { LogSegmentName.path(path, PullDirectory.cursorName) }

    /// The recorded cursor; `start` when the directory or its cursor file does not exist yet.
    func cursor() throws(PullError) -> LogCursor {
        guard FileDescriptor.exists(cursorPath) else { return .start }
        let bytes: [UInt8]
        do throws(Errno) {
            bytes = try FileDescriptor.readWholeFile(cursorPath, limit: 4096)
        } catch {
            throw .local(path: cursorPath, error)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let cursor = LogCursor(text: text) else { throw .badCursorFile(path: cursorPath) }
        return cursor
    }

    /// Appends `transfer` (verified) after `cursor` and records its cursor.
    func append(_ transfer: LogTransfer, after cursor: LogCursor) throws(PullError) {
        var files = PosixLogFiles()
        do throws(Errno) { try files.makeDirectory(path) } catch { throw .local(path: path, error) }
        for (index, segment) in transfer.segments.enumerated() {
            let continues = index == 0 && !cursor.isStart && segment.number == cursor.segment
            let expected = continues ? cursor.offset : 0
            guard segment.offset == expected, cursor.isStart || segment.number >= cursor.segment else {
                throw .discontinuous(segment: segment.number, offset: segment.offset, expected: expected)
            }
            let file = LogSegmentName.path(path, LogSegmentName.name(segment.number))
            let size: Int
            do throws(Errno) {
                size = FileDescriptor.exists(file) ? try files.byteCount(of: file) : 0
            } catch {
                throw .local(path: file, error)
            }
            guard size >= segment.offset else { throw .localShorter(segment: segment.number, offset: segment.offset) }
            do throws(Errno) {
                if size > segment.offset { try files.truncate(file, to: segment.offset) }
                let handle = try files.openForAppend(file)
                do throws(Errno) {
                    try files.write(segment.bytes.span, to: handle)
                    try files.sync(handle)
                } catch {
                    try? files.close(handle)
                    throw error
                }
                try files.close(handle)
            } catch {
                throw .local(path: file, error)
            }
        }
        do throws(Errno) { try files.syncDirectory(path) } catch { throw .local(path: path, error) }
        if transfer.cursor != cursor { try record(transfer.cursor) }
    }

    /// Replaces the cursor file atomically with `cursor`.
    func record(_ cursor: LogCursor) throws(PullError) {
        var storage = PosixStateFileStorage()
        let temporary = cursorPath + ".tmp"
        do throws(Errno) {
            let handle = try storage.create(temporary)
            do throws(Errno) {
                try storage.write(Array((cursor.text + "\n").utf8), to: handle)
                try storage.sync(handle)
            } catch {
                try? storage.close(handle)
                throw error
            }
            try storage.close(handle)
            try storage.rename(temporary, to: cursorPath)
            try storage.syncDirectory(path)
        } catch {
            throw .local(path: cursorPath, error)
        }
    }
}
