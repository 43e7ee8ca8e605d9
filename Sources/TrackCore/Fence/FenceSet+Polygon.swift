/// Adding polygons: the local plane, the checks a ring must pass, and the boxes for the index.
extension FenceSet {
    /// Polygons reaching further than this from their centre are refused: the local plane's
    /// metres stay within 0.3 % and geodesic edges within metres of straight up to here.
    public static var maximumPolygonReachMetres: Double { 500_000 }

    /// Adds a polygon or multi-polygon: `parts` of rings (the first of each part outer, the
    /// rest holes; any winding), each ring closed with at least 4 positions, e.g. a square
    /// `[[[a, b, c, d, a]]]`. Throws the first problem found, naming the ring.
    public mutating func appendPolygon(_ fence: Fence, parts: [[[Coordinate]]]) throws(FenceFileError.Problem) {
        var centreSum = GeoVector(x: 0, y: 0, z: 0)
        var ringNumber = 0
        for part in parts {
            for ring in part {
                guard ring.count >= 4 else { throw .tooFewPositions(ring: ringNumber, count: ring.count) }
                guard ring[0] == ring[ring.count - 1] else { throw .ringNotClosed(ring: ringNumber) }
                for position in ring.dropLast() { centreSum = centreSum + GeoVector(position) }
                ringNumber += 1
            }
        }
        guard ringNumber > 0 else { throw .malformedCoordinates(expected: "at least one ring") }
        let centre = centreSum.length > 1e-9 ? centreSum.normalized : GeoVector(x: 1, y: 0, z: 0)
        let plane = LocalPlane(centre: centre)
        precondition(image.fenceCount == 0, "fences appended after buildIndex")
        let firstRing = self.parts.rings.count
        var projected: [Double] = []
        var reach = 0.0
        ringNumber = 0
        for part in parts {
            for ring in part {
                let start = self.parts.vertices.count / 2
                projected.removeAll(keepingCapacity: true)
                for position in ring {
                    guard let local = plane.project(GeoVector(position)) else {
                        throw .tooLarge(metres: .infinity, maximumMetres: FenceSet.maximumPolygonReachMetres)
                    }
                    projected.append(local.east)
                    projected.append(local.north)
                    reach = max(reach, Math.squareRoot(local.east * local.east + local.north * local.north))
                }
                guard reach <= FenceSet.maximumPolygonReachMetres else {
                    throw .tooLarge(metres: reach, maximumMetres: FenceSet.maximumPolygonReachMetres)
                }
                if let crossing = FenceSet.selfIntersection(projected) {
                    throw .selfIntersecting(ring: ringNumber, edge: crossing.0, otherEdge: crossing.1)
                }
                self.parts.vertices.append(contentsOf: projected)
                self.parts.rings.append(start..<(self.parts.vertices.count / 2))
                ringNumber += 1
            }
        }
        let number = self.parts.fences.count
        self.parts.fences.append(fence)
        let shape = Shape(plane: plane, centre: Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: 0),
                          radiusMetres: 0, rings: firstRing..<self.parts.rings.count)
        self.parts.shapes.append(shape)
        appendPolygonBoxes(shape, number: number, parts: parts)
    }

    /// Boxes over the vertices and each edge's highest and lowest point (great circles bulge
    /// poleward between vertices), widened by 1 m and 0.1 % of the longest edge; all longitudes
    /// up to the pole when the cap round the centre that holds the polygon reaches a pole (there
    /// the longitudes the vertices span say nothing of those between them).
    mutating func appendPolygonBoxes(_ shape: Shape, number: Int, parts: [[[Coordinate]]]) {
        let centre = shape.plane.centre
        let centreLongitude = centre.longitudeDegrees
        var south = 90.0
        var north = -90.0
        var west = 360.0
        var east = -360.0
        var longest = 0.0
        var capCosine = 1.0
        for part in parts {
            for ring in part {
                for index in 0..<(ring.count - 1) {
                    let a = GeoVector(ring[index])
                    let b = GeoVector(ring[index + 1])
                    longest = max(longest, (a + b * -1).length)
                    capCosine = min(capCosine, centre.dot(a))
                    FenceSet.arcLatitudeExtremes(a, b) { latitude in
                        south = min(south, latitude)
                        north = max(north, latitude)
                    }
                    // The arc's longitudes lie between its vertices' (see below): each vertex
                    // once, as the start of its edge.
                    var longitude = a.longitudeDegrees - centreLongitude
                    if longitude > 180 { longitude -= 360 }
                    if longitude < -180 { longitude += 360 }
                    south = min(south, a.latitudeDegrees)
                    north = max(north, a.latitudeDegrees)
                    west = min(west, longitude)
                    east = max(east, longitude)
                }
            }
        }
        // A margin of 1 m and 0.1 % of the longest edge for rounding: metres → degrees.
        let marginMetres = 1 + longest * 6_371_000 * 0.001
        let dLatitude = marginMetres / 110_000
        var bounds: [UInt32] = []
        for ring in self.parts.rings[shape.rings] { bounds += [UInt32(ring.lowerBound), UInt32(ring.upperBound)] }
        let local = Shape(plane: shape.plane, centre: shape.centre, radiusMetres: 0, rings: 0..<shape.rings.count)
        for pole in [GeoVector(x: 0, y: 0, z: 1), GeoVector(x: 0, y: 0, z: -1)] {
            let distance = bounds.withUnsafeBufferPointer { rings in
                self.parts.vertices.withUnsafeBufferPointer { FenceSet.polygonDistance(local, point: pole, limitMetres: 1, rings: rings, vertices: $0) }
            }
            if distance > -1 { if pole.z > 0 { north = 90 } else { south = -90 } }
        }
        // Every edge lies in the cap of the vertices' largest angle from the centre (a cap under
        // a hemisphere is convex). One clear of the poles is less than 90° of longitude either
        // side of the centre, so the relative longitudes do not wrap, and a great-circle arc that
        // passes no pole runs monotonically in longitude: the vertices bound it.
        let capDegrees = Math.atan2Degrees(Math.squareRoot(max(0, 1 - capCosine * capCosine)), capCosine)
        let centreLatitude = centre.latitudeDegrees
        if centreLatitude + capDegrees + dLatitude >= 90 { north = 90 }
        if centreLatitude - capDegrees - dLatitude <= -90 { south = -90 }
        let cosine = Math.sinCosDegrees(min(max(south.magnitude, north.magnitude) + dLatitude, 90)).cos
        let dLongitude = cosine > 1e-9 ? marginMetres / (111_000 * cosine) : 360
        FenceBox.covering(latitudes: (south - dLatitude)...(north + dLatitude), centreLongitude: centreLongitude,
                          west: west - dLongitude, east: east + dLongitude) {
            self.parts.boxes.append(($0, number))
        }
    }

    /// Calls `body` with the latitude of the great-circle arc a → b's highest point and of its
    /// lowest, each where it lies inside the arc (strictly between a and b: the vertices count
    /// anyway); nothing for an arc along the equator or of no length.
    static func arcLatitudeExtremes(_ a: GeoVector, _ b: GeoVector, _ body: (Double) -> Void) {
        let normal = a.cross(b)
        guard normal.length > 1e-15 else { return }
        let unit = normal.normalized
        // The pole's direction less its part along the circle's normal: the circle's top.
        let towardsPole = GeoVector(x: -unit.z * unit.x, y: -unit.z * unit.y, z: 1 - unit.z * unit.z)
        guard towardsPole.length > 1e-15 else { return }
        let top = towardsPole.normalized
        for apex in [top, top * -1] where a.cross(apex).dot(normal) > 0 && apex.cross(b).dot(normal) > 0 {
            body(apex.latitudeDegrees)
        }
    }

    /// The first pair of edges of a closed ring (east, north pairs) that cross or touch, other
    /// than neighbours sharing their common vertex; nil for a simple ring. O(n²) at load.
    static func selfIntersection(_ ring: [Double]) -> (Int, Int)? {
        let edges = ring.count / 2 - 1
        guard edges >= 3 else { return nil }
        for i in 0..<edges {
            for j in (i + 1)..<edges {
                let neighbours = j == i + 1 || (i == 0 && j == edges - 1)
                let a = (ring[2 * i], ring[2 * i + 1])
                let b = (ring[2 * i + 2], ring[2 * i + 3])
                let c = (ring[2 * j], ring[2 * j + 1])
                let d = (ring[2 * j + 2], ring[2 * j + 3])
                if neighbours {
                    // Neighbours may only share their common vertex: fold-backs overlap.
                    if collinearOverlap(a, b, c, d) { return (i, j) }
                    continue
                }
                if segmentsMeet(a, b, c, d) { return (i, j) }
            }
        }
        return nil
    }

    static func orientation(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> Double {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    }

    static func onSegment(_ a: (Double, Double), _ b: (Double, Double), _ p: (Double, Double)) -> Bool {
        min(a.0, b.0) <= p.0 && p.0 <= max(a.0, b.0) && min(a.1, b.1) <= p.1 && p.1 <= max(a.1, b.1)
    }

    static func segmentsMeet(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ d: (Double, Double)) -> Bool {
        if max(a.0, b.0) < min(c.0, d.0) || max(c.0, d.0) < min(a.0, b.0)
            || max(a.1, b.1) < min(c.1, d.1) || max(c.1, d.1) < min(a.1, b.1) { return false }
        let o1 = orientation(a, b, c)
        let o2 = orientation(a, b, d)
        let o3 = orientation(c, d, a)
        let o4 = orientation(c, d, b)
        if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) { return true }
        return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d))
            || (o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b))
    }

    /// Two edges sharing a vertex that run back over each other (a spike of zero width).
    static func collinearOverlap(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ d: (Double, Double)) -> Bool {
        guard orientation(a, b, c) == 0 && orientation(a, b, d) == 0 else { return false }
        // Shared vertex: b == c (consecutive) or a == d (first and last edge).
        let (shared, p, q) = b == c ? (b, a, d) : (a, b, c)
        let u = (p.0 - shared.0, p.1 - shared.1)
        let v = (q.0 - shared.0, q.1 - shared.1)
        return u.0 * v.0 + u.1 * v.1 > 0
    }
}
