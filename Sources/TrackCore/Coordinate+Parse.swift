// Coordinates from text in any of the notations `CoordinateFormat` writes, and the common
// variations people type: with or without degree/minute/second marks and spaces, hemisphere
// letters before or after the numbers (or signs instead), latitude and longitude in either
// order when letters say which is which. Exact: the parts are summed in integers and rounded
// once to nanodegrees.

/// Why text is not a coordinate; `offset` counts characters (Unicode scalars) from 0.
public enum CoordinateParseError: Error, Equatable, Sendable {
    /// No characters other than spaces.
    case empty
    /// A character no notation uses, e.g. `x` in `48x`.
    case unexpectedCharacter(offset: Int)
    /// A known character in a place it cannot be: a mark out of order (`48'07°`), a fourth
    /// number in one angle, a sign inside an angle, a second comma.
    case unexpectedText(offset: Int)
    /// The text ends or a part starts where a number is needed: `48.1,` or `48.`.
    case expectedNumber(offset: Int)
    /// Minutes of 60 or more, e.g. at offset 3 in `48°60'N`.
    case minutesOutOfRange(offset: Int)
    /// Seconds of 60 or more.
    case secondsOutOfRange(offset: Int)
    /// A latitude beyond 90°; the offset is where the latitude starts.
    case latitudeOutOfRange(offset: Int)
    /// A longitude beyond 180°; the offset is where the longitude starts.
    case longitudeOutOfRange(offset: Int)
    /// A fraction on a part that is not the last, e.g. at offset 4 in `48.5°07'`.
    case fractionNotLast(offset: Int)
    /// A hemisphere letter where it cannot be: N or S on both angles, two letters for one angle.
    case misplacedHemisphere(offset: Int)
    /// A sign and a hemisphere letter on the same angle, e.g. `-48°S`.
    case signAndHemisphere(offset: Int)
    /// Only one angle, e.g. `48.1173`; the offset is the end of the text.
    case missingLongitude(offset: Int)
    /// Unmarked numbers that do not say where the latitude ends, e.g. at offset 3 in `48 7 11`:
    /// add a comma, marks or hemisphere letters.
    case ambiguousSplit(offset: Int)
}

extension Coordinate {
    /// Parses `48.117300°N, 11.516700°E`, `48.1173,11.5167`, `48°07.038'N 11°31.002'E`,
    /// `N 48 07 02.3 E 11 31 00.1` and similar (see `CoordinateParseError` for what fails).
    ///
    /// Latitude −90…90, longitude −180…180, rounded to the nearest nanodegree.
    public init(parsing text: String) throws(CoordinateParseError) {
        self = try Coordinate.parse(utf8: text.utf8)
    }

