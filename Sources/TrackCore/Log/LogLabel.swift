/// A waypoint's label: up to 64 bytes of UTF-8 held inline (no heap), e.g. `"camp 2"`.
///
/// The bytes are stored as given; a longer label is refused, never silently cut.
public struct LogLabel: Equatable, Sendable {
    /// The most bytes a label holds.
    public static var capacity: Int { 64 }

    var storage: InlineArray<64, UInt8>
    /// Number of bytes, 0…64.
    public private(set) var count: Int

    /// An empty label.
    public init() {
        storage = InlineArray(repeating: 0)
        count = 0
    }

    /// The UTF-8 of `text`, or nil when it is longer than 64 bytes, e.g. `LogLabel("camp 2")`.
    public init?(_ text: String) {
        self.init()
        for byte in text.utf8 {
            guard append(byte) else { return nil }
        }
    }

    /// Appends one byte; false (nothing changed) when the label is full.
    public mutating func append(_ byte: UInt8) -> Bool {
        guard count < Self.capacity else { return false }
        storage[count] = byte
        count += 1
        return true
    }

    /// The byte at `index`, 0 ≤ index < count.
    public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "label index out of range")
        return storage[index]
    }

    /// The label as a string (invalid UTF-8 becomes U+FFFD), e.g. for export.
    public var string: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for index in 0..<count { bytes.append(storage[index]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func == (lhs: LogLabel, rhs: LogLabel) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lhs.storage[index] != rhs.storage[index] { return false }
        return true
    }
}
