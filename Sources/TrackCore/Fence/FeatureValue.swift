/// A member of a feature as `FeatureReader` keeps it: scalars whole, an array with its
/// elements (theirs only as a kind: no property trackd reads nests deeper), an object as a kind.
///
/// Example: `"notify": ["enter", "exit"]` → `.array([.string("enter"), .string("exit")])`.
enum FeatureValue: Equatable {
    case null, bool, object
    case number(JSONNumber)
    /// The decoded UTF-8.
    case string([UInt8])
    case array([FeatureValue])

    /// The value whose first event is `first`, read to its end; `nested` for an element.
    init<Source>(_ first: JSONEvent, _ reader: inout JSONReader<Source>, nested: Bool = false) throws(JSONError) {
        switch first {
        case .null: self = .null
        case .bool: self = .bool
        case .number(let number): self = .number(number)
        case .string: self = .string(reader.text)
        case .objectStart:
            try reader.skipValue(after: first)
            self = .object
        case .arrayStart:
            guard !nested else {
                try reader.skipValue(after: first)
                self = .array([])
                return
            }
            var elements: [FeatureValue] = []
            while true {
                let event = try reader.next()
                if event == .arrayEnd { break }
                elements.append(try FeatureValue(event, &reader, nested: true))
            }
            self = .array(elements)
        case .objectEnd, .arrayEnd, .key, .end:
            // Not the first event of a value: the reader never gives these here.
            self = .null
        }
    }

    /// True for a string of exactly these bytes, e.g. `"Polygon"`.
    func isString(_ expected: StaticString) -> Bool {
        guard case .string(let bytes) = self, bytes.count == expected.utf8CodeUnitCount else { return false }
        for index in 0..<bytes.count where bytes[index] != expected.utf8Start[index] { return false }
        return true
    }
}

/// A geometry's `coordinates` as read, kept until the geometry's type (which may come after
/// them) says how to take them: arrays with their element count and where they end, numbers,
/// and anything else as `other`. About 32 bytes a number while the feature is read.
///
/// Example: `[[9.0,48.5],[9.1,48.5]]` → array(2, end 7), array(2, end 4), 9.0, 48.5,
/// array(2, end 7), 9.1, 48.5.
struct GeometryTokens {
    enum Token {
        /// An array of `count` elements; its last token is before `end`.
        case array(count: Int32, end: Int32)
        case number(JSONNumber)
        case other
    }

    var tokens: [Token] = []

    /// The value whose first event is `first`, read to its end.
    init<Source>(_ first: JSONEvent, _ reader: inout JSONReader<Source>) throws(JSONError) {
        // The arrays open: where each is in `tokens` and its elements so far (two arrays, not
        // one of tuples, whose generic type was looked up on every feature).
        var openAt: [Int] = []
        var openCount: [Int32] = []
        var event = first
        while true {
            switch event {
            case .arrayEnd:
                tokens[openAt.removeLast()] = .array(count: openCount.removeLast(), end: Int32(tokens.count))
            case .arrayStart, .number, .string, .bool, .null, .objectStart:
                if !openCount.isEmpty { openCount[openCount.count - 1] += 1 }
                switch event {
                case .arrayStart:
                    openAt.append(tokens.count)
                    openCount.append(0)
                    tokens.append(.array(count: 0, end: 0))
                case .number(let number): tokens.append(.number(number))
                default:
                    try reader.skipValue(after: event)
                    tokens.append(.other)
                }
            case .objectEnd, .key, .end:
                break
            }
            if openAt.isEmpty { return }
            event = try reader.next()
        }
    }

    /// The token after the value at `index`.
    func next(_ index: Int) -> Int {
        if case .array(_, let end) = tokens[index] { return Int(end) }
        return index + 1
    }

    /// The element count of the array at `index`, nil for a non-array.
    func count(_ index: Int) -> Int? {
        if case .array(let count, _) = tokens[index] { return Int(count) }
        return nil
    }

    /// `[longitude, latitude]` or `[longitude, latitude, altitude]` at `index`, to the nearest
    /// nanodegree.
    func position(_ index: Int) throws(FenceFileError.Problem) -> Coordinate {
        let expected = "[longitude, latitude] in degrees"
        // Two or three elements, all numbers (so none is an array with tokens of its own).
        guard let count = count(index), count == 2 || count == 3, next(index) == index + 1 + count else {
            throw .malformedCoordinates(expected: expected)
        }
        var values: [JSONNumber] = []
        for element in (index + 1)...(index + count) {
            guard case .number(let value) = tokens[element] else { throw .malformedCoordinates(expected: expected) }
            values.append(value)
        }
        let (longitude, latitude) = (values[0], values[1])
        guard let lon = longitude.scaled(decimals: 9), let lat = latitude.scaled(decimals: 9),
              lat >= -90_000_000_000, lat <= 90_000_000_000, lon >= -180_000_000_000, lon <= 180_000_000_000 else {
            throw .coordinateOutOfRange(longitude: longitude.double, latitude: latitude.double)
        }
        return Coordinate(latitudeNanodegrees: lat, longitudeNanodegrees: lon)
    }

    /// The rings of the polygon at `index`: an array of rings, each an array of positions.
    func polygon(_ index: Int) throws(FenceFileError.Problem) -> [[Coordinate]] {
        let expected = "an array of rings, each an array of [longitude, latitude]"
        guard let elements = count(index), elements > 0 else { throw .malformedCoordinates(expected: expected) }
        var rings: [[Coordinate]] = []
        var ring = index + 1
        while ring < next(index) {
            guard count(ring) != nil else { throw .malformedCoordinates(expected: expected) }
            var positions: [Coordinate] = []
            var element = ring + 1
            while element < next(ring) {
                positions.append(try position(element))
                element = next(element)
            }
            rings.append(positions)
            ring = next(ring)
        }
        return rings
    }

    /// The polygons of the multi-polygon at `index`.
    func multiPolygon(_ index: Int) throws(FenceFileError.Problem) -> [[[Coordinate]]] {
        guard let elements = count(index), elements > 0 else { throw .malformedCoordinates(expected: "an array of polygons") }
        var parts: [[[Coordinate]]] = []
        var part = index + 1
        while part < next(index) {
            parts.append(try polygon(part))
            part = next(part)
        }
        return parts
    }
}
