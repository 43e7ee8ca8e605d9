/// The readers the decoders use, reading the sentence where it lies.
///
/// They are `mutating` only so that `self` is an address: a non-mutating method receives this
/// ~330-byte struct as a value, and reading one byte of its `InlineArray` then copies the
/// whole buffer to the stack first (a 256-byte memcpy per field). None of them writes.
/// Each behaves exactly as its public namesake in `NMEASentence+Fields.swift`.
extension NMEASentence {
    /// The byte range of field `index`, or `0..<0` past the last field.
    @inline(__always)
    mutating func fieldRange(_ index: Int) -> Range<Int> {
        guard index < fieldCount else { return 0..<0 }
        let ends = fieldEnd.span
        let end = Int(ends[index])
        let start = index == 0 ? 0 : Int(ends[index - 1]) &+ 1
        return start..<end
    }

    /// See `character(_:)`.
    @inline(__always)
    mutating func readCharacter(_ index: Int) throws(NMEAError) -> UInt8? {
        let field = fieldRange(index)
        if field.isEmpty { return nil }
        guard field.count == 1 else { throw .malformedField(type, field: index) }
        return bytes.span[field.lowerBound]
    }

    /// See `decimal(_:scale:)`.
    @inline(__always)
    mutating func readDecimal(_ index: Int, scale: Int) throws(NMEAError) -> Int64? {
        let field = fieldRange(index)
        if field.isEmpty { return nil }
        guard let value = DecimalText.read(bytes.span, field, scale: scale) else {
            throw .malformedField(type, field: index)
        }
        return value
    }

    /// See `decimal(_:scale:in:)`.
    @inline(__always)
    mutating func readDecimal(_ index: Int, scale: Int, in limits: ClosedRange<Int64>) throws(NMEAError) -> Int64? {
        guard let value = try readDecimal(index, scale: scale) else { return nil }
        guard limits.contains(value) else { throw .outOfRange(type, field: index) }
        return value
    }

    /// See `integer(_:in:)`.
    @inline(__always)
    mutating func readInteger(_ index: Int, in limits: ClosedRange<Int> = 0...Int(Int32.max)) throws(NMEAError) -> Int? {
        let field = fieldRange(index)
        if field.isEmpty { return nil }
        let value = FieldParser.unsigned(bytes.span, field)
        guard value >= 0 else { throw .malformedField(type, field: index) }
        guard limits.contains(value) else { throw .outOfRange(type, field: index) }
        return value
    }

    /// See `time(_:)`.
    mutating func readTime(_ index: Int) throws(NMEAError) -> TimeOfDay? {
        let field = fieldRange(index)
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

    /// See `date(_:)`.
    mutating func readDate(_ index: Int) throws(NMEAError) -> CalendarDate? {
        let field = fieldRange(index)
        if field.isEmpty { return nil }
        guard field.count == 6 else { throw .malformedField(type, field: index) }
        let value = FieldParser.unsigned(bytes.span, field)
        guard value >= 0 else { throw .malformedField(type, field: index) }
        let day = value / 10000, month = value / 100 % 100, yy = value % 100
        let year = yy >= 80 ? 1900 + yy : 2000 + yy
        guard let date = CalendarDate(year: year, month: month, day: day) else {
            throw .outOfRange(type, field: index)
        }
        return date
    }

    /// See `angle(_:maximumDegrees:)`.
    mutating func readAngle(_ index: Int, maximumDegrees: Int64) throws(NMEAError) -> Int64? {
        let field = fieldRange(index)
        let hemisphere = try readCharacter(index + 1)
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