    /// Parses UTF-8 bytes, e.g. a field of a configuration file, like `init(parsing:)`.
    public static func parse<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) throws(CoordinateParseError) -> Coordinate {
        let tokens = try CoordinateTokens(scanning: bytes)
        guard tokens.count > 0 else { throw .empty }
        let split = try splitPoint(tokens)
        let first = try parseAngle(tokens, 0..<split.firstEnd, end: tokens.end)
        // With a comma, an empty second part is a missing number (`48.1,`).
        guard split.secondStart < tokens.count || split.firstEnd < tokens.count else {
            throw .missingLongitude(offset: tokens.end)
        }
        let second = try parseAngle(tokens, split.secondStart..<tokens.count, end: tokens.end)
        // Letters name the axis of their angle; otherwise latitude comes first.
        if first.axis == .longitude && second.axis == .longitude {
            throw .misplacedHemisphere(offset: second.letterOffset)
        }
        if first.axis == .latitude && second.axis == .latitude {
            throw .misplacedHemisphere(offset: second.letterOffset)
        }
        let swapped = first.axis == .longitude || second.axis == .latitude
        let latitude = swapped ? second : first
        let longitude = swapped ? first : second
        return Coordinate(
            latitudeNanodegrees: try latitude.nanodegrees(limitDegrees: 90, latitude: true),
            longitudeNanodegrees: try longitude.nanodegrees(limitDegrees: 180, latitude: false)
        )
    }

    /// Where the first angle's tokens end and the second's start (a comma is skipped).
    private static func splitPoint(_ tokens: CoordinateTokens) throws(CoordinateParseError)
        -> (firstEnd: Int, secondStart: Int)
    {
        var commas = 0
        var comma = 0
        var letters = 0
        var secondLetter = -1
        var firstLetter = -1
        var laterSign = -1
        for index in 0..<tokens.count {
            switch tokens[index].kind {
            case .comma:
                commas += 1
                if commas == 2 { throw .unexpectedText(offset: tokens[index].offset) }
                comma = index
            case .hemisphere:
                letters += 1
                if letters == 1 { firstLetter = index }
                if letters == 2 { secondLetter = index }
            case .sign:
                if index > 0 && laterSign < 0 { laterSign = index }
            default:
                break
            }
        }
        if commas == 1 { return (comma, comma + 1) }
        if letters > 0 {
            // Leading letters ("N48 E11") start angles; trailing ones ("48N 11E") end them.
            if firstLetter == 0 { return secondLetter < 0 ? (tokens.count, tokens.count) : (secondLetter, secondLetter) }
            return (firstLetter + 1, firstLetter + 1)
        }
        if laterSign > 0 { return (laterSign, laterSign) }
        // Numbers and marks only: a number starts the longitude if it carries a degree mark or
        // follows a fraction or a seconds mark; failing that, split unmarked numbers evenly.
        var numbers = 0
        var previousEndsAngle = false
        for index in 0..<tokens.count where tokens[index].kind == .number {
            numbers += 1
            let mark = index + 1 < tokens.count && tokens[index + 1].kind == .mark ? tokens[index + 1].rank : -1
            if numbers > 1 && (mark == 0 || previousEndsAngle) { return (index, index) }
            previousEndsAngle = tokens[index].hasFraction || mark == 2
        }
        guard numbers > 1 else { return (tokens.count, tokens.count) }
        var seen = 0
        for index in 0..<tokens.count where tokens[index].kind == .number {
            seen += 1
            // An odd count has no middle: report the second number, the first candidate.
            if numbers % 2 != 0 && seen == 2 { throw .ambiguousSplit(offset: tokens[index].offset) }
            if seen == numbers / 2 + 1 { return (index, index) }
        }
        return (tokens.count, tokens.count)
    }

    /// One angle: [sign | letter] degrees [mark] [minutes [mark] [seconds [mark]]] [letter].
    private static func parseAngle(_ tokens: CoordinateTokens, _ range: Range<Int>, end: Int)
        throws(CoordinateParseError) -> ParsedAngle
    {
        var index = range.lowerBound
        let upper = range.upperBound
        func offset(_ position: Int) -> Int { position < tokens.count ? tokens[position].offset : end }
        guard index < upper else { throw .expectedNumber(offset: offset(index)) }
        var angle = ParsedAngle(startOffset: tokens[index].offset)
        var signed = false
        var letter: CoordinateToken?
        if tokens[index].kind == .sign {
            signed = true
            angle.negative = tokens[index].negative
            index += 1
        } else if tokens[index].kind == .hemisphere {
            letter = tokens[index]
            index += 1
        }
        var rank = 0
        var previousFraction = false
        let scale = CoordinateToken.fractionScale
        while index < upper && tokens[index].kind == .number {
            let number = tokens[index]
            guard rank <= 2 else { throw .unexpectedText(offset: number.offset) }
            guard !previousFraction else { throw .fractionNotLast(offset: number.offset) }
            index += 1
            if index < upper && tokens[index].kind == .mark {
                guard tokens[index].rank == rank else { throw .unexpectedText(offset: tokens[index].offset) }
                index += 1
            }
            switch rank {
            case 0:
                angle.picoArcseconds = number.value * 3600
            case 1:
                guard number.value < 60 * scale else { throw .minutesOutOfRange(offset: number.offset) }
                angle.picoArcseconds += number.value * 60
            default:
                guard number.value < 60 * scale else { throw .secondsOutOfRange(offset: number.offset) }
                angle.picoArcseconds += number.value
            }
            previousFraction = number.hasFraction
            rank += 1
        }
        guard rank > 0 else { throw .expectedNumber(offset: offset(index)) }
        if index < upper && tokens[index].kind == .hemisphere {
            guard letter == nil else { throw .misplacedHemisphere(offset: tokens[index].offset) }
            letter = tokens[index]
            index += 1
        }
        guard index == upper else { throw .unexpectedText(offset: tokens[index].offset) }
        if let letter {
            guard !signed else { throw .signAndHemisphere(offset: letter.offset) }
            angle.negative = letter.negative
            angle.axis = letter.latitude ? .latitude : .longitude
            angle.letterOffset = letter.offset
        }
        return angle
    }
}

/// One parsed angle before it is checked against its axis's range.
struct ParsedAngle {
    enum Axis { case unknown, latitude, longitude }

    var startOffset: Int
    var axis = Axis.unknown
    var letterOffset = 0
    var negative = false
    /// The magnitude in units of 10^-12 arcseconds: degrees · 3600 + minutes · 60 + seconds
    /// (at most 3.6e18 + 6e16 + 1e15: fits 64 bits).
    var picoArcseconds: UInt64 = 0

    /// Rounded to nanodegrees (half away from zero), if within ±`limitDegrees`.
    func nanodegrees(limitDegrees: UInt64, latitude: Bool) throws(CoordinateParseError) -> Int64 {
        guard picoArcseconds <= limitDegrees * 3600 * CoordinateToken.fractionScale else {
            throw latitude ? .latitudeOutOfRange(offset: startOffset) : .longitudeOutOfRange(offset: startOffset)
        }
        // One nanodegree is 3.6e-6 arcseconds = 3.6e6 units.
        let magnitude = Int64((picoArcseconds + 1_800_000) / 3_600_000)
        return negative ? -magnitude : magnitude
    }
}
