/// The attributes of one start tag that GPX needs: `version`, `lat`, `lon`.
struct GPXAttributes {
    var version: Range<Int>?
    var latitude: Range<Int>?
    var longitude: Range<Int>?

    mutating func record(name: String, value: Range<Int>) {
        switch name {
        case "version": version = value
        case "lat": latitude = value
        case "lon": longitude = value
        default: break
        }
    }
}

/// What each GPX element means: the root, points, and a point's `<ele>` and `<time>`.
extension GPXParser {
    mutating func open(_ element: Range<Int>, attributes: GPXAttributes, line tagLine: Int) throws(GPXError) {
        if stack.isEmpty {
            guard !sawRoot else { throw GPXError(line: tagLine, .unexpectedContent("a second root element")) }
            guard equals(element, "gpx") else { throw GPXError(line: tagLine, .notGPX(root: name(element))) }
            guard let version = attributes.version else { throw GPXError(line: tagLine, .unsupportedVersion(nil)) }
            guard equals(version, "1.1") else { throw GPXError(line: tagLine, .unsupportedVersion(name(version))) }
            sawRoot = true
        }
        stack.append(element)
        if isPoint(element) {
            point = GPXPoint(position: try position(element, attributes, line: tagLine), line: tagLine)
            pointDepth = stack.count
        } else if capturing {
            text.removeAll(keepingCapacity: true)
            textLine = tagLine
        }
    }

    mutating func close() throws(GPXError) {
        if capturing, let top = stack.last {
            if equals(top, "ele") {
                let elevation = try elevation()
                point?.elevationMillimetres = elevation
            } else {
                let time = try time()
                point?.time = time
            }
        }
        let depth = stack.count
        stack.removeLast()
        if depth == pointDepth, let finished = point {
            if let time = finished.time {
                if let lastTime, time < lastTime {
                    throw GPXError(line: finished.line, .timeGoesBackwards(trimmedText))
                }
                lastTime = time
            }
            points.append(finished)
            point = nil
            pointDepth = 0
        }
    }

    /// `<trkpt>` directly in `<trkseg>` in `<trk>`, or `<rtept>` directly in `<rte>`.
    func isPoint(_ element: Range<Int>) -> Bool {
        let depth = stack.count
        if equals(element, "trkpt") {
            return depth == 4 && equals(stack[1], "trk") && equals(stack[2], "trkseg")
        }
        if equals(element, "rtept") {
            return depth == 3 && equals(stack[1], "rte")
        }
        return false
    }

    func position(_ element: Range<Int>, _ attributes: GPXAttributes, line tagLine: Int) throws(GPXError) -> Coordinate {
        guard let latitude = attributes.latitude else {
            throw GPXError(line: tagLine, .missingAttribute(element: name(element), attribute: "lat"))
        }
        guard let longitude = attributes.longitude else {
            throw GPXError(line: tagLine, .missingAttribute(element: name(element), attribute: "lon"))
        }
        return Coordinate(
            latitudeNanodegrees: try decimal(latitude, field: "lat", scale: 9, limit: 90_000_000_000, line: tagLine),
            longitudeNanodegrees: try decimal(longitude, field: "lon", scale: 9, limit: 180_000_000_000, line: tagLine))
    }

    func decimal(_ range: Range<Int>, field: String, scale: Int, limit: Int64, line: Int) throws(GPXError) -> Int64 {
        guard let value = parseDecimal(bytes[range], scale: scale) else {
            throw GPXError(line: line, .invalidNumber(field: field, text: name(range)))
        }
        guard value.magnitude <= limit.magnitude else {
            throw GPXError(line: line, .outOfRange(field: field, text: name(range)))
        }
        return value
    }

    var trimmedText: String {
        var begin = 0
        var end = text.count
        while begin < end && isSpace(text[begin]) { begin += 1 }
        while end > begin && isSpace(text[end - 1]) { end -= 1 }
        return String(decoding: text[begin..<end], as: UTF8.self)
    }

    func elevation() throws(GPXError) -> Int32 {
        let value = trimmedText
        guard let millimetres = parseDecimal(Array(value.utf8)[...], scale: 3) else {
            throw GPXError(line: textLine, .invalidNumber(field: "ele", text: value))
        }
        // Deeper than the Mariana Trench or higher than a balloon flies: a typo, not a place.
        guard (-12_000_000...100_000_000).contains(millimetres) else {
            throw GPXError(line: textLine, .outOfRange(field: "ele", text: value))
        }
        return Int32(millimetres)
    }

