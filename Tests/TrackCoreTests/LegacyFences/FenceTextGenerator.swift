import Foundation

/// Seeded GeoJSON fences files in the shapes and spellings map editors and GDAL write, and in
/// some they do not: members in any order, foreign members, white space, exponents, escapes,
/// integer feature ids, altitudes, holes, multi-polygons, the antimeridian, the poles.
/// Every text is valid JSON; most are valid fences files (`valid: false` adds bad features).
struct FenceTextGenerator {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 7)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    mutating func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }

    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// White space between tokens: mostly none, sometimes spaces, tabs and newlines.
    mutating func space() -> String {
        guard chance(0.2) else { return "" }
        return [" ", "\n", "\t", "\r\n  ", "\n    "][int(0...4)]
    }

    /// A number in one of the spellings JSON allows, e.g. `48.5`, `4.85e1`, `485E-1`.
    mutating func number(_ value: Double, digits: Int = 7) -> String {
        let fixed = String(format: "%.\(digits)f", value)
        switch int(0...9) {
        case 0: return String(format: "%.\(digits)e", value)
        case 1: return String(format: "%.\(digits + 3)E", value)
        case 2: return String(value)
        default: return fixed
        }
    }

    /// An object of `members` in a random order (when `shuffle`), with white space.
    mutating func object(_ members: [(String, String)], shuffle: Bool = true) -> String {
        var members = members
        if shuffle { members.shuffle(using: &random) }
        let inner = members.map { "\"" + $0.0 + "\"" + space() + ":" + space() + $0.1 }
        return "{" + space() + inner.joined(separator: space() + "," + space()) + space() + "}"
    }

    func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }

    mutating func position(_ latitude: Double, _ longitude: Double) -> String {
        var longitude = longitude
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        var parts = [number(longitude), number(latitude)]
        if chance(0.1) { parts.append(number(unit() * 500, digits: 1)) }
        return "[" + parts.joined(separator: "," + space()) + "]"
    }

    /// A star-shaped ring of `count` vertices around a centre, `metres` across, closed.
    mutating func ring(_ latitude: Double, _ longitude: Double, metres: Double, count: Int, reversed: Bool = false) -> String {
        var positions: [String] = []
        var first = ""
        for k in 0..<count {
            let angle = 2 * Double.pi * (Double(k) + 0.1 + 0.8 * unit()) / Double(count) * (reversed ? -1 : 1)
            let r = metres * (0.6 + 0.4 * unit())
            let north = r * cos(angle) / 111_320
            let east = r * sin(angle) / (111_320 * max(cos(latitude * Double.pi / 180), 0.01))
            let text = position(latitude + north, longitude + east)
            if k == 0 { first = text }
            positions.append(text)
        }
        positions.append(first)
        return array(positions)
    }

    mutating func polygon(_ latitude: Double, _ longitude: Double) -> String {
        let metres = 50 + unit() * 3_000
        var rings = [ring(latitude, longitude, metres: metres, count: int(4...60))]
        if chance(0.3) { rings.append(ring(latitude, longitude, metres: metres * 0.3, count: int(4...12), reversed: chance(0.5))) }
        return array(rings)
    }

    /// Places to put a fence: mostly around Tübingen, some across the antimeridian, near the
    /// poles and at the equator.
    mutating func centre() -> (Double, Double) {
        switch int(0...19) {
        case 0: return (-16 + unit(), 179.99 + unit() * 0.02)
        case 1: return (89.9 + unit() * 0.05, unit() * 360 - 180)
        case 2: return (-89.9 + unit() * 0.05, unit() * 360 - 180)
        case 3: return (unit() * 0.01, unit() * 0.01)
        default: return (48 + unit(), 8.5 + unit() * 1.5)
        }
    }

    mutating func text(_ value: String) -> String {
        // Escapes, non-ASCII and a character outside the BMP, as editors write names.
        switch int(0...5) {
        case 0: return "\"" + value + " caf\\u00e9\""
        case 1: return "\"" + value + " \\\"quoted\\\" \\\\ \\/\""
        case 2: return "\"Tübingen " + value + " 😀\""
        case 3: return "\"\\ud83d\\ude00 " + value + "\""
        default: return "\"" + value + "\""
        }
    }

    mutating func properties(_ k: Int, circle: Bool) -> (members: [(String, String)], featureID: String?) {
        var members: [(String, String)] = []
        var featureID: String?
        switch int(0...5) {
        case 0: featureID = String(k)
        case 1: featureID = "\"feature-\(k)\""
        case 2: break
        default: members.append(("id", "\"f\(k)\""))
        }
        if circle { members.append(("radius", number(10 + unit() * 2_000, digits: int(0...2)))) }
        if chance(0.3) { members.append(("name", text("fence \(k)"))) }
        if chance(0.2) {
            members.append(("dwell", String(int(0...3600))))
            if chance(0.5) { members.append(("notify", array(["\"enter\"", "\"dwell\""]))) }
        } else if chance(0.2) {
            members.append(("notify", array([["\"enter\""], ["\"exit\""], ["\"enter\"", "\"exit\""], []][int(0...3)])))
        }
        if chance(0.15) { members.append(("command", array(["\"/usr/local/bin/alert\"", text("--fence=\(k)")]))) }
        if chance(0.2) { members.append(("stroke", "\"#555555\"")) }
        if chance(0.1) { members.append(("tags", object([("landuse", "\"park\""), ("levels", array(["1", "2.5", "null", "true"]))]))) }
        return (members, featureID)
    }

    mutating func feature(_ k: Int) -> String {
        let (latitude, longitude) = centre()
        let circle = chance(0.4)
        let geometry: String
        if circle {
            geometry = object([("type", "\"Point\""), ("coordinates", position(latitude, longitude))])
        } else if chance(0.2) {
            let other = (latitude + 0.05 > 90 ? latitude - 0.05 : latitude + 0.05, longitude)
            geometry = object([("type", "\"MultiPolygon\""),
                               ("coordinates", array([polygon(latitude, longitude), polygon(other.0, other.1)]))])
        } else {
            var members = [("type", "\"Polygon\""), ("coordinates", polygon(latitude, longitude))]
            if chance(0.1) { members.append(("bbox", array(["8.5", "48", "10", "49"]))) }
            geometry = object(members)
        }
        let (properties, featureID) = self.properties(k, circle: circle)
        var members = [("type", "\"Feature\""), ("geometry", geometry),
                       ("properties", properties.isEmpty && chance(0.5) ? "null" : object(properties))]
        if let featureID { members.append(("id", featureID)) }
        return object(members)
    }

    /// A whole file of `count` features.
    mutating func collection(_ count: Int) -> [UInt8] {
        var features: [String] = []
        for k in 0..<count { features.append(feature(k)) }
        var members = [("type", "\"FeatureCollection\""), ("features", "[" + space() + features.joined(separator: "," + space()) + space() + "]")]
        if chance(0.3) { members.append(("name", "\"export\"")) }
        if chance(0.3) { members.append(("crs", object([("type", "\"name\""), ("properties", object([("name", "\"urn:ogc:def:crs:OGC:1.3:CRS84\"")]))]))) }
        return Array((space() + object(members) + space()).utf8)
    }
}
