import TrackCore

/// One target's saved progress in the cursor file, e.g. "home-mqtt" live at 4:100:80:01020304.
public struct UplinkSavedTarget: Equatable, Sendable {
    /// The target's name from trackd.conf: letters, digits, `.`, `_`, `-`.
    public var name: String
    public var progress: UplinkProgress

    /// A target's entry.
    public init(name: String, progress: UplinkProgress) {
        self.name = name
        self.progress = progress
    }

    /// True for a name the file can hold: 1…64 of `A-Z a-z 0-9 . _ -`.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return true
    }
}

/// The uplink's cursor file (`/var/lib/trackd/uplink.cursors`), saved as the state file is:
/// a temporary file written and fsynced, renamed over the old one, the directory fsynced, so a
/// power cut leaves the old file or the new one. Text, one target a line, then the CRC-32C of
/// the lines before it:
///
///     # trackd uplink cursors (docs/uplink.md)
///     home-mqtt live=4:100:80:01020304 backlog=3:1234:77:9f3a11c2+2/3:9000:79:aabbccdd acked=1750507289000
///     traccar live=4:100:80:01020304 acked=1750507289000
///     crc32c=5d1e0f3a
///
/// Saving allocates nothing (the text is built in a buffer kept from start-up), so the uplink
/// saves from the daemon loop; loading is for start-up.
public struct UplinkCursorFile<Storage: StateFileStorage> {
    /// The file, e.g. "/var/lib/trackd/uplink.cursors".
    public let path: String
    /// Where a save is written before the rename: `path` + ".tmp".
    public let temporaryPath: String
    /// The directory fsynced after the rename.
    public let directory: String
    /// The file layer.
    public var storage: Storage
    var scratch: [UInt8]

    /// A cursor file at `path` over `storage`.
    public init(path: String, storage: Storage) {
        self.path = path
        temporaryPath = path + ".tmp"
        self.storage = storage
        let bytes = Array(path.utf8)
        if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
            directory = slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
        } else {
            directory = "."
        }
        scratch = []
        scratch.reserveCapacity(TextBuffer.capacity)
    }

    /// The targets saved; none when there is no file yet (a first start).
    public mutating func load() throws(UplinkCursorFileError) -> [UplinkSavedTarget] {
        let bytes: [UInt8]
        do {
            bytes = try storage.readAll(path)
        } catch {
            if error == .noSuchFile { return [] }
            throw .unreadable(path: path, error)
        }
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        guard bytes.last == 10, lines.count >= 2 else { throw .truncated(path: path) }
        // The last element is the empty one after the final line feed; before it, the CRC line.
        let crcLine = String(decoding: lines[lines.count - 2], as: UTF8.self)
        let covered = bytes.count - lines[lines.count - 2].count - 1
        let computed = CRC32C.checksum(of: bytes.span, 0..<covered)
        guard crcLine.hasPrefix("crc32c="), crcLine.utf8.count == 15,
              let stored = UInt32(String(crcLine.dropFirst(7)), radix: 16) else { throw .truncated(path: path) }
        guard stored == computed else { throw .badChecksum(path: path, stored: stored, computed: computed) }
        var targets: [UplinkSavedTarget] = []
        for (index, line) in lines[0..<(lines.count - 2)].enumerated() where line.first != UInt8(ascii: "#") {
            let words = String(decoding: line, as: UTF8.self).split(separator: " ")
            guard let name = words.first, UplinkSavedTarget.isValidName(String(name)),
                  let progress = UplinkProgress(words: Array(words.dropFirst())),
                  !targets.contains(where: { $0.name == String(name) }) else {
                throw .malformedLine(path: path, line: index + 1)
            }
            targets.append(UplinkSavedTarget(name: String(name), progress: progress))
        }
        return targets
    }

    /// Saves `targets` atomically; on failure the old file is still whole. Allocates nothing
    /// (up to the buffer: about 30 targets with their backlogs).
    public mutating func save(_ targets: Span<UplinkSavedTarget>) throws(UplinkCursorFileError) {
        var text = TextBuffer()
        text.append("# trackd uplink cursors (docs/uplink.md)\n")
        for index in targets.indices {
            text.append(string: targets[index].name)
            text.append(UInt8(ascii: " "))
            targets[index].progress.write(to: &text)
            text.append(UInt8(ascii: "\n"))
        }
        guard !text.overflowed, text.count + 16 <= TextBuffer.capacity else { throw .tooLong(path: path) }
        let crc = text.withBytes { CRC32C.checksum(of: $0, 0..<$0.count) }
        text.append("crc32c=")
        var shift: UInt32 = 28
        while true {
            text.append(HexDigit.character(UInt8((crc >> shift) & 0xF)))
            if shift == 0 { break }
            shift -= 4
        }
        text.append(UInt8(ascii: "\n"))
        scratch.removeAll(keepingCapacity: true)
        text.withBytes { bytes in
            for index in bytes.indices { scratch.append(bytes[index]) }
        }
        var step = StateFileStep.create
        do throws(Errno) {
            let handle = try storage.create(temporaryPath)
            do throws(Errno) {
                step = .write
                try storage.write(scratch, to: handle)
                step = .sync
                try storage.sync(handle)
            } catch {
                try? storage.close(handle)
                throw error
            }
            step = .close
            try storage.close(handle)
            step = .rename
            try storage.rename(temporaryPath, to: path)
            step = .syncDirectory
            try storage.syncDirectory(directory)
        } catch {
            throw .saveFailed(path: path, step: step, error)
        }
    }
}

extension UplinkCursorFile where Storage == PosixStateFileStorage {
    /// The cursor file at `path` on the real file system.
    public init(path: String) {
        self.init(path: path, storage: PosixStateFileStorage())
    }
}

/// Why the cursor file could not be read or saved; each names the file, e.g.
/// `.badChecksum(path: "/var/lib/trackd/uplink.cursors", stored: 0x1234_5678, computed: 0x9ABC_DEF0)`.
public enum UplinkCursorFileError: Error, Equatable, Sendable {
    case unreadable(path: String, Errno)
    /// No final CRC line: not a whole cursor file.
    case truncated(path: String)
    case badChecksum(path: String, stored: UInt32, computed: UInt32)
    /// Line `line` (from 1) is not `NAME live=…`, or names a target twice.
    case malformedLine(path: String, line: Int)
    /// The targets do not fit the 4 KiB the file is built in.
    case tooLong(path: String)
    case saveFailed(path: String, step: StateFileStep, Errno)

    /// A one-line explanation, e.g. "/var/lib/trackd/uplink.cursors: line 2 is not a target's cursor".
    public var message: String {
        switch self {
        case .unreadable(let path, let errno): path + ": cannot read: " + errno.message
        case .truncated(let path): path + ": not a whole cursor file (no crc32c line at the end)"
        case .badChecksum(let path, let stored, let computed):
            path + ": bad CRC (stored " + String(stored, radix: 16) + ", computed " + String(computed, radix: 16) + ")"
        case .malformedLine(let path, let line): path + ": line " + String(line) + " is not a target's cursor"
        case .tooLong(let path): path + ": too many targets for one file"
        case .saveFailed(let path, let step, let errno): path + ": save failed at " + step.name + ": " + errno.message
        }
    }
}
