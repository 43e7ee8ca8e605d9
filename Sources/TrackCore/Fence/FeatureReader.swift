/// One feature of a fences file as the stream gives it: the members trackd uses are kept
/// (members come in any order) until the feature's object closes, then checked in a fixed
/// order, so the first problem named is the same whatever the order in the file: the feature
/// and its id, then its geometry's type, its coordinates, its properties, its rings.
struct FeatureReader {
    let number: Int
    /// The id, once `identify` has found it.
    var id: String?
    var isObject = false
    /// The Feature's own members: `type`, `id`, `properties` (`.object` when an object, its
    /// members in `property`), `geometry` (`.object` when an object).
    var type: FeatureValue?
    var featureID: FeatureValue?
    var properties: FeatureValue?
    var property = [FeatureValue?](repeating: nil, count: Property.allCases.count)
    var geometry: FeatureValue?
    var geometryType: FeatureValue?
    var coordinates: GeometryTokens?

    /// The properties trackd reads.
    enum Property: Int, CaseIterable {
        case id, name, radius, dwell, notify, command
    }

    init(number: Int) {
        self.number = number
    }

    /// Reads the feature whose first event is `first` (to the end of its value).
    mutating func read<Source>(_ first: JSONEvent, _ reader: inout JSONReader<Source>) throws(JSONError) {
        guard first == .objectStart else { return try reader.skipValue(after: first) }
        isObject = true
        while try reader.next() == .key {
            let name = reader.keyName(["type", "id", "properties", "geometry"])
            let value = try reader.next()
            switch name {
            case 0: type = try FeatureValue(value, &reader)
            case 1: featureID = try FeatureValue(value, &reader)
            case 2: try readProperties(value, &reader)
            case 3: try readGeometry(value, &reader)
            default: try reader.skipValue(after: value)
            }
        }
    }

    mutating func readProperties<Source>(_ first: JSONEvent, _ reader: inout JSONReader<Source>) throws(JSONError) {
        guard first == .objectStart else {
            properties = try FeatureValue(first, &reader)
            return
        }
        properties = .object
        while try reader.next() == .key {
            let name = reader.keyName(["id", "name", "radius", "dwell", "notify", "command"])
            let value = try reader.next()
            switch name {
            case let index?: property[index] = try FeatureValue(value, &reader)
            case nil: try reader.skipValue(after: value)
            }
        }
    }

    mutating func readGeometry<Source>(_ first: JSONEvent, _ reader: inout JSONReader<Source>) throws(JSONError) {
        guard first == .objectStart else {
            geometry = try FeatureValue(first, &reader)
            return
        }
        geometry = .object
        while try reader.next() == .key {
            let name = reader.keyName(["type", "coordinates"])
            let value = try reader.next()
            switch name {
            case 0: geometryType = try FeatureValue(value, &reader)
            case 1: coordinates = try GeometryTokens(value, &reader)
            default: try reader.skipValue(after: value)
            }
        }
    }

    /// The id: `properties.id`, else the Feature's `id` (string or integer), else the index.
    mutating func identify() throws(FenceFileError.Problem) -> String {
        guard isObject, type?.isString("Feature") == true else { throw .notAFeature }
        var candidates: [FeatureValue?] = []
        switch properties {
        case .object?: candidates.append(property[Property.id.rawValue])
        case .null?, nil: break
        default: throw .badProperty(name: "properties", expected: "an object")
        }
        candidates.append(featureID)
        for case let candidate? in candidates {
            if case .string(let bytes) = candidate, !bytes.isEmpty {
                id = String(decoding: bytes, as: UTF8.self)
                return String(decoding: bytes, as: UTF8.self)
            }
            if case .number(let number) = candidate, let value = number.scaled(decimals: 0) {
                id = String(value)
                return String(value)
            }
            throw .badProperty(name: "id", expected: "a non-empty string or an integer")
        }
        id = String(number)
        return String(number)
    }

    /// Property `name`, nil when absent or null.
    func property(_ name: Property) -> FeatureValue? {
        guard case .object? = properties, let value = property[name.rawValue], value != .null else { return nil }
        return value
    }
}
