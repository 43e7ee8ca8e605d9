/// Typed field readers, the one set the decoders, tools and tests use. Each returns `nil` for
/// an empty or missing field (absent data is never zero) and throws `malformedField` /
/// `outOfRange` naming the sentence type and field, e.g. `GGA field 2: out of range`.
///
/// They are `mutating` only so that `self` is an address; none of them writes. A non-mutating
/// method receives this ~330-byte struct as a value, and taking a span of its `InlineArray`
/// then copies the whole buffer to the stack first: a 256-byte memcpy per field read.
extension NMEASentence {
    /// The byte range of field `index` (`0..<0` past the last field, so absent fields read
    /// empty), e.g. 6..<14 for `4807.038` in `GPGGA,123519,4807.038,…`.
    @inline(__always)
    public mutating func range(of index: Int) -> Range<Int> {
        guard index < fieldCount else { return 0..<0 }
        let ends = fieldEnd.span
        let end = Int(ends[index])
        let start = index == 0 ? 0 : Int(ends[index - 1]) &+ 1
        return start..<end
    }

    /// True when field `index` is empty or beyond the last field.
    @inline(__always)
    public mutating func isEmpty(_ index: Int) -> Bool { range(of: index).isEmpty }

    /// The single character of field `index`, e.g. `A` in `...,A,...`; nil when empty.
    @inline(__always)
    public mutating func character(_ index: Int) throws(NMEAError) -> UInt8? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard field.count == 1 else { throw .malformedField(type, field: index) }
        return bytes.span[field.lowerBound]
    }

    /// A decimal number scaled by 10^`scale` and rounded half away from zero (`DecimalText`),
    /// e.g. `"-30.45"` with scale 3 → -30450, `"1.2345"` with scale 2 → 123.
    @inline(__always)
    public mutating func decimal(_ index: Int, scale: Int) throws(NMEAError) -> Int64? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard let value = DecimalText.read(nonEmpty: bytes.span, field, scale: scale) else {
            throw .malformedField(type, field: index)
        }
        return value
    }

    /// A decimal checked against `limits` (in the scaled unit), e.g. HDOP `"0.9"` with scale 2
    /// in 0…99_999 → 90.
    @inline(__always)
    public mutating func decimal(_ index: Int, scale: Int, in limits: ClosedRange<Int64>) throws(NMEAError) -> Int64? {
        guard let value = try decimal(index, scale: scale) else { return nil }
        guard limits.contains(value) else { throw .outOfRange(type, field: index) }
        return value
    }

    /// A number rounded to a whole, e.g. a GSV elevation `"07"` → 7 or `"-3"` → -3, checked
    /// against `limits`: exactly what `decimal(index, scale: 0, in: limits)` returns, with
    /// plain digits (nearly every receiver's elevations and azimuths) read by the integer
    /// reader and anything else (a sign, a fraction) by the decimal one.
    @inline(__always)
    public mutating func whole(_ index: Int, in limits: ClosedRange<Int64>) throws(NMEAError) -> Int64? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard let value = DecimalText.wholeNumber(bytes.span, field) else { return try wholeByDecimal(index, in: limits) }
        guard limits.contains(value) else { throw .outOfRange(type, field: index) }
        return value
    }

    /// `whole`'s reading of a field that is not plain digits, out of line so that the plain
    /// case stays small enough to inline.
    @inline(never)
    mutating func wholeByDecimal(_ index: Int, in limits: ClosedRange<Int64>) throws(NMEAError) -> Int64? {
        try decimal(index, scale: 0, in: limits)
    }

    /// An unsigned integer field of plain digits up to 999,999,999 (`DecimalText.unsigned`), e.g. `"08"` → 8, checked against `limits`.
    @inline(__always)
    public mutating func integer(_ index: Int, in limits: ClosedRange<Int> = 0...Int(Int32.max)) throws(NMEAError) -> Int? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard let value = DecimalText.wholeNumber(bytes.span, field), value <= 999_999_999 else {
            throw .malformedField(type, field: index)
        }
        guard limits.contains(Int(value)) else { throw .outOfRange(type, field: index) }
        return Int(value)
    }

    /// `hhmmss[.sss]` → time of day, e.g. `"123519.50"` → 12:35:19.500. Hour ≤ 23,
    /// minutes < 60, seconds ≤ 60 (a leap second); digits past milliseconds are dropped.
    public mutating func time(_ index: Int) throws(NMEAError) -> TimeOfDay? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard field.count >= 6 else { throw .malformedField(type, field: index) }
        let bytes = bytes.span
        let start = field.lowerBound
        func digit(_ offset: Int) -> Int32 { Int32(bytes[offset] &- 48) }
        var valid = true
        for offset in start..<(start + 6) where bytes[offset] &- 48 >= 10 { valid = false }
        guard valid else { throw .malformedField(type, field: index) }
        let hour = digit(start) * 10 + digit(start + 1)
        let minute = digit(start + 2) * 10 + digit(start + 3)
        let second = digit(start + 4) * 10 + digit(start + 5)
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
    public mutating func date(_ index: Int) throws(NMEAError) -> CalendarDate? {
        let field = range(of: index)
        if field.isEmpty { return nil }
        guard field.count == 6 else { throw .malformedField(type, field: index) }
        guard let digits = DecimalText.wholeNumber(bytes.span, field) else { throw .malformedField(type, field: index) }
        let value = Int(digits)
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
    public mutating func angle(_ index: Int, maximumDegrees: Int64) throws(NMEAError) -> Int64? {
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
        let bytes = bytes.span
        var offset = field.lowerBound
        let end = field.upperBound
        // Whole degrees and minutes, (d)ddmm: 3 to 5 digits.
        var whole: Int64 = 0
        while offset < end {
            let digit = bytes[offset] &- 48
            guard digit < 10 else { break }
            whole = whole &* 10 &+ Int64(digit)
            offset &+= 1
        }
        let wholeDigits = offset - field.lowerBound
        guard wholeDigits >= 3, wholeDigits <= 5 else { throw .malformedField(type, field: index) }
        // Decimals of minutes after the point.
        var fraction: Int64 = 0
        var fractionDigits = 0
        if offset < end {
            guard bytes[offset] == UInt8(ascii: ".") else { throw .malformedField(type, field: index) }
            offset &+= 1
            while offset < end {
                let digit = bytes[offset] &- 48
                guard digit < 10 else { throw .malformedField(type, field: index) }
                // Survey receivers send 7 decimals of minutes; beyond 9 is below a micrometre.
                if fractionDigits < 9 { fraction = fraction &* 10 &+ Int64(digit); fractionDigits &+= 1 }
                offset &+= 1
            }
        }
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
}
