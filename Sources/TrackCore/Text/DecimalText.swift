/// Decimal numbers in text, read exactly into integers: the one grammar every reader of numbers
/// in the project shares (NMEA fields, track CSV and GPX, the config, cursors, addresses, the
/// group file, segment names, LED patterns).
///
/// An optional sign, then digits with at most one point, at least one digit in all: `-12.5`,
/// `+3`, `48.` and `.5` are decimals; `-`, `.`, `1e5`, `12,5`, ` 1` and `0x10` are not. At
/// most 18 significant digits are kept; a value that does not fit is an error, never a trap.
/// Leading zeros are allowed and mean nothing (`007` is 7, never octal). Three readings:
///
/// * `read(_:_:scale:)`: × 10^scale, digits past `scale` rounded half away from zero on the
///   first one dropped (NMEA fields, coordinates);
/// * `exact(_:_:)`: every digit kept, as a mantissa and its count of decimals (the config,
///   where "2.5" metres is 2_500 mm and "0.0001 s" is an error, not 0 ms);
/// * `unsigned(_:_:maximum:)`: a whole number of plain digits, no sign and no point, at most
///   18 of them, leading zeros included (counts, ports, offsets, identifiers).
public enum DecimalText {
    /// Why a text is not the number asked for.
    public enum Problem: Error, Equatable, Sendable {
        /// Not a number of the grammar (or, for `unsigned`, not plain digits), e.g. `1e5`, ``.
        case malformed
        /// More than 18 significant digits, or (`unsigned`) more than the maximum.
        case tooLarge
        /// `exact` only: a non-zero digit more than 18 places after the point.
        case tooPrecise
    }

