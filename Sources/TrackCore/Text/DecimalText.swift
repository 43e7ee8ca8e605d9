/// Decimal numbers in text, read exactly into scaled integers: the one grammar the NMEA field
/// readers, track CSV and GPX share.
///
/// An optional sign, then digits with at most one point, at least one digit in all: `-12.5`,
/// `+3`, `48.` and `.5` are decimals; `-`, `.`, `1e5`, `12,5`, ` 1` and `0x10` are not. At
/// most 18 significant digits are kept; a value that does not fit once scaled is malformed,
/// never a trap. Digits past `scale` round half away from zero on the first one dropped.
public enum DecimalText {
    /// The decimal in `bytes[range]` × 10^`scale`, e.g. `"-30.45"` with scale 3 → -30_450,
    /// `"1.2345"` with scale 2 → 123, `"48.1173"` with scale 9 → 48_117_300_000; nil when the
    /// range is empty or not a decimal. `scale` is 0 or more.
    @inline(__always)
    public static func read(_ bytes: Span<UInt8>, _ range: Range<Int>, scale: Int) -> Int64? {
        range.isEmpty ? nil : read(nonEmpty: bytes, range, scale: scale)
    }

    /// `read(_:_:scale:)` for a range known not to be empty (the NMEA readers check first).
    @inline(__always)
    static func read(nonEmpty bytes: Span<UInt8>, _ range: Range<Int>, scale: Int) -> Int64? {
        precondition(scale >= 0, "decimal scale must be 0 or more")
        var offset = range.lowerBound
        let end = range.upperBound
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
            // More digits than fit once scaled: malformed, never a trap.
            let (scaled, overflow) = value.multipliedReportingOverflow(by: powerOfTen(scale &- kept))
            guard !overflow else { return nil }
            value = scaled
        }
        if roundUp { value += 1 }
        return negative ? -value : value
    }

    /// The decimal that is all of `text`, e.g. `Array("-0.32347952".utf8)[...]` with scale 7 →
    /// -3_234_795; nil when it is not one.
    public static func read(_ text: ArraySlice<UInt8>, scale: Int) -> Int64? {
        read(text.span, 0..<text.count, scale: scale)
    }
}

/// 10^`exponent` for 0…18 (1 for less than 0).
@inline(__always)
func powerOfTen(_ exponent: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<max(exponent, 0) { result *= 10 }
    return result
}
