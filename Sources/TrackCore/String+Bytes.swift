// Comparing strings by their UTF-8 bytes.
//
// `String ==`, `hasPrefix`, `hasSuffix`, hashing and Character indexing compare canonically
// equivalent text as equal, so Embedded Swift links Unicode's normalization and grapheme tables
// (about 50 KB of the aarch64 trackd) the moment one of them is used anywhere in the firmware.
// Every name trackd compares (config keys, units, paths, fence ids, line names, arguments) is
// compared byte for byte, as the kernel and the file system compare them: these do it without
// the tables.

extension String {
    /// True when both strings have the same UTF-8 bytes, e.g. `"gpio".bytesEqual("gpio")`;
    /// `"é"` (U+00E9) and `"e\u{301}"` differ, as they do to the file system.
    @inlinable
    public func bytesEqual(_ other: String) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
    }

    /// True when the UTF-8 bytes start with `prefix`'s, e.g. `"/dev/ttyS0".bytesHavePrefix("/dev/")`.
    @inlinable
    public func bytesHavePrefix(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }

    /// True when the UTF-8 bytes end with `suffix`'s, e.g. `"/var/log/trackd/".bytesHaveSuffix("/")`.
    @inlinable
    public func bytesHaveSuffix(_ suffix: String) -> Bool {
        let count = utf8.count, suffixCount = suffix.utf8.count
        return count >= suffixCount && utf8.dropFirst(count - suffixCount).elementsEqual(suffix.utf8)
    }

    /// The text after the first `count` UTF-8 bytes (an ASCII prefix), e.g.
    /// `"; a; b".droppingBytes(2)` → `"a; b"`.
    @inlinable
    public func droppingBytes(_ count: Int) -> String {
        String(decoding: utf8.dropFirst(count), as: UTF8.self)
    }
}

extension Sequence where Element == String {
    /// True when one element has `name`'s UTF-8 bytes, e.g. `["receiver", "gpio"].containsBytes("gpio")`.
    @inlinable
    public func containsBytes(_ name: String) -> Bool {
        contains { $0.bytesEqual(name) }
    }
}

extension Optional where Wrapped == String {
    /// True when both are nil or both have the same UTF-8 bytes.
    @inlinable
    public func bytesEqual(_ other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let left?, let right?): left.bytesEqual(right)
        default: false
        }
    }
}
