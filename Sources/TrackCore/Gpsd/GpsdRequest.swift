/// One request of gpsd's protocol as a client sends it, e.g. `?WATCH={"enable":true,"json":true};`
/// (the `?` to the `;` or line end, both taken off by the server). Parsing is a pure function of
/// the bytes and allocates nothing.
///
/// | request                   | reply (gpsd 3.22)        |
/// |---------------------------|--------------------------|
/// | `?WATCH={...}` / `?WATCH` | DEVICES, then WATCH      |
/// | `?POLL`                   | POLL                     |
/// | `?DEVICES`                | DEVICES                  |
/// | `?VERSION`                | VERSION                  |
/// | anything else             | ERROR                    |
public enum GpsdRequest: Equatable, Sendable {
    /// `?WATCH`, with what it changes (nil fields keep the client's current setting).
    case watch(GpsdWatchChange)
    case poll
    case devices
    case version
    /// Not a request trackd knows.
    case unknown

    /// The longest request gpsd accepts (its `GPS_JSON_COMMAND_MAX`): 80 bytes.
    public static var maximumLength: Int { 80 }

    /// Parses a request without its terminator, e.g. `?POLL` or `?WATCH={"enable":true}`.
    public static func parse(_ bytes: Span<UInt8>) -> GpsdRequest {
        if matches(bytes, "?WATCH") {
            guard let change = GpsdWatchChange(parsing: bytes, from: 6) else { return .unknown }
            return .watch(change)
        }
        if equals(bytes, "?POLL") { return .poll }
        if equals(bytes, "?DEVICES") { return .devices }
        if equals(bytes, "?VERSION") { return .version }
        return .unknown
    }

    static func matches(_ bytes: Span<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        for index in 0..<count where bytes[index] != prefix.utf8Start[index] { return false }
        return true
    }

    static func equals(_ bytes: Span<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && matches(bytes, word)
    }
}

/// What a `?WATCH` asks to change: `enable`, `json`, `nmea`, `raw` and `device`; other members
/// (`scaled`, `timing`, `split24`, `pps`) are read and ignored, as trackd has nothing they
/// change.
public struct GpsdWatchChange: Equatable, Sendable {
    public var enable: Bool?
    public var json: Bool?
    public var nmea: Bool?
    /// gpsd's raw level 0…2; for an NMEA receiver 1 and 2 also mean the sentences as received.
    public var raw: Int?
    /// The device asked for, e.g. `/dev/serial0`; empty when not named.
    public var device = GpsdDevicePath()

    /// Nothing changed (`?WATCH` alone reports the settings).
    public init() {}

    /// Reads the optional `={...}` of `bytes` at `offset`. Lenient where gpsd 3.22 is: a
    /// missing closing brace is accepted. nil for what is not a flat JSON object.
    init?(parsing bytes: Span<UInt8>, from offset: Int) {
        var index = offset
        guard index < bytes.count else { return }
        guard bytes[index] == UInt8(ascii: "="), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") else { return nil }
        index += 2
        var name = GpsdDevicePath()
        while true {
            skipSpace(bytes, &index)
            guard index < bytes.count else { return }
            if bytes[index] == UInt8(ascii: "}") { return }
            guard readString(bytes, &index, into: &name) else { return nil }
            skipSpace(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace(bytes, &index)
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                let value = bytes[index] == UInt8(ascii: "t")
                let word = value ? 4 : 5
                guard index + word <= bytes.count else { return nil }
                index += word
                if name.equals("enable") { enable = value }
                else if name.equals("json") { json = value }
                else if name.equals("nmea") { nmea = value }
            case UInt8(ascii: "\""):
                var value = GpsdDevicePath()
                guard readString(bytes, &index, into: &value) else { return nil }
                if name.equals("device") { device = value }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                let negative = bytes[index] == UInt8(ascii: "-")
                if negative { index += 1 }
                let digits = index
                while index < bytes.count, bytes[index] &- 48 < 10 { index += 1 }
                // Any level past 2 means 2 to gpsd; a huge one is simply large, not an error.
                let number = (try? DecimalText.unsigned(bytes, digits..<index, maximum: 1_000)) ?? 1_000
                if name.equals("raw") { raw = negative ? 0 : Int(number) }
            default:
                return nil
            }
            skipSpace(bytes, &index)
            guard index < bytes.count else { return }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { return nil }
            return
        }
    }
}

/// A device path of at most 64 bytes in fixed storage, e.g. `/dev/serial0`.
public struct GpsdDevicePath: Equatable, Sendable {
    var storage: InlineArray<64, UInt8> = InlineArray(repeating: 0)
    /// Bytes held.
    public private(set) var count = 0
    /// True when a longer path was cut.
    public private(set) var truncated = false

    /// An empty path.
    public init() {}

    /// The UTF-8 bytes of `text` (start-up only).
    public init(_ text: String) {
        for byte in text.utf8 { append(byte) }
    }

    mutating func append(_ byte: UInt8) {
        guard count < 64 else { truncated = true; return }
        storage[count] = byte
        count += 1
    }

    mutating func removeAll() {
        count = 0
        truncated = false
    }

    /// True when empty.
    public var isEmpty: Bool { count == 0 }

    func equals(_ word: StaticString) -> Bool {
        guard count == word.utf8CodeUnitCount else { return false }
        for index in 0..<count where storage[index] != word.utf8Start[index] { return false }
        return true
    }

    /// Runs `body` over the bytes held.
    public func withSpan<R>(_ body: (Span<UInt8>) -> R) -> R { body(storage.span.extracting(0..<count)) }

    public static func == (lhs: GpsdDevicePath, rhs: GpsdDevicePath) -> Bool {
        guard lhs.count == rhs.count, lhs.truncated == rhs.truncated else { return false }
        for index in 0..<lhs.count where lhs.storage[index] != rhs.storage[index] { return false }
        return true
    }
}

private func skipSpace(_ bytes: Span<UInt8>, _ index: inout Int) {
    while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 { index += 1 }
}

/// A JSON string without escapes beyond `\"` and `\\` (a device path needs no more).
private func readString(_ bytes: Span<UInt8>, _ index: inout Int, into value: inout GpsdDevicePath) -> Bool {
    value.removeAll()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
    index += 1
    while index < bytes.count {
        var byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\"") { return true }
        if byte == UInt8(ascii: "\\") {
            guard index < bytes.count else { return false }
            byte = bytes[index]
            index += 1
        }
        value.append(byte)
    }
    return false
}
