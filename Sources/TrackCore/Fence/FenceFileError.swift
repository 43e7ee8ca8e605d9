/// Why a fences file was rejected: the feature (its index in `features`, 0-based, and its id
/// when it has one) and the problem.
///
/// `description` is one line, e.g. `feature 3 (id "depot"): ring 1 has 3 positions, a ring needs
/// at least 4 (the first repeated at the end)`.
public struct FenceFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Index of the feature in the `features` array; nil for problems of the file as a whole.
    public var featureIndex: Int?
    /// The feature's id, when it has one.
    public var featureID: String?
    /// What is wrong.
    public var problem: Problem

    /// An error about feature `featureIndex` (nil: the whole file).
    public init(featureIndex: Int?, featureID: String? = nil, problem: Problem) {
        self.featureIndex = featureIndex
        self.featureID = featureID
        self.problem = problem
    }

    /// What is wrong. Rings count from 0 across a feature's polygons (outer rings and holes in
    /// file order); positions and edges from 0 within a ring.
    public enum Problem: Error, Equatable, Sendable {
        /// The text is not JSON.
        case json(JSONError)
        /// The top level is not `{"type":"FeatureCollection","features":[…]}`.
        case notFeatureCollection
        /// An element of `features` is not an object with `"type":"Feature"`.
        case notAFeature
        /// The feature has no `geometry` object.
        case missingGeometry
        /// A geometry type trackd does not fence with, e.g. `LineString`.
        case unsupportedGeometry(String)
        /// Coordinates not shaped as the geometry type requires; `expected` says how.
        case malformedCoordinates(expected: String)
        /// A position outside latitude −90…90 or longitude −180…180 (degrees as written).
        case coordinateOutOfRange(longitude: Double, latitude: Double)
        /// A ring with fewer than 4 positions.
        case tooFewPositions(ring: Int, count: Int)
        /// A ring whose last position is not its first.
        case ringNotClosed(ring: Int)
        /// Two edges of one ring cross or touch (edges between positions i, i+1).
        case selfIntersecting(ring: Int, edge: Int, otherEdge: Int)
        /// A polygon reaching further than `maximumMetres` from its centre.
        case tooLarge(metres: Double, maximumMetres: Double)
        /// A Point feature without a numeric `properties.radius`.
        case missingRadius
        /// A radius outside the configured range (metres).
        case radiusOutOfRange(Double, minimumMetres: Double, maximumMetres: Double)
        /// The id was already used by the feature at `firstIndex`.
        case duplicateID(firstIndex: Int)
        /// A property of the wrong kind; `expected` completes "must be …".
        case badProperty(name: String, expected: String)
    }

    /// The error as one line.
    public var description: String {
        var text = ""
        if let featureIndex {
            text = String(joining: "feature ", String(featureIndex))
            if let featureID { text += " (id \"" + featureID + "\")" }
            text += ": "
        }
        switch problem {
        case .json(let error): text += "not JSON: " + error.description
        case .notFeatureCollection: text += "the file is not a GeoJSON FeatureCollection with a \"features\" array"
        case .notAFeature: text += "not a GeoJSON Feature object"
        case .missingGeometry: text += "no geometry object"
        case .unsupportedGeometry(let type):
            text += "geometry type \"" + type + "\" is not a fence (use Polygon, MultiPolygon or Point with a radius)"
        case .malformedCoordinates(let expected): text += "coordinates must be " + expected
        case .coordinateOutOfRange(let longitude, let latitude):
            text += String(joining: "position [", "\(longitude)", ", ", "\(latitude)", "] is out of range (longitude −180…180, latitude −90…90)")
        case .tooFewPositions(let ring, let count):
            text += String(joining: "ring ", String(ring), " has ", String(count), " positions, a ring needs at least 4 (the first repeated at the end)")
        case .ringNotClosed(let ring): text += String(joining: "ring ", String(ring), " is not closed (its last position must equal its first)")
        case .selfIntersecting(let ring, let edge, let otherEdge):
            text += String(joining: "ring ", String(ring), " intersects itself: edge ", String(edge), " meets edge ", String(otherEdge))
        case .tooLarge(let metres, let maximum):
            // A vertex behind the centre's horizon has no distance in the plane: infinite.
            let reach = metres.isFinite ? String(joining: String(Int(metres)), " m") : "over 84° of arc"
            text += String(joining: "the polygon reaches ", reach, " from its centre; at most ", String(Int(maximum)), " m")
        case .missingRadius: text += "a Point fence needs a numeric properties.radius in metres"
        case .radiusOutOfRange(let radius, let minimum, let maximum):
            text += String(joining: "radius ", "\(radius)", " m is outside the configured range ", "\(minimum)", "…", "\(maximum)", " m")
        case .duplicateID(let first): text += String(joining: "the id is already used by feature ", String(first))
        case .badProperty(let name, let expected): text += "property \"" + name + "\" must be " + expected
        }
        return text
    }
}
