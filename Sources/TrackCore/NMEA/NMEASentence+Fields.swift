/// Typed field readers. Each returns `nil` for an empty or missing field (absent data is
/// never zero) and throws `malformedField` / `outOfRange` naming the sentence type and field.
extension NMEASentence {
    /// True when field `index` is empty or beyond the last field.
    @inline(__always)
    public func isEmpty(_ index: Int) -> Bool { range(of: index).isEmpty }

    /// The single character of field `index`, e.g. `A` in `...,A,...`; nil when empty.
    public func character(_ index: Int) throws(NMEAError) -> UInt8? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard field.count == 1 else { throw .malformedField(type, field: index) }
        return bytes[field.lowerBound]
    }

    /// A decimal number scaled by 10^`scale` and rounded half away from zero,
    /// e.g. `"-30.45"` with scale 3 → -30450, `"1.2345"` with scale 2 → 123.
    public func decimal(_ index: Int, scale: Int) throws(NMEAError) -> Int64? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard let value = parseDecimal(field, scale: scale) else { throw .malformedField(type, field: index) }
        return value
    }

    /// A decimal checked against `limits` (in the scaled unit).
    public func decimal(_ index: Int, scale: Int, in limits: ClosedRange<Int64>) throws(NMEAError) -> Int64? {
        guard let value = try decimal(index, scale: scale) else { return nil }
        guard limits.contains(value) else { throw .outOfRange(type, field: index) }
        return value
    }

    /// An unsigned integer field, e.g. `"08"` → 8, checked against `limits`.
    public func integer(_ index: Int, in limits: ClosedRange<Int> = 0...Int(Int32.max)) throws(NMEAError) -> Int? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard field.count <= 9 else { throw .malformedField(type, field: index) }
        var value = 0
        for offset in field {
            let digit = bytes[offset] &- 48
            guard digit < 10 else { throw .malformedField(type, field: index) }
            value = value * 10 + Int(digit)
        }
        guard limits.contains(value) else { throw .outOfRange(type, field: index) }
        return value
    }

    /// `hhmmss[.sss]` → time of day, e.g. `"123519.50"` → 12:35:19.500. Hour ≤ 23,
    /// minutes < 60, seconds ≤ 60 (a leap second); digits past milliseconds are dropped.
    public func time(_ index: Int) throws(NMEAError) -> TimeOfDay? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard field.count >= 6 else { throw .malformedField(type, field: index) }
        let start = field.lowerBound
        var digits: InlineArray<6, Int32> = InlineArray(repeating: 0)
        for position in 0..<6 {
            let digit = bytes[start + position] &- 48
            guard digit < 10 else { throw .malformedField(type, field: index) }
            digits[position] = Int32(digit)
        }
        let hour = digits[0] * 10 + digits[1]
        let minute = digits[2] * 10 + digits[3]
        let second = digits[4] * 10 + digits[5]
        var millisecond: Int32 = 0
        if field.count > 6 {
            guard bytes[start + 6] == UInt8(ascii: ".") else { throw .malformedField(type, field: index) }
            var scale: Int32 = 100
            for offset in (start + 7)..<field.upperBound {
                let digit = bytes[offset] &- 48
                guard digit < 10 else { throw .malformedField(type, field: index) }
                millisecond += Int32(digit) * scale
                scale /= 10
            }
        }
        guard hour <= 23, minute <= 59, second <= 60 else { throw .outOfRange(type, field: index) }
        return TimeOfDay(millisecondsSinceMidnight: ((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }

    /// `ddmmyy` → date, e.g. `"231207"` → 2007-12-23. Two-digit years 80–99 are 1980–1999
    /// (GPS began in 1980), 00–79 are 2000–2079.
    public func date(_ index: Int) throws(NMEAError) -> CalendarDate? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard field.count == 6 else { throw .malformedField(type, field: index) }
        var value = 0
        for offset in field {
            let digit = bytes[offset] &- 48
            guard digit < 10 else { throw .malformedField(type, field: index) }
            value = value * 10 + Int(digit)
        }
        let day = value / 10000, month = value / 100 % 100, yy = value % 100
        let year = yy >= 80 ? 1900 + yy : 2000 + yy
        guard let date = CalendarDate(year: year, month: month, day: day) else {
            throw .outOfRange(type, field: index)
        }
        return date
    }

    /// A latitude or longitude in NMEA's `(d)ddmm.mmmm` at `index` with its hemisphere letter
    /// at `index + 1`, in nanodegrees (south and west negative), e.g. `"4807.038","N"` →
    /// 48_117_300_000. `maximumDegrees` is 90 or 180. Both fields empty → nil.
    public func angle(_ index: Int, maximumDegrees: Int64) throws(NMEAError) -> Int64? {
        let field = range(of: index)
        let hemisphere = try character(index + 1)
        if field.isEmpty {
            return nil
        }
        let negative: Bool
        switch hemisphere {
        case UInt8(ascii: "N") where maximumDegrees == 90, UInt8(ascii: "E") where maximumDegrees == 180:
            negative = false
        case UInt8(ascii: "S") where maximumDegrees == 90, UInt8(ascii: "W") where maximumDegrees == 180:
            negative = true
        case nil:
            return nil
        default:
            throw .malformedField(type, field: index + 1)
        }
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var seenPoint = false
        var wholeDigits = 0
        for offset in field {
            let byte = bytes[offset]
            if byte == UInt8(ascii: ".") && !seenPoint { seenPoint = true; continue }
            let digit = byte &- 48
            guard digit < 10 else { throw .malformedField(type, field: index) }
            if seenPoint {
                // Survey receivers send 7 decimals of minutes; beyond 9 is below a micrometre.
                if fractionDigits < 9 { fraction = fraction * 10 + Int64(digit); fractionDigits += 1 }
            } else {
                whole = whole * 10 + Int64(digit)
                wholeDigits += 1
                guard wholeDigits <= 5 else { throw .malformedField(type, field: index) }
            }
        }
        guard wholeDigits >= 3 else { throw .malformedField(type, field: index) }
        let degrees = whole / 100
        let minutes = whole % 100
        guard minutes < 60 else { throw .outOfRange(type, field: index) }
        // Minutes in units of 1e-9 minute: at most 6e10, so no overflow on the way.
        var nanominutes = minutes * 1_000_000_000 + fraction * powerOfTen(9 - fractionDigits)
        nanominutes = (nanominutes + 30) / 60
        let value = degrees * 1_000_000_000 + nanominutes
        guard value <= maximumDegrees * 1_000_000_000 else { throw .outOfRange(type, field: index) }
        return negative ? -value : value
    }

    /// Shared decimal parser: optional sign, digits, optional point and digits; nil if malformed.
    func parseDecimal(_ field: Range<Int>, scale: Int) -> Int64? {
        var offset = field.lowerBound
        var negative = false
        if bytes[offset] == UInt8(ascii: "-") || bytes[offset] == UInt8(ascii: "+") {
            negative = bytes[offset] == UInt8(ascii: "-")
            offset += 1
        }
        var value: Int64 = 0
        var decimals = -1
        var digits = 0
        var roundUp = false
        while offset < field.upperBound {
            let byte = bytes[offset]
            offset += 1
            if byte == UInt8(ascii: ".") {
                guard decimals < 0 else { return nil }
                decimals = 0
                continue
            }
            let digit = byte &- 48
            guard digit < 10 else { return nil }
            digits += 1
            if decimals >= scale {
                // Beyond the kept precision: only the first dropped digit decides rounding.
                if decimals == scale { roundUp = digit >= 5 }
                decimals += 1
                continue
            }
            guard value < 100_000_000_000_000_000 else { return nil }
            value = value * 10 + Int64(digit)
            if decimals >= 0 { decimals += 1 }
        }
        guard digits > 0 else { return nil }
        let kept = max(decimals, 0)
        if kept < scale { value *= powerOfTen(scale - kept) }
        if roundUp { value += 1 }
        return negative ? -value : value
    }
}

@inline(__always)
func powerOfTen(_ exponent: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<max(exponent, 0) { result *= 10 }
    return result
}
