/// Typed field readers. Each returns `nil` for an empty or missing field (absent data is
/// never zero) and throws `malformedField` / `outOfRange` naming the sentence type and field.
///
/// The public readers work on a copy of the sentence; the decoders use the in-place `read…`
/// twins in `NMEASentence+InPlace.swift`, which share their parsers.
extension NMEASentence {
    /// True when field `index` is empty or beyond the last field.
    @inline(__always)
    public func isEmpty(_ index: Int) -> Bool { range(of: index).isEmpty }

    /// The single character of field `index`, e.g. `A` in `...,A,...`; nil when empty.
    public func character(_ index: Int) throws(NMEAError) -> UInt8? {
        var sentence = self
        return try sentence.readCharacter(index)
    }

    /// A decimal number scaled by 10^`scale` and rounded half away from zero,
    /// e.g. `"-30.45"` with scale 3 → -30450, `"1.2345"` with scale 2 → 123.
    public func decimal(_ index: Int, scale: Int) throws(NMEAError) -> Int64? {
        var sentence = self
        return try sentence.readDecimal(index, scale: scale)
    }

    /// A decimal checked against `limits` (in the scaled unit).
    public func decimal(_ index: Int, scale: Int, in limits: ClosedRange<Int64>) throws(NMEAError) -> Int64? {
        var sentence = self
        return try sentence.readDecimal(index, scale: scale, in: limits)
    }

    /// An unsigned integer field, e.g. `"08"` → 8, checked against `limits`.
    public func integer(_ index: Int, in limits: ClosedRange<Int> = 0...Int(Int32.max)) throws(NMEAError) -> Int? {
        var sentence = self
        return try sentence.readInteger(index, in: limits)
    }

    /// `hhmmss[.sss]` → time of day, e.g. `"123519.50"` → 12:35:19.500. Hour ≤ 23,
    /// minutes < 60, seconds ≤ 60 (a leap second); digits past milliseconds are dropped.
    public func time(_ index: Int) throws(NMEAError) -> TimeOfDay? {
        var sentence = self
        return try sentence.readTime(index)
    }

    /// `ddmmyy` → date, e.g. `"231207"` → 2007-12-23. Two-digit years 80–99 are 1980–1999
    /// (GPS began in 1980), 00–79 are 2000–2079.
    public func date(_ index: Int) throws(NMEAError) -> CalendarDate? {
        var sentence = self
        return try sentence.readDate(index)
    }

    /// A latitude or longitude in NMEA's `(d)ddmm.mmmm` at `index` with its hemisphere letter
    /// at `index + 1`, in nanodegrees (south and west negative), e.g. `"4807.038","N"` →
    /// 48_117_300_000. `maximumDegrees` is 90 or 180. Both fields empty → nil.
    public func angle(_ index: Int, maximumDegrees: Int64) throws(NMEAError) -> Int64? {
        var sentence = self
        return try sentence.readAngle(index, maximumDegrees: maximumDegrees)
    }
}

/// Field parsers: pure functions of a field's bytes, `bytes[field]`. They return `nil` (or
/// -1) for malformed syntax and leave range checks and errors to the readers.
enum FieldParser {
    /// Up to 9 decimal digits → their value; -1 for more digits or a non-digit.
    @inline(__always)
    static func unsigned(_ bytes: Span<UInt8>, _ field: Range<Int>) -> Int {
        guard field.count <= 9 else { return -1 }
        var value = 0
        for offset in field {
            let digit = bytes[offset] &- 48
            guard digit < 10 else { return -1 }
            value = value &* 10 &+ Int(digit)
        }
        return value
    }

    /// Optional sign, digits, optional point and digits, scaled by 10^`scale` and rounded half
    /// away from zero on the first dropped digit; nil if malformed. `field` is not empty.
    /// At most 18 significant digits are kept (more is malformed).
    @inline(__always)
    static func decimal(_ bytes: Span<UInt8>, _ field: Range<Int>, scale: Int) -> Int64? {
        precondition(scale >= 0, "decimal scale must be 0 or more")
        var offset = field.lowerBound
        let end = field.upperBound
        let first = bytes[offset]
        let negative = first == UInt8(ascii: "-")
        if negative || first == UInt8(ascii: "+") { offset &+= 1 }
        var value: Int64 = 0
        // Digits before the point: all kept.
        let wholeStart = offset
        while offset < end {
            let digit = bytes[offset] &- 48
            if digit >= 10 { break }
            guard value < 100_000_000_000_000_000 else { return nil }
            value = value &* 10 &+ Int64(digit)
            offset &+= 1
        }
        var digits = offset &- wholeStart
        var kept = 0
        var roundUp = false
        if offset < end {
            guard bytes[offset] == UInt8(ascii: ".") else { return nil }
            offset &+= 1
            // Digits after the point: `scale` kept, the next one decides rounding, the rest
            // only have to be digits.
            let fractionStart = offset
            while offset < end {
                let digit = bytes[offset] &- 48
                guard digit < 10 else { return nil }
                if kept < scale {
                    guard value < 100_000_000_000_000_000 else { return nil }
                    value = value &* 10 &+ Int64(digit)
                    kept &+= 1
                } else if kept == scale {
                    roundUp = digit >= 5
                    kept &+= 1
                }
                offset &+= 1
            }
            digits &+= offset &- fractionStart
        }
        guard digits > 0 else { return nil }
        if kept < scale {
            // A receiver can send more digits than fit once scaled: malformed, never a trap.
            let (scaled, overflow) = value.multipliedReportingOverflow(by: powerOfTen(scale - kept))
            guard !overflow else { return nil }
            value = scaled
        }
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
