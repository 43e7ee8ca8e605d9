@testable import TrackCore

/// One feature of the document tree being read (the old FeatureReader).
struct LegacyFeatureReader {
    let document: JSONDocument
    let node: Int
    let number: Int
    var id: String?
    var properties: Int?

    init(document: JSONDocument, node: Int, number: Int) {
        self.document = document
        self.node = node
        self.number = number
    }

    /// The id: `properties.id`, else the Feature's `id` (string or integer), else the index.
    mutating func identify() throws(FenceFileError.Problem) -> String {
        guard document.nodes[node].kind == .object, let type = document.member("type", of: node),
              document.isString(type, "Feature") else { throw .notAFeature }
        if let properties = document.member("properties", of: node) {
            switch document.nodes[properties].kind {
            case .object: self.properties = properties
            case .null: break
            default: throw .badProperty(name: "properties", expected: "an object")
            }
        }
        let candidates = [properties.flatMap { document.member("id", of: $0) }, document.member("id", of: node)]
        for case let candidate? in candidates {
            if let text = document.string(candidate), !text.isEmpty {
                id = text
                return text
            }
            if document.nodes[candidate].kind == .number, let value = document.nodes[candidate].number.scaled(decimals: 0) {
                id = String(value)
                return String(value)
            }
            throw .badProperty(name: "id", expected: "a non-empty string or an integer")
        }
        id = String(number)
        return String(number)
    }

    func property(_ name: String) -> Int? {
        guard let properties, let member = document.member(name, of: properties),
              document.nodes[member].kind != .null else { return nil }
        return member
    }

    /// The fence's description from its properties (`kind` filled in by the caller).
    func description(kind: FenceKind) throws(FenceFileError.Problem) -> Fence {
        var fence = Fence(id: id ?? String(number), kind: kind)
        if let name = property("name") {
            guard let text = document.string(name) else { throw .badProperty(name: "name", expected: "a string") }
            fence.name = text
        }
        if let dwell = property("dwell") {
            guard document.nodes[dwell].kind == .number, let seconds = document.nodes[dwell].number.scaled(decimals: 0),
                  seconds >= 0, seconds <= 31_536_000 else {
                throw .badProperty(name: "dwell", expected: "a number of seconds, 0…31536000")
            }
            fence.dwellSeconds = Int(seconds)
            fence.notify.insert(.dwell)
        }
        if let notify = property("notify") {
            guard document.nodes[notify].kind == .array else {
                throw .badProperty(name: "notify", expected: "an array of \"enter\", \"exit\", \"dwell\"")
            }
            fence.notify = []
            for element in document.children(of: notify) {
                if document.isString(element, "enter") { fence.notify.insert(.enter) }
                else if document.isString(element, "exit") { fence.notify.insert(.exit) }
                else if document.isString(element, "dwell") { fence.notify.insert(.dwell) }
                else { throw .badProperty(name: "notify", expected: "an array of \"enter\", \"exit\", \"dwell\"") }
            }
            if fence.notify.contains(.dwell) && fence.dwellSeconds == nil {
                throw .badProperty(name: "dwell", expected: "set (seconds) when notify has \"dwell\"")
            }
        }
        if let command = property("command") {
            let expected = "an argv array of non-empty strings, e.g. [\"/usr/local/bin/alert\", \"--quiet\"] (no shell)"
            guard document.nodes[command].kind == .array, document.nodes[command].childCount > 0 else {
                throw .badProperty(name: "command", expected: expected)
            }
            for element in document.children(of: command) {
                guard let argument = document.string(element), !argument.isEmpty, !argument.utf8.contains(0) else {
                    throw .badProperty(name: "command", expected: expected)
                }
                fence.command.append(argument)
            }
        }
        return fence
    }

    func append(to set: inout LegacyParts, settings: FenceSettings) throws(FenceFileError.Problem) {
        guard let geometry = document.member("geometry", of: node), document.nodes[geometry].kind == .object else {
            throw .missingGeometry
        }
        guard let typeNode = document.member("type", of: geometry), let type = document.string(typeNode) else {
            throw .unsupportedGeometry("")
        }
        guard let coordinates = document.member("coordinates", of: geometry) else {
            throw .malformedCoordinates(expected: "present")
        }
        if type.bytesEqual("Point") {
            let centre = try position(coordinates)
            guard let radiusNode = property("radius"), document.nodes[radiusNode].kind == .number else {
                throw .missingRadius
            }
            let radius = document.nodes[radiusNode].number.double
            guard radius >= settings.minimumRadiusMetres && radius <= settings.maximumRadiusMetres else {
                throw .radiusOutOfRange(radius, minimumMetres: settings.minimumRadiusMetres,
                                        maximumMetres: settings.maximumRadiusMetres)
            }
            set.appendCircle(try description(kind: .circle(radiusMetres: radius)), centre: centre, radiusMetres: radius)
        } else if type.bytesEqual("Polygon") {
            let rings = try polygon(coordinates)
            try set.appendPolygon(try description(kind: .polygon(rings: rings.count)), parts: [rings])
        } else if type.bytesEqual("MultiPolygon") {
            guard document.nodes[coordinates].kind == .array, document.nodes[coordinates].childCount > 0 else {
                throw .malformedCoordinates(expected: "an array of polygons")
            }
            var parts: [[[Coordinate]]] = []
            for part in document.children(of: coordinates) { parts.append(try polygon(part)) }
            let rings = parts.reduce(0) { $0 + $1.count }
            try set.appendPolygon(try description(kind: .polygon(rings: rings)), parts: parts)
        } else {
            throw .unsupportedGeometry(type)
        }
    }

    func polygon(_ node: Int) throws(FenceFileError.Problem) -> [[Coordinate]] {
        guard document.nodes[node].kind == .array, document.nodes[node].childCount > 0 else {
            throw .malformedCoordinates(expected: "an array of rings, each an array of [longitude, latitude]")
        }
        var rings: [[Coordinate]] = []
        for ring in document.children(of: node) {
            guard document.nodes[ring].kind == .array else {
                throw .malformedCoordinates(expected: "an array of rings, each an array of [longitude, latitude]")
            }
            var positions: [Coordinate] = []
            for element in document.children(of: ring) { positions.append(try position(element)) }
            rings.append(positions)
        }
        return rings
    }

    /// `[longitude, latitude]` or `[longitude, latitude, altitude]`, to the nearest nanodegree.
    func position(_ node: Int) throws(FenceFileError.Problem) -> Coordinate {
        let expected = "[longitude, latitude] in degrees"
        let parts = document.children(of: node)
        guard document.nodes[node].kind == .array, parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ document.nodes[$0].kind == .number }) else {
            throw .malformedCoordinates(expected: expected)
        }
        let longitude = document.nodes[parts[0]].number
        let latitude = document.nodes[parts[1]].number
        guard let lon = longitude.scaled(decimals: 9), let lat = latitude.scaled(decimals: 9),
              lat >= -90_000_000_000, lat <= 90_000_000_000, lon >= -180_000_000_000, lon <= 180_000_000_000 else {
            throw .coordinateOutOfRange(longitude: longitude.double, latitude: latitude.double)
        }
        return Coordinate(latitudeNanodegrees: lat, longitudeNanodegrees: lon)
    }
}
