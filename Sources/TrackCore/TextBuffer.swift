/// A fixed-size byte buffer for building one line of output without touching the heap,
/// e.g. `{"lat":48.117300000}` from the integer `48_117_300_000` nanodegrees.
///
/// Appends past `capacity` are dropped and counted in `overflowed`, so a caller can tell a
/// truncated line from a whole one; nothing traps.
///
/// The appends other than of one byte are `@inline(never)`: written out at every call they
/// made the status and JSON writers several KB larger in the firmware.
public struct TextBuffer: ~Copyable {
    /// Bytes the buffer holds: a SKY of gpsd's most satellites (140, ~7.9 KB), the longest
    /// object trackd writes. Not more: a buffer on the stack is zeroed and resident once used,
    /// and a microcontroller's whole stack is 64 KiB.
    public static var capacity: Int { 8_192 }

    @usableFromInline var storage: InlineArray<8192, UInt8>
    /// Number of bytes written so far.
    public private(set) var count: Int
    /// True once an append did not fit.
    public private(set) var overflowed: Bool

    /// An empty buffer.
    public init() {
        storage = InlineArray(repeating: 0)
        count = 0
        overflowed = false
    }

    /// Forgets the contents.
    public mutating func removeAll() {
        count = 0
        overflowed = false
    }

    /// Forgets what came after the first `count` bytes, e.g. an object that did not fit whole.
    public mutating func truncate(to count: Int) {
        guard count >= 0, count < self.count else { return }
        self.count = count
        // Bytes are dropped only at the capacity: below it, nothing before `count` was.
        overflowed = false
    }

    /// Appends one byte, e.g. `UInt8(ascii: ",")`.
    public mutating func append(_ byte: UInt8) {
        guard count < Self.capacity else { overflowed = true; return }
        storage[count] = byte
        count += 1
    }

    /// Appends a literal such as `"\"class\":\"TPV\""`.
    @inline(never)
    public mutating func append(_ text: StaticString) {
        let start = text.utf8Start
        for offset in 0..<text.utf8CodeUnitCount { append(start[offset]) }
    }

    /// Appends the UTF-8 bytes of a span (e.g. a field of a sentence).
    @inline(never)
    public mutating func append(bytes: Span<UInt8>) {
        for index in bytes.indices { append(bytes[index]) }
    }

    /// Appends the UTF-8 of a string (start-up and error paths only: may be slow).
    @inline(never)
    public mutating func append(string: String) {
        for byte in string.utf8 { append(byte) }
    }

    /// Appends a decimal integer, e.g. `-42` → `"-42"`.
    @inline(never)
    public mutating func append(integer value: Int64) {
        appendFixed(value, decimals: 0)
    }

    /// Appends `value / 10^decimals` with exactly `decimals` digits after the point,
    /// e.g. `(-870680797, 7)` → `"-87.0680797"`, `(5, 3)` → `"0.005"`.
    @inline(never)
    public mutating func appendFixed(_ value: Int64, decimals: Int) {
        var magnitude = value.magnitude
        if value < 0 { append(UInt8(ascii: "-")) }
        // At most 20 digits for a UInt64 plus the decimals' leading zeros.
        var digits: InlineArray<40, UInt8> = InlineArray(repeating: 0)
        var used = 0
        repeat {
            digits[used] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 48
            magnitude /= 10
            used += 1
        } while magnitude > 0 || used <= decimals
        while used > 0 {
            used -= 1
            append(digits[used])
            if used == decimals && decimals > 0 { append(UInt8(ascii: ".")) }
        }
    }

    /// Appends a non-negative `value` as at least `width` digits with leading zeros,
    /// e.g. `(7, 2)` → `"07"`.
    @inline(never)
    public mutating func append(integer value: Int, width: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        for _ in digits..<max(width, digits) { append(UInt8(ascii: "0")) }
        append(integer: Int64(value))
    }

    /// Calls `body` with the bytes written so far.
    ///
    /// Mutating (it changes nothing) so that the buffer is read where it is: a borrowed
    /// TextBuffer, like a `borrowing` parameter of one, is copied to the stack at every call in
    /// the firmware (the whole capacity each, and a function holding several kept them all: 76
    /// KiB of stack for `trackctl status` when it held 4 KiB, resident from then on). Pass one
    /// `inout`, as the writers do. (Not through `mutableSpan`: the host build allocated a box for
    /// it at every call.)
    @inlinable public mutating func withBytes<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(storage.span.extracting(0..<count))
    }

    /// The contents as a string (tests and error paths).
    public var string: String {
        mutating get {
            withBytes { span in
                var bytes = [UInt8]()
                bytes.reserveCapacity(span.count)
                for index in span.indices { bytes.append(span[index]) }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }
}
