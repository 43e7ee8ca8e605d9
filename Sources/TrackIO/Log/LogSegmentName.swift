import TrackCore

/// A segment file's name: its number in ten decimal digits and `.tlog`, so names sort in the
/// order they were written, e.g. segment 42 is "0000000042.tlog".
///
/// Numbers start at 1 and only grow; a deleted segment's number is never reused.
public enum LogSegmentName {
    /// The suffix of every segment file.
    public static var suffix: String { ".tlog" }
    /// Digits of the number.
    public static var digitCount: Int { 10 }
    /// The largest number a name holds: 9,999,999,999.
    public static var maximumNumber: UInt64 { 9_999_999_999 }

    /// The name of segment `number`, e.g. 42 → "0000000042.tlog".
    public static func name(_ number: UInt64) -> String {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: digitCount)
        var rest = number
        var index = digitCount - 1
        while rest > 0 && index >= 0 {
            digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
        return String(decoding: digits, as: UTF8.self) + suffix
    }

    /// The number in a segment name, or nil for any other file, e.g. "0000000042.tlog" → 42,
    /// "notes.txt" → nil, "42.tlog" → nil (not ten digits).
    public static func number(_ name: String) -> UInt64? {
        let bytes = Array(name.utf8)
        let suffixBytes = Array(suffix.utf8)
        guard bytes.count == digitCount + suffixBytes.count,
              Array(bytes[digitCount...]) == suffixBytes else { return nil }
        return (try? DecimalText.unsigned(bytes[..<digitCount])).map { UInt64($0) }
    }

    /// `directory` + "/" + `name`, without doubling a trailing slash.
    public static func path(_ directory: String, _ name: String) -> String {
        directory.bytesHaveSuffix("/") ? directory + name : directory + "/" + name
    }
}
