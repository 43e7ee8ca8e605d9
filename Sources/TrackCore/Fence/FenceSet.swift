/// The loaded fences: their descriptions, their geometry in flat arrays (vertices in each
/// fence's `LocalPlane`, in metres) and the spatial index over them. Built once at start-up;
/// the per-fix path only reads it.
///
/// Example: `FenceFile.parse(bytes, settings: .init())` returns one; `signedDistance(of:to:)`
/// says how far inside (positive) or outside (negative) a point is.
public struct FenceSet: Sendable {
    /// The fences in file order; an index here is the fence's number in logs and events.
    public internal(set) var fences: [Fence] = []
    var shapes: [Shape] = []
    /// Vertex ranges (indices into `vertices`' pairs); a ring's last vertex equals its first.
    var rings: [Range<Int>] = []
    /// East and north in metres, interleaved.
    var vertices: [Double] = []
    /// Boxes of the fences, built by `buildIndex`.
    public internal(set) var index = FenceIndex()
    var boxes: [(box: FenceBox, fence: Int)] = []

    struct Shape: Sendable {
        var plane: LocalPlane
        var centre: Coordinate
        var radiusMetres: Double
        /// Ring indices of a polygon; empty for a circle.
        var rings: Range<Int>
    }

    /// No fences.
    public init() {}

    /// The number of fences.
    public var count: Int { fences.count }

    /// Adds a circle of `radiusMetres` (geodesic) around `centre`.
    public mutating func appendCircle(_ fence: Fence, centre: Coordinate, radiusMetres: Double) {
        let vector = GeoVector(centre)
        let plane = LocalPlane(centre: vector)
        let number = fences.count
        fences.append(fence)
        shapes.append(Shape(plane: plane, centre: centre, radiusMetres: radiusMetres, rings: rings.count..<rings.count))
        // The radii of curvature bound the degrees; 1 % and 1 m cover the ellipsoid's slack.
        let reach = radiusMetres * 1.01 + 1
        let dLatitude = reach / plane.northMetres * 180 / Double.pi
        let cosine = Math.sinCosDegrees(min(centre.latitudeDegrees.magnitude + dLatitude, 90)).cos
        let dLongitude = cosine > 1e-9 ? reach / (plane.eastMetres * cosine) * 180 / Double.pi : 360
        let latitude = centre.latitudeDegrees
        FenceBox.covering(latitudes: (latitude - dLatitude)...(latitude + dLatitude),
                          centreLongitude: centre.longitudeDegrees, west: -dLongitude, east: dLongitude) {
            boxes.append(($0, number))
        }
    }

    /// Builds the spatial index; call once after the last append.
    public mutating func buildIndex() {
        index = FenceIndex(entries: boxes)
    }

    /// How far `point` is inside fence `fence` in metres: positive inside, negative outside,
    /// clamped to ±`limitMetres` (a distance beyond the limit is not computed exactly), e.g.
    /// 30 m from the centre of a 100 m circle → 70. `coordinate` is the same point as `point`.
    @inline(__always)
    public func signedDistance(of fence: Int, to point: GeoVector, coordinate: Coordinate, limitMetres: Double) -> Double {
        let shape = shapes[fence]
        if shape.rings.isEmpty {
            return circleDistance(shape, point: point, coordinate: coordinate, limitMetres: limitMetres)
        }
        return polygonDistance(shape, point: point, limitMetres: limitMetres)
    }

    func circleDistance(_ shape: Shape, point: GeoVector, coordinate: Coordinate, limitMetres: Double) -> Double {
        // A spherical estimate first (within 0.7 % of the geodesic distance): Karney's solution
        // only where the estimate cannot decide.
        guard let local = shape.plane.project(point) else { return -limitMetres }
        let estimate = Math.squareRoot(local.east * local.east + local.north * local.north)
        let slack = estimate * 0.01 + 1
        if estimate - shape.radiusMetres > limitMetres + slack { return -limitMetres }
        if shape.radiusMetres - estimate > limitMetres + slack { return limitMetres }
        let distance = Geodesic.inverse(shape.centre, coordinate).distanceMetres
        return min(max(shape.radiusMetres - distance, -limitMetres), limitMetres)
    }

    func polygonDistance(_ shape: Shape, point: GeoVector, limitMetres: Double) -> Double {
        guard let local = shape.plane.project(point) else { return -limitMetres }
        let px = local.east
        let py = local.north
        var inside = false
        var best = limitMetres * limitMetres
        vertices.withUnsafeBufferPointer { v in
            rings.withUnsafeBufferPointer { rings in
                for ring in shape.rings {
                    let range = rings[ring]
                    var ax = v[2 * range.lowerBound]
                    var ay = v[2 * range.lowerBound + 1]
                    for vertex in (range.lowerBound + 1)..<range.upperBound {
                        let bx = v[2 * vertex]
                        let by = v[2 * vertex + 1]
                        let dx = bx - ax
                        let dy = by - ay
                        // Even-odd crossings of the ray eastward from the point: holes and
                        // the parts of a multi-polygon need no special case.
                        if (ay > py) != (by > py) && px < ax + (py - ay) * dx / (by - ay) { inside.toggle() }
                        let wx = px - ax
                        let wy = py - ay
                        let length2 = dx * dx + dy * dy
                        var t = length2 > 0 ? (wx * dx + wy * dy) / length2 : 0
                        t = min(max(t, 0), 1)
                        let ex = wx - t * dx
                        let ey = wy - t * dy
                        best = min(best, ex * ex + ey * ey)
                        ax = bx
                        ay = by
                    }
                }
            }
        }
        let distance = Math.squareRoot(best)
        return inside ? distance : -distance
    }

    /// The state of every fence for one fix alone (no ring buffer, no hysteresis): inside when
    /// the accuracy circle is wholly inside, outside when wholly outside, else unknown; e.g.
    /// `trackctl fence check 48.5 9.06 10`. Checks every fence, without the index.
    public func states(at coordinate: Coordinate, accuracyMetres: Double, _ body: (Int, FenceState) -> Void) {
        let point = GeoVector(coordinate)
        let limit = accuracyMetres + 1
        for fence in fences.indices {
            let distance = signedDistance(of: fence, to: point, coordinate: coordinate, limitMetres: limit)
            body(fence, FenceSet.vote(distance, accuracyMetres: accuracyMetres))
        }
    }

    /// The state one fix gives: `.inside` when `distance` (metres, positive inside) exceeds the
    /// accuracy, `.outside` when below its negative, else `.unknown`.
    @inline(__always)
    static func vote(_ distance: Double, accuracyMetres: Double) -> FenceState {
        if distance > accuracyMetres { return .inside }
        if distance < -accuracyMetres { return .outside }
        return .unknown
    }
}

extension FenceSet {
    /// Calls `body` with the box or boxes (two across the antimeridian) holding every point
    /// within `metres` of `coordinate`, for `index.query`.
    public func boxesAround(_ coordinate: Coordinate, metres: Double, _ body: (FenceBox) -> Void) {
        FenceBox.around(coordinate.latitudeDegrees, coordinate.longitudeDegrees, metres: metres, body)
    }
}

extension FenceSet {
    /// Rings of all polygons (outer rings and holes).
    public var ringCount: Int { rings.count }
    /// Vertices of all rings, closing vertices included.
    public var vertexCount: Int { vertices.count / 2 }
}
