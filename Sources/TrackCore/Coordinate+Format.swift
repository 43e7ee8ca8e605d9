// Coordinates as text: decimal degrees, degrees and decimal minutes, degrees minutes seconds.
// All arithmetic is on the integer nanodegrees, so what is printed is the stored value rounded
// once (half away from zero), never a binary fraction's approximation.

/// How to write a coordinate as text, e.g. `.degreesDecimalMinutes` → `48°07.038'N 11°31.002'E`.
public struct CoordinateFormat: Equatable, Sendable {
    /// How each angle is split.
    public enum Notation: Equatable, Sendable {
        /// Degrees with a fraction, `48.117300°`.
        case decimalDegrees
        /// Whole degrees and minutes with a fraction, `48°07.038'`.
        case degreesDecimalMinutes
        /// Whole degrees and minutes, seconds with a fraction, `48°07'02.3"`.
        case degreesMinutesSeconds
    }

    /// How each angle is split.
    public var notation: Notation
    /// Hemisphere letters (`48.1173°N`) when true; a minus sign for south and west when false.
    public var hemispheres: Bool
    /// Digits after the point of the last part: up to 9 for degrees, 8 for minutes, 7 for
    /// seconds (more is clamped; a nanodegree is 6e-8′ or 3.6e-6″).
    public var fractionDigits: Int
    /// Drops trailing zeros of the fraction (and a bare point), e.g. `48.1173` for 48.117300.
    public var trimsTrailingZeros: Bool

    /// A format from its parts.
    public init(notation: Notation, hemispheres: Bool, fractionDigits: Int, trimsTrailingZeros: Bool = false) {
        self.notation = notation
        self.hemispheres = hemispheres
        self.fractionDigits = fractionDigits
        self.trimsTrailingZeros = trimsTrailingZeros
    }

    /// `48.117300°N, 11.516700°E`: six decimals (0.11 m).
    public static var decimalDegrees: CoordinateFormat {
        CoordinateFormat(notation: .decimalDegrees, hemispheres: true, fractionDigits: 6)
    }

    /// `48.1173,11.5167`: signed, no degree sign or space, all nine decimals of the stored
    /// nanodegrees without trailing zeros, so parsing it gives back the same coordinate.
    public static var signedDecimalDegrees: CoordinateFormat {
        CoordinateFormat(notation: .decimalDegrees, hemispheres: false, fractionDigits: 9, trimsTrailingZeros: true)
    }

    /// `48°07.038'N 11°31.002'E`: three decimals of a minute (1.9 m), as on charts and GPS units.
    public static var degreesDecimalMinutes: CoordinateFormat {
        CoordinateFormat(notation: .degreesDecimalMinutes, hemispheres: true, fractionDigits: 3)
    }

    /// `48°07'02.3"N 11°31'00.1"E`: one decimal of a second (3 m).
    public static var degreesMinutesSeconds: CoordinateFormat {
        CoordinateFormat(notation: .degreesMinutesSeconds, hemispheres: true, fractionDigits: 1)
    }
}

extension Coordinate {
    /// The coordinate as text, e.g. `48.117300°N, 11.516700°E` with the default format.
    ///
    /// Allocates only the returned string (none up to 15 bytes); see `TextBuffer.append(_:format:)`
    /// for hot paths.
    public func formatted(_ format: CoordinateFormat = .decimalDegrees) -> String {
        var buffer = TextBuffer()
        buffer.append(self, format: format)
        return buffer.withBytes { bytes in
            // Our own output is ASCII plus "°": validation cannot fail.
            guard let text = try? UTF8Span(validating: bytes) else { return "" }
            return String(copying: text)
        }
    }
}

