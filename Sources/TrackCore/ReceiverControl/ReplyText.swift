/// A short text a receiver sent (a version string, a TXT message), in a fixed buffer: at most
/// 64 bytes are kept, the rest dropped, e.g. `ROM CORE 3.01 (107888)`.
public struct ReplyText: Equatable, Sendable {
    /// Bytes kept.
    public static var capacity: Int { 64 }

    var storage: InlineArray<64, UInt8>
    /// Bytes held.
    public private(set) var count: Int

    /// An empty text.
    public init() {
        storage = InlineArray(repeating: 0)
        count = 0
    }

    /// The bytes of `bytes[range]` up to the first NUL (UBX pads its strings with NULs), at
    /// most `capacity` of them.
    init(_ bytes: Span<UInt8>, _ range: Range<Int>) {
        self.init()
        for offset in range {
            let byte = bytes[offset]
            if byte == 0 || count == Self.capacity { break }
            storage[count] = byte
            count += 1
        }
    }

    /// A text from a string (tests).
    public init(_ text: String) {
        self.init()
        for byte in text.utf8 where count < Self.capacity {
            storage[count] = byte
            count += 1
        }
    }

    /// The byte at `offset` (< `count`).
    public subscript(offset: Int) -> UInt8 { storage[offset] }

    /// Calls `body` with the text's bytes.
    public func withBytes<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(storage.span.extracting(0..<count))
    }

    /// True when `needle` occurs in the text, ASCII letters compared without case, e.g.
    /// `"u-blox AG - www.u-blox.com"` contains `"U-BLOX"`.
    public func contains(_ needle: StaticString) -> Bool { firstOffset(of: needle) != nil }

    /// Where `needle` first occurs (letters without case); nil when it does not.
    public func firstOffset(of needle: StaticString) -> Int? {
        let length = needle.utf8CodeUnitCount
        guard length <= count else { return nil }
        var start = 0
        while start + length <= count {
            var offset = 0
            while offset < length && Self.folded(storage[start + offset]) == Self.folded(needle.utf8Start[offset]) {
                offset += 1
            }
            if offset == length { return start }
            start += 1
        }
        return nil
    }

    static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }

    /// The version number after `label` (e.g. `PROTVER=` or `PROTVER `) in hundredths, e.g.
    /// `PROTVER=18.00` → 1800, `PROTVER 14.00` → 1400; nil without the label or digits.
    public func hundredths(after label: StaticString) -> Int? {
        guard let start = firstOffset(of: label) else { return nil }
        var offset = start + label.utf8CodeUnitCount
        var whole = 0
        var digits = 0
        while offset < count, storage[offset] >= 48, storage[offset] <= 57, digits < 4 {
            whole = whole * 10 + Int(storage[offset] - 48)
            offset += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        var fraction = 0
        if offset < count && storage[offset] == UInt8(ascii: ".") {
            offset += 1
            var place = 10
            while place > 0, offset < count, storage[offset] >= 48, storage[offset] <= 57 {
                fraction += Int(storage[offset] - 48) * place
                offset += 1
                place /= 10
            }
        }
        return whole * 100 + fraction
    }

    /// The text as a string (status, messages, tests).
    public var string: String {
        var copy: [UInt8] = []
        copy.reserveCapacity(count)
        for offset in 0..<count { copy.append(storage[offset]) }
        return String(decoding: copy, as: UTF8.self)
    }

    public static func == (lhs: ReplyText, rhs: ReplyText) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for offset in 0..<lhs.count where lhs.storage[offset] != rhs.storage[offset] { return false }
        return true
    }
}
