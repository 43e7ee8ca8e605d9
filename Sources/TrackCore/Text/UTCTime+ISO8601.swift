// ISO 8601 times, read and written in one place: the track CSV and GPX files, export, the
// status and the times a person types (`--since 2026-11-30T12:00:00Z`).

/// Which ISO 8601 times a reader accepts.
public enum ISO8601Form: Sendable {
    /// Times recorded in data files (GPX, track CSV), as RFC 3339 and XML Schema's `dateTime`
    /// write them: `2024-05-01T10:00:00Z`, `…00.5Z`, `…00+02:00`. Date and time with seconds
    /// and a zone, `T` between them, the zone's colon written; a leap second (`:60`) is kept;
    /// digits past milliseconds are dropped, as every clock with a coarser tick drops them.
    case recorded
    /// Times a person types: also a date alone (its midnight UTC), a space for the `T`, no
    /// seconds, `,` for the point and a zone without its colon (`-0500`). A fraction finer
    /// than milliseconds must be zeros (the log keeps milliseconds: a finer time would be cut
    /// without saying so), and `:60` is refused.
    case typed
}

extension UTCTime {
    /// Parses an ISO 8601 instant in `form` (see `ISO8601Form`); nil for anything else: a
    /// missing zone, month 13, 24:00, an offset over 14 hours.
    ///
    /// `2026-11-30T13:00:00.250+01:00` → 2026-11-30T12:00:00.250Z in both forms;
    /// `2026-11-30` → 2026-11-30T00:00:00Z when typed, nil when recorded.
    public init?(iso8601 text: [UInt8], form: ISO8601Form) {
        let bytes = text.span
        let typed = form == .typed
        var index = 0
        guard let year = digits(bytes, &index, 4), take(bytes, &index, UInt8(ascii: "-")),
              let month = digits(bytes, &index, 2), take(bytes, &index, UInt8(ascii: "-")),
              let day = digits(bytes, &index, 2),
              let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        var milliseconds = date.daysSinceEpoch * 86_400_000
        if index == bytes.count {
            guard typed else { return nil }
            self.init(millisecondsSinceEpoch: milliseconds)
            return
        }
        guard take(bytes, &index, UInt8(ascii: "T")) || (typed && take(bytes, &index, UInt8(ascii: " "))),
              let hour = digits(bytes, &index, 2), hour < 24, take(bytes, &index, UInt8(ascii: ":")),
              let minute = digits(bytes, &index, 2), minute < 60 else { return nil }
        var second = 0
        var fraction = 0
        if take(bytes, &index, UInt8(ascii: ":")) {
            guard let value = digits(bytes, &index, 2), value < (typed ? 60 : 61) else { return nil }
            second = value
            if take(bytes, &index, UInt8(ascii: ".")) || (typed && take(bytes, &index, UInt8(ascii: ","))) {
                guard let value = Self.milliseconds(bytes, &index, exact: typed) else { return nil }
                fraction = value
            }
        } else if !typed {
            return nil
        }
        milliseconds += Int64(((hour * 60 + minute) * 60 + second) * 1000 + fraction)
        if take(bytes, &index, UInt8(ascii: "Z")) {
            guard index == bytes.count else { return nil }
        } else {
            let sign: Int64
            if take(bytes, &index, UInt8(ascii: "+")) {
                sign = 1
            } else if take(bytes, &index, UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            guard let hours = digits(bytes, &index, 2), hours <= 14,
                  take(bytes, &index, UInt8(ascii: ":")) || typed,
                  let minutes = digits(bytes, &index, 2), minutes < 60, index == bytes.count else { return nil }
            // 13:00+01:00 is 12:00Z: subtract the offset.
            milliseconds -= sign * Int64(hours * 60 + minutes) * 60_000
        }
        self.init(millisecondsSinceEpoch: milliseconds)
    }

    /// A typed time (`ISO8601Form.typed`), e.g. `"2026-11-30T12:00Z"`.
    public init?(iso8601 text: String) {
        self.init(iso8601: Array(text.utf8), form: .typed)
    }

    /// One or more digits of a fraction of a second, as milliseconds; digits past the third are
    /// dropped, or must be zeros when `exact`.
    static func milliseconds(_ bytes: Span<UInt8>, _ index: inout Int, exact: Bool) -> Int? {
        var value = 0
        var count = 0
        while index < bytes.count, bytes[index] &- 48 < 10 {
            let digit = Int(bytes[index] &- 48)
            if count < 3 {
                value = value * 10 + digit
            } else if exact && digit != 0 {
                return nil
            }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { value *= 10 }
        return value
    }

    /// Appends ISO 8601 with milliseconds, e.g. `2007-12-23T19:32:21.000Z` (decode, status).
    public func write(to buffer: inout TextBuffer) {
        writeSeconds(to: &buffer)
        buffer.append(UInt8(ascii: "."))
        buffer.append(integer: Int(millisecondOfDay % 1000), width: 3)
        buffer.append(UInt8(ascii: "Z"))
    }

    /// Appends ISO 8601 with milliseconds only when they are not zero, as GPX and the shared
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

    /// Appends the date and time of day to the second, e.g. `2007-12-23T19:32:21`.
    func writeSeconds(to buffer: inout TextBuffer) {
        let date = self.date
        let ms = millisecondOfDay
        buffer.append(integer: Int(date.year), width: 4)
        buffer.append(UInt8(ascii: "-"))
        buffer.append(integer: Int(date.month), width: 2)
        buffer.append(UInt8(ascii: "-"))
        buffer.append(integer: Int(date.day), width: 2)
        buffer.append(UInt8(ascii: "T"))
        buffer.append(integer: Int(ms / 3_600_000), width: 2)
        buffer.append(UInt8(ascii: ":"))
        buffer.append(integer: Int(ms / 60_000 % 60), width: 2)
        buffer.append(UInt8(ascii: ":"))
        buffer.append(integer: Int(ms / 1000 % 60), width: 2)
    }
}

/// Takes `byte` at `index` if it is there.
private func take(_ bytes: Span<UInt8>, _ index: inout Int, _ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
}

/// Exactly `count` decimal digits at `index`, as their value.
private func digits(_ bytes: Span<UInt8>, _ index: inout Int, _ count: Int) -> Int? {
    guard index + count <= bytes.count else { return nil }
    var value = 0
    for offset in index..<(index + count) {
        let digit = bytes[offset] &- 48
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
    }
    index += count
    return value
}