extension TextBuffer {
    /// Appends a coordinate as text without allocating, e.g. `48°07'02.3"N 11°31'00.1"E` for
    /// `.degreesMinutesSeconds`.
    public mutating func append(_ coordinate: Coordinate, format: CoordinateFormat = .decimalDegrees) {
        let compact = format.notation == .decimalDegrees && !format.hemispheres
        appendAngle(coordinate.latitudeNanodegrees, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), format)
        if compact {
            append(UInt8(ascii: ","))
        } else if format.notation == .decimalDegrees {
            append(", ")
        } else {
            append(UInt8(ascii: " "))
        }
        appendAngle(coordinate.longitudeNanodegrees, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), format)
    }

    private mutating func appendAngle(_ nanodegrees: Int64, positive: UInt8, negative: UInt8, _ format: CoordinateFormat) {
        let parts = CoordinateFormat.Parts(nanodegrees.magnitude, format)
        // A value that rounds to zero is printed unsigned: no "-0.0" or "0.0°S".
        let isNegative = nanodegrees < 0 && !parts.isZero
        if isNegative && !format.hemispheres { append(UInt8(ascii: "-")) }
        append(integer: Int64(parts.degrees))
        switch format.notation {
        case .decimalDegrees:
            appendFraction(parts.fraction, digits: parts.digits, trim: format.trimsTrailingZeros)
            // The compact signed form has no degree sign: it is for machines and URLs.
            if format.hemispheres { append("°") }
        case .degreesDecimalMinutes:
            append("°")
            append(integer: Int(parts.minutes), width: 2)
            appendFraction(parts.fraction, digits: parts.digits, trim: format.trimsTrailingZeros)
            append(UInt8(ascii: "'"))
        case .degreesMinutesSeconds:
            append("°")
            append(integer: Int(parts.minutes), width: 2)
            append(UInt8(ascii: "'"))
            append(integer: Int(parts.seconds), width: 2)
            appendFraction(parts.fraction, digits: parts.digits, trim: format.trimsTrailingZeros)
            append(UInt8(ascii: "\""))
        }
        if format.hemispheres { append(isNegative ? negative : positive) }
    }

    private mutating func appendFraction(_ fraction: UInt64, digits: Int, trim: Bool) {
        var fraction = fraction
        var digits = digits
        if trim {
            while digits > 0 && fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
        }
        guard digits > 0 else { return }
        append(UInt8(ascii: "."))
        append(integer: Int(fraction), width: digits)
    }
}

extension CoordinateFormat {
    /// One angle's magnitude split into the parts a notation prints, rounded once.
    struct Parts {
        var degrees: UInt64 = 0
        var minutes: UInt64 = 0
        var seconds: UInt64 = 0
        /// The fraction of the last part in units of 10^-digits.
        var fraction: UInt64 = 0
        var digits = 0

        var isZero: Bool { degrees == 0 && minutes == 0 && seconds == 0 && fraction == 0 }

        init(_ magnitude: UInt64, _ format: CoordinateFormat) {
            degrees = magnitude / 1_000_000_000
            let remainder = magnitude % 1_000_000_000  // nanodegrees within the degree
            switch format.notation {
            case .decimalDegrees:
                digits = min(max(format.fractionDigits, 0), 9)
                let units = Parts.rounded(remainder, over: Parts.power(9 - digits))
                // A carry out of the fraction, e.g. 47.9999999 at 6 digits → 48.000000.
                degrees += units / Parts.power(digits)
                fraction = units % Parts.power(digits)
            case .degreesDecimalMinutes:
                digits = min(max(format.fractionDigits, 0), 8)
                // minutes · 10^digits = remainder · 60 · 10^digits / 10^9.
                let units = Parts.rounded(remainder * 6 * Parts.power(digits), over: 100_000_000)
                degrees += units / (60 * Parts.power(digits))
                let withinDegree = units % (60 * Parts.power(digits))
                minutes = withinDegree / Parts.power(digits)
                fraction = withinDegree % Parts.power(digits)
            case .degreesMinutesSeconds:
                digits = min(max(format.fractionDigits, 0), 7)
                // seconds · 10^digits = remainder · 3600 · 10^digits / 10^9.
                let units = Parts.rounded(remainder * 36 * Parts.power(digits), over: 10_000_000)
                degrees += units / (3600 * Parts.power(digits))
                let withinDegree = units % (3600 * Parts.power(digits))
                minutes = withinDegree / (60 * Parts.power(digits))
                let withinMinute = withinDegree % (60 * Parts.power(digits))
                seconds = withinMinute / Parts.power(digits)
                fraction = withinMinute % Parts.power(digits)
            }
        }

        /// value / divisor rounded half up (values are magnitudes).
        static func rounded(_ value: UInt64, over divisor: UInt64) -> UInt64 {
            (value + divisor / 2) / divisor
        }

        static func power(_ exponent: Int) -> UInt64 {
            var result: UInt64 = 1
            for _ in 0..<exponent { result *= 10 }
            return result
        }
    }
}
