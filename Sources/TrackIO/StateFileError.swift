import TrackCore

/// Why the state file could not be read or saved; every case names the file, e.g.
/// `.badChecksum(path: "/var/lib/trackd/state", stored: 0x1234_5678, computed: 0x9ABC_DEF0)`.
public enum StateFileError: Error, Equatable, Sendable {
    /// Reading failed (ENOENT: no file yet).
    case unreadable(path: String, Errno)
    /// Shorter than a state file: `bytes` of `expected`.
    case truncated(path: String, bytes: Int, expected: Int)
    /// Longer than, or declaring another length than, a state file of this version.
    case wrongLength(path: String, bytes: Int, expected: Int)
    /// Does not start with the magic "TKST".
    case notAStateFile(path: String)
    /// A format version this build does not know.
    case unknownVersion(path: String, version: UInt16)
    /// The CRC-32C does not match the content.
    case badChecksum(path: String, stored: UInt32, computed: UInt32)
    /// A field with a value no version-1 file holds, e.g. state 9.
    case badField(path: String, field: String, value: Int64)
    /// Saving failed at `step`; the old file is still whole.
    case saveFailed(path: String, step: StateFileStep, Errno)

    /// A one-line explanation for logs and `trackctl doctor`, e.g.
    /// "/var/lib/trackd/state: bad CRC (stored 0x…, computed 0x…)".
    public var message: String {
        switch self {
        case .unreadable(let path, let errno): String(joining: path, ": cannot read: ", errno.message)
        case .truncated(let path, let bytes, let expected): String(joining: path, ": truncated: ", String(bytes), " of ", String(expected), " bytes")
        case .wrongLength(let path, let bytes, let expected):
            String(joining: path, ": wrong length: ", String(bytes), " bytes, expected ", String(expected))
        case .notAStateFile(let path): String(joining: path, ": not a trackd state file")
        case .unknownVersion(let path, let version): String(joining: path, ": unknown format version ", String(version))
        case .badChecksum(let path, let stored, let computed):
            String(joining: path, ": bad CRC (stored ", Self.hex(stored), ", computed ", Self.hex(computed), ")")
        case .badField(let path, let field, let value): String(joining: path, ": bad ", field, " ", String(value))
        case .saveFailed(let path, let step, let errno): String(joining: path, ": save failed at ", step.name, ": ", errno.message)
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.utf8.count) + digits
    }
}
