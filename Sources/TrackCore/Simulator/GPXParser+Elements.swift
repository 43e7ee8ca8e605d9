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
        guard let value = DecimalText.read(bytes[range], scale: scale) else {
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
        guard let millimetres = DecimalText.read(Array(value.utf8)[...], scale: 3) else {
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
        guard let time = UTCTime(iso8601: Array(value.utf8), form: .recorded) else {
            throw GPXError(line: textLine, .invalidTime(value))
        }
        return time
    }
}
