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
}