    func time() throws(GPXError) -> UTCTime {
        let value = trimmedText
        guard let time = parseISO8601(Array(value.utf8)) else {
            throw GPXError(line: textLine, .invalidTime(value))
        }
        return time
    }
}

/// An exact decimal such as `"-48.1173"` scaled by 10^`scale` (`scale` 9: 48_117_300_000),
/// rounded half away from zero past `scale` digits; nil unless it is `[+-]digits[.digits]` with
/// at least one digit and at most 18 significant ones. No exponents.
func parseDecimal(_ text: ArraySlice<UInt8>, scale: Int) -> Int64? {
    var index = text.startIndex
    var negative = false
    if index < text.endIndex && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
        negative = text[index] == UInt8(ascii: "-")
        index += 1
    }
    var value: Int64 = 0
    var digits = 0
    var fraction = -1
    var roundUp = false
    while index < text.endIndex {
        let byte = text[index]
        index += 1
        if byte == UInt8(ascii: ".") {
            guard fraction < 0 else { return nil }
            fraction = 0
            continue
        }
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
        digits += 1
        if fraction >= 0 {
            fraction += 1
            if fraction > scale {
                if fraction == scale + 1 { roundUp = byte >= UInt8(ascii: "5") }
                continue
            }
        }
        guard value < 100_000_000_000_000_000 else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    // "48." has a point without fraction digits: not a decimal.
    guard digits > 0, fraction != 0 else { return nil }
    var place = max(fraction, 0)
    while place < scale {
        guard value < 100_000_000_000_000_000 else { return nil }
        value *= 10
        place += 1
    }
    if roundUp { value += 1 }
    return negative ? -value : value
}

/// `YYYY-MM-DDThh:mm:ss[.fff…](Z|±hh:mm)` as UTC, e.g. `2024-05-01T12:00:00+02:00` →
/// 2024-05-01T10:00:00Z; fractions past milliseconds are dropped. nil when malformed.
func parseISO8601(_ text: [UInt8]) -> UTCTime? {
    func number(_ offset: Int, _ count: Int) -> Int? {
        guard offset + count <= text.count else { return nil }
        var value = 0
        for index in offset..<(offset + count) {
            let byte = text[index]
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
    func byte(_ offset: Int) -> UInt8 { offset < text.count ? text[offset] : 0 }
    guard let year = number(0, 4), byte(4) == UInt8(ascii: "-"), let month = number(5, 2),
          byte(7) == UInt8(ascii: "-"), let day = number(8, 2), byte(10) == UInt8(ascii: "T"),
          let hour = number(11, 2), byte(13) == UInt8(ascii: ":"), let minute = number(14, 2),
          byte(16) == UInt8(ascii: ":"), let second = number(17, 2),
          let date = CalendarDate(year: year, month: month, day: day),
          hour < 24, minute < 60, second < 61 else { return nil }
    var offset = 19
    var milliseconds = 0
    if byte(offset) == UInt8(ascii: ".") {
        offset += 1
        var digits = 0
        while let digit = number(offset, 1) {
            if digits < 3 { milliseconds = milliseconds * 10 + digit }
            digits += 1
            offset += 1
        }
        guard digits > 0 else { return nil }
        for _ in min(digits, 3)..<3 { milliseconds *= 10 }
    }
    var zoneMinutes = 0
    if byte(offset) == UInt8(ascii: "Z") {
        offset += 1
    } else if byte(offset) == UInt8(ascii: "+") || byte(offset) == UInt8(ascii: "-") {
        guard let zoneHour = number(offset + 1, 2), byte(offset + 3) == UInt8(ascii: ":"),
              let zoneMinute = number(offset + 4, 2), zoneHour < 24, zoneMinute < 60 else { return nil }
        zoneMinutes = (zoneHour * 60 + zoneMinute) * (byte(offset) == UInt8(ascii: "-") ? -1 : 1)
        offset += 6
    } else {
        return nil
    }
    guard offset == text.count else { return nil }
    let secondsOfDay = Int64(hour * 3600 + minute * 60 + second - zoneMinutes * 60)
    return UTCTime(millisecondsSinceEpoch: date.daysSinceEpoch * 86_400_000 + secondsOfDay * 1000 + Int64(milliseconds))
}
