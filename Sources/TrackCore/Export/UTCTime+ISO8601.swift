// ISO 8601 for export and for the times a person types (`--since 2026-11-30T12:00:00Z`).

extension UTCTime {
    /// Appends ISO 8601 UTC with milliseconds only when they are not zero, as GPX and the shared
    /// CSV layout write it, e.g. `2026-11-30T12:00:00Z` or `2010-02-01T12:31:38.545Z`.
    public func writeCompact(to buffer: inout TextBuffer) {
        writeSeconds(to: &buffer)
        let ms = millisecondOfDay % 1000
        if ms != 0 {
            buffer.append(UInt8(ascii: "."))
            buffer.append(integer: Int(ms), width: 3)
        }
        buffer.append(UInt8(ascii: "Z"))
    }

    /// Parses an ISO 8601 instant: a date and time with `Z` or an offset, seconds and a fraction
    /// optional, or a date alone (its midnight UTC). Returns nil for anything else (a missing
    /// zone, month 13, 24:00, a fraction finer than milliseconds that is not zeros).
    ///
    /// `2026-11-30T12:00:00Z`, `2026-11-30T12:00Z`, `2026-11-30T13:00:00.250+01:00` and
    /// `2026-11-30` (→ 2026-11-30T00:00:00Z) are accepted; `2026-11-30T12:00:00` is not (which
    /// zone would it be?).
    public init?(iso8601 text: String) {
        var scanner = ISO8601Scanner(bytes: Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
              let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
              let day = scanner.number(digits: 2),
              let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        var milliseconds = date.daysSinceEpoch * 86_400_000
        if scanner.atEnd {
            self.init(millisecondsSinceEpoch: milliseconds)
            return
        }
        guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: " ")),
              let hour = scanner.number(digits: 2), hour < 24, scanner.take(UInt8(ascii: ":")),
              let minute = scanner.number(digits: 2), minute < 60 else { return nil }
        var second = 0
        var fraction = 0
        if scanner.take(UInt8(ascii: ":")) {
            guard let value = scanner.number(digits: 2), value < 60 else { return nil }
            second = value
            if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                guard let value = scanner.milliseconds() else { return nil }
                fraction = value
            }
        }
        milliseconds += Int64(((hour * 60 + minute) * 60 + second) * 1000 + fraction)
        if scanner.take(UInt8(ascii: "Z")) {
            guard scanner.atEnd else { return nil }
        } else {
            let sign: Int64
            if scanner.take(UInt8(ascii: "+")) { sign = 1 } else if scanner.take(UInt8(ascii: "-")) { sign = -1 } else {
                return nil
            }
            guard let hours = scanner.number(digits: 2), hours <= 14 else { return nil }
            _ = scanner.take(UInt8(ascii: ":"))
            guard let minutes = scanner.number(digits: 2), minutes < 60, scanner.atEnd else { return nil }
            // 13:00+01:00 is 12:00Z: subtract the offset.
            milliseconds -= sign * Int64(hours * 60 + minutes) * 60_000
        }
        self.init(millisecondsSinceEpoch: milliseconds)
    }
}

/// Reads fixed-width ASCII numbers and single characters from the front of some bytes.
struct ISO8601Scanner {
    var bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    /// One or more digits of a fraction of a second as milliseconds; digits past the third
    /// must be zeros (the log stores milliseconds, a finer time would be silently cut).
    mutating func milliseconds() -> Int? {
        var value = 0
        var count = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            let digit = Int(bytes[index] - 48)
            if count < 3 { value = value * 10 + digit } else if digit != 0 { return nil }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { value *= 10 }
        return value
    }
}
