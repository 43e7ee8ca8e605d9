/// Polygons: the reach limit and the geometry the compiler's checks and boxes use
/// (`FenceImageBuilder+Polygon.swift`).
extension FenceSet {
    /// Polygons reaching further than this from their centre are refused: the local plane's
    /// metres stay within 0.3 % and geodesic edges within metres of straight up to here.
    public static var maximumPolygonReachMetres: Double { 500_000 }

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
    static func selfIntersection(_ ring: ArraySlice<Double>) -> (Int, Int)? {
        let edges = ring.count / 2 - 1
        guard edges >= 3 else { return nil }
        let o = ring.startIndex
        for i in 0..<edges {
            for j in (i + 1)..<edges {
                let neighbours = j == i + 1 || (i == 0 && j == edges - 1)
                let a = (ring[o + 2 * i], ring[o + 2 * i + 1])
                let b = (ring[o + 2 * i + 2], ring[o + 2 * i + 3])
                let c = (ring[o + 2 * j], ring[o + 2 * j + 1])
                let d = (ring[o + 2 * j + 2], ring[o + 2 * j + 3])
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
