import CLinux
import TrackCore

/// The file system holding a directory, for the advice `trackctl status` and `doctor` give
/// about the track log, e.g. `/dev/mmcblk0p2 (ext4) mounted at /`, 7.1 GiB of 7.3 GiB used.
///
/// The mount comes from /proc/self/mountinfo, matched by the directory's device numbers
/// (st_dev); the sizes from statvfs, read again each time they are asked for (no allocation).
public struct FileSystemInfo: Equatable, Sendable {
    /// The directory asked about, e.g. `/var/lib/trackd/log`.
    public var path: String
    /// Where the file system is mounted, e.g. `/` or `/var/lib/trackd`.
    public var mountPoint: String
    /// What is mounted, e.g. `/dev/mmcblk0p2` or `tmpfs`.
    public var source: String
    /// The file system type, e.g. `ext4`.
    public var type: String

    /// The mount holding `path`, or nil when it cannot be found (no /proc, a path that does
    /// not exist). Reads a file and allocates: call it at start-up and on a change, not per fix.
    public static func of(_ path: String) -> FileSystemInfo? {
        var major: UInt32 = 0
        var minor: UInt32 = 0
        guard path.withCString({ clinux_device_numbers($0, &major, &minor) }) == 0,
              let text = try? FileDescriptor.readWholeFile("/proc/self/mountinfo", limit: 1 << 20) else { return nil }
        let device = String(major) + ":" + String(minor)
        var best: FileSystemInfo?
        for line in text.split(separator: UInt8(ascii: "\n")) {
            // `36 35 98:0 /root /mnt rw,noatime master:1 - ext3 /dev/root rw`: fields 3 and 5,
            // then type and source after the lone `-`.
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count >= 10, fields[2].elementsEqual(device.utf8),
                  let dash = fields.firstIndex(where: { $0.count == 1 && $0.first == UInt8(ascii: "-") }),
                  dash + 2 < fields.count else { continue }
            let mount = unescaped(fields[4])
            // Bind mounts repeat a device: the deepest mount point above `path` wins.
            guard path.bytesEqual(mount) || path.bytesHavePrefix(mount.bytesEqual("/") ? "/" : mount + "/") else { continue }
            if let found = best, found.mountPoint.utf8.count >= mount.utf8.count { continue }
            best = FileSystemInfo(path: path, mountPoint: mount, source: unescaped(fields[dash + 2]),
                                  type: String(decoding: fields[dash + 1], as: UTF8.self))
        }
        return best
    }

    /// Bytes of the file system, and bytes an unprivileged process may still write; nil when
    /// statvfs fails.
    public func sizes() -> (totalBytes: Int64, availableBytes: Int64)? {
        let total = path.withCString { clinux_total_bytes($0) }
        let available = path.withCString { clinux_available_bytes($0) }
        guard total >= 0, available >= 0 else { return nil }
        return (total, available)
    }

    /// mountinfo's octal escapes (`\040` for a space) decoded.
    static func unescaped(_ field: ArraySlice<UInt8>) -> String {
        var bytes: [UInt8] = []
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            if byte == UInt8(ascii: "\\"), index + 3 < field.endIndex {
                let digits = field[(index + 1)...(index + 3)]
                if digits.allSatisfy({ $0 >= 48 && $0 <= 55 }) {
                    bytes.append(digits.reduce(0) { $0 &* 8 &+ ($1 - 48) })
                    index += 4
                    continue
                }
            }
            bytes.append(byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