    /// The largest whole number `unsigned` reads, 10^18 - 1: 18 digits, so that one more digit
    /// cannot overflow Int64.
    public static var maximum: Int64 { 999_999_999_999_999_999 }

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
        var problem = Problem.malformed
        return scaled(nonEmpty: bytes, range, scale: scale, problem: &problem)
    }

    /// The decimal that is all of `text`, e.g. `Array("-0.32347952".utf8)[...]` with scale 7 →
    /// -3_234_795; nil when it is not one.
    public static func read(_ text: ArraySlice<UInt8>, scale: Int) -> Int64? {
        read(text.span, 0..<text.count, scale: scale)
    }

    /// The decimal in `bytes[range]` with every digit kept: `mantissa` ÷ 10^`decimals`, trailing
    /// zeros of the fraction dropped, e.g. `"2.50"` → (25, 1), `"-3"` → (-3, 0), `"0.0001"` →
    /// (1, 4), `"7.000"` → (7, 0). Throws `malformed` for what is not a decimal, `tooLarge`
    /// past 18 significant digits, `tooPrecise` for a digit more than 18 places after the point.
    public static func exact(_ bytes: Span<UInt8>, _ range: Range<Int>) throws(Problem) -> (mantissa: Int64, decimals: Int) {
        guard !range.isEmpty else { throw .malformed }
        // The scale that keeps every significant digit: the fraction up to its last non-zero
        // digit. At that scale `scaled` drops only zeros, so nothing is rounded.
        var decimals = 0
        var point = -1
        for offset in range {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "."), point < 0 {
                point = offset
            } else if point >= 0, byte != UInt8(ascii: "0") {
                decimals = offset &- point
            }
        }
        guard decimals <= 18 else {
            // A second point or a letter there is malformed before it is precise.
            var problem = Problem.tooPrecise
            _ = scaled(nonEmpty: bytes, range, scale: 0, problem: &problem)
            throw problem
        }
        var problem = Problem.malformed
        guard let mantissa = scaled(nonEmpty: bytes, range, scale: decimals, problem: &problem) else { throw problem }
        return (mantissa, decimals)
    }

    /// The whole number of plain digits that is all of `bytes[range]`, at most `maximum`, e.g.
    /// `"2947"` → 2947, `"007"` → 7. Throws `malformed` when the range is empty or holds
    /// anything but digits (`-1`, `+1`, `1.0`, ` 1`, `0x1F`), `tooLarge` above `maximum` or
    /// past 18 digits.
    @inline(__always)
    public static func unsigned(_ bytes: Span<UInt8>, _ range: Range<Int>, maximum: Int64 = DecimalText.maximum) throws(Problem) -> Int64 {
        guard let value = wholeNumber(bytes, range) else {
            var digitsOnly = !range.isEmpty
            for offset in range where bytes[offset] &- 48 >= 10 { digitsOnly = false }
            throw digitsOnly ? .tooLarge : .malformed
        }
        guard value <= maximum else { throw .tooLarge }
        return value
    }

    /// `unsigned(_:_:maximum:)` without the maximum, as an optional: nil for either problem
    /// (the NMEA field readers, where this is the hot path).
    @inline(__always)
    static func wholeNumber(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Int64? {
        // 18 digits cannot overflow, so no digit needs a check of its own. (Skipping leading
        // zeros past 18 digits, or reading them out of line, costs the NMEA decoders 10 to 50
        // instructions per line in `scripts/bench nmea`, for numbers nobody writes.)
        guard range.count <= 18 else { return nil }
        var value: Int64 = 0
        for offset in range {
            let digit = bytes[offset] &- 48
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
        }
        return range.isEmpty ? nil : value
    }

    /// `unsigned(_:_:maximum:)` of all of `text`, e.g. `Array("0042".utf8)[...]` → 42.
    public static func unsigned(_ text: ArraySlice<UInt8>, maximum: Int64 = DecimalText.maximum) throws(Problem) -> Int64 {
        try unsigned(text.span, 0..<text.count, maximum: maximum)
    }

    /// `unsigned(_:_:maximum:)` of all of `text`, e.g. `"500"` → 500.
    public static func unsigned(_ text: String, maximum: Int64 = DecimalText.maximum) throws(Problem) -> Int64 {
        let bytes = text.utf8.span
        return try unsigned(bytes, 0..<bytes.count, maximum: maximum)
    }

    /// The length of the longest start of `bytes[range]` made of what a decimal is made of (a
    /// sign first, then digits and points), for a number followed by other text, e.g. 3 for
    /// `"2.5m"`, 6 for `"-1.2.3 s"` (which `exact` then refuses), 0 for `"m"`.
    public static func length(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Int {
        var offset = range.lowerBound
        if offset < range.upperBound, bytes[offset] == UInt8(ascii: "-") || bytes[offset] == UInt8(ascii: "+") {
            offset &+= 1
        }
        while offset < range.upperBound, bytes[offset] &- 48 < 10 || bytes[offset] == UInt8(ascii: ".") {
            offset &+= 1
        }
        return offset &- range.lowerBound
    }

    /// The reader itself: the decimal in the non-empty `bytes[range]` × 10^`scale`, rounded;
    /// nil with `problem` set when it is none. (A typed throw here costs the NMEA decoders
    /// about 2 instructions per line.)
    @inline(__always)
    static func scaled(nonEmpty bytes: Span<UInt8>, _ range: Range<Int>, scale: Int, problem: inout Problem) -> Int64? {
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
            guard value < 100_000_000_000_000_000 else { problem = .tooLarge; return nil }
            value = value &* 10 &+ Int64(digit)
            offset &+= 1
        }
        var count = offset &- wholeStart
        var kept = 0
        var roundUp = false
        if offset < end {
            guard bytes[offset] == UInt8(ascii: ".") else { problem = .malformed; return nil }
            offset &+= 1
            // Digits after the point: `scale` kept, the next one decides rounding, the rest
            // only have to be digits.
            let fractionStart = offset
            while offset < end {
                let digit = bytes[offset] &- 48
                guard digit < 10 else { problem = .malformed; return nil }
                if kept < scale {
                    guard value < 100_000_000_000_000_000 else { problem = .tooLarge; return nil }
                    value = value &* 10 &+ Int64(digit)
                    kept &+= 1
                } else if kept == scale {
                    roundUp = digit >= 5
                    kept &+= 1
                }
                offset &+= 1
            }
            count &+= offset &- fractionStart
        }
        guard count > 0 else { problem = .malformed; return nil }
        if kept < scale {
            // More digits than fit once scaled: too large, never a trap.
            let (scaledValue, overflow) = value.multipliedReportingOverflow(by: powerOfTen(scale &- kept))
            guard !overflow else { problem = .tooLarge; return nil }
            value = scaledValue
        }
        if roundUp { value += 1 }
        return negative ? -value : value
    }
}

/// 10^`exponent` for 0…18 (1 for less than 0).
@inline(__always)
func powerOfTen(_ exponent: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<max(exponent, 0) { result *= 10 }
    return result
}
