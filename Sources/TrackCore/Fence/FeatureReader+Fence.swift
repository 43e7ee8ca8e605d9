/// A feature read whole becomes a fence: its description from the properties, its shape from
/// the geometry, checked in the order a reader of the whole document always checked them.
extension FeatureReader {
    /// Adds the feature to `builder`: a Point with a radius as a circle, a Polygon or
    /// MultiPolygon as a polygon.
    func append<Spool: FenceImageSpool>(to builder: inout FenceImageBuilder<Spool>, settings: FenceSettings)
        throws(FenceFileError.Problem) {
        guard geometry == .object else { throw .missingGeometry }
        guard case .string(let type)? = geometryType else { throw .unsupportedGeometry("") }
        guard let coordinates else { throw .malformedCoordinates(expected: "present") }
        if geometryType?.isString("Point") == true {
            let centre = try coordinates.position(0)
            guard case .number(let number)? = property(.radius) else { throw .missingRadius }
            let radius = number.double
            guard radius >= settings.minimumRadiusMetres && radius <= settings.maximumRadiusMetres else {
                throw .radiusOutOfRange(radius, minimumMetres: settings.minimumRadiusMetres,
                                        maximumMetres: settings.maximumRadiusMetres)
            }
            builder.appendCircle(try description(kind: .circle(radiusMetres: radius)), centre: centre, radiusMetres: radius)
        } else if geometryType?.isString("Polygon") == true {
            let rings = try coordinates.polygon(0)
            try builder.appendPolygon(try description(kind: .polygon(rings: rings.count)), parts: [rings])
        } else if geometryType?.isString("MultiPolygon") == true {
            let parts = try coordinates.multiPolygon(0)
            let rings = parts.reduce(0) { $0 + $1.count }
            try builder.appendPolygon(try description(kind: .polygon(rings: rings)), parts: parts)
        } else {
            throw .unsupportedGeometry(String(decoding: type, as: UTF8.self))
        }
    }

    /// The fence's description from its properties (`kind` filled in by the caller).
    func description(kind: FenceKind) throws(FenceFileError.Problem) -> Fence {
        var fence = Fence(id: id ?? String(number), kind: kind)
        if let name = property(.name) {
            guard case .string(let bytes) = name else { throw .badProperty(name: "name", expected: "a string") }
            fence.name = String(decoding: bytes, as: UTF8.self)
        }
        if let dwell = property(.dwell) {
            guard case .number(let number) = dwell, let seconds = number.scaled(decimals: 0), seconds >= 0, seconds <= 31_536_000 else {
                throw .badProperty(name: "dwell", expected: "a number of seconds, 0…31536000")
            }
            fence.dwellSeconds = Int(seconds)
            fence.notify.insert(.dwell)
        }
        if let notify = property(.notify) {
            let expected = "an array of \"enter\", \"exit\", \"dwell\""
            guard case .array(let elements) = notify else { throw .badProperty(name: "notify", expected: expected) }
            fence.notify = []
            for element in elements {
                if element.isString("enter") { fence.notify.insert(.enter) }
                else if element.isString("exit") { fence.notify.insert(.exit) }
                else if element.isString("dwell") { fence.notify.insert(.dwell) }
                else { throw .badProperty(name: "notify", expected: expected) }
            }
            if fence.notify.contains(.dwell) && fence.dwellSeconds == nil {
                throw .badProperty(name: "dwell", expected: "set (seconds) when notify has \"dwell\"")
            }
        }
        if let command = property(.command) {
            let expected = "an argv array of non-empty strings, e.g. [\"/usr/local/bin/alert\", \"--quiet\"] (no shell)"
            guard case .array(let elements) = command, !elements.isEmpty else { throw .badProperty(name: "command", expected: expected) }
            for element in elements {
                guard case .string(let bytes) = element, !bytes.isEmpty, !bytes.contains(0) else {
                    throw .badProperty(name: "command", expected: expected)
                }
                fence.command.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return fence
    }
}
