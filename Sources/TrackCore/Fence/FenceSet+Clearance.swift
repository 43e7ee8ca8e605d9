/// The monitor's distance to a polygon: `signedDistance`'s value, with the edges looked at only
/// where the fence's track cannot tell without them (`FenceClearance`). A fix near a boundary
/// of thousands of vertices then costs the few dozen edges of the window round it, and a fix
/// far from every edge none, instead of all of them every fix.
extension FenceSet {
    /// Edges of a window at most, and how far past the nearest edge it reaches (metres).
    static var windowEdges: Int { 96 }
    static var windowMetres: Double { 300 }
    /// Polygons of at most this many vertices get no window: all their edges are looked at
    /// whenever the point has come too near them.
    static var smallPolygonVertices: Int { 96 }
    /// How far past the limit a small polygon's edges are looked for (metres): the clearance
    /// kept for it, a few fixes' worth.
    static var smallPolygonReachMetres: Double { 40 }

    /// `signedDistance(of:to:coordinate:limitMetres:)`, the same value, using and updating the
    /// fence track's `clearance`.
    @inline(__always)
    func signedDistance(of fence: Int, to point: GeoVector, coordinate: Coordinate, limitMetres: Double,
                        clearance: inout FenceClearance) -> Double {
        let shape = image.shape(fence)
        if shape.rings.isEmpty {
            return circleDistance(shape, point: point, coordinate: coordinate, limitMetres: limitMetres)
        }
        let rings = image.ringBounds
        let vertices = image.vertexValues
        guard let local = shape.plane.project(point) else { return -limitMetres }
        if clearance.metres > 0 {
            let dx = local.east - clearance.east
            let dy = local.north - clearance.north
            // 1 mm for the rounding of the distances.
            if clearance.metres - Math.squareRoot(dx * dx + dy * dy) > limitMetres + 0.001,
               let distance = FenceSet.windowDistance(clearance, local, limitMetres: limitMetres, vertices) {
                return distance
            }
        }
        // A small polygon (a building, a yard) is looked at whole, and only how far it is kept.
        let vertexCount = Int(rings[2 * shape.rings.upperBound - 1]) - Int(rings[2 * shape.rings.lowerBound])
        let small = vertexCount <= FenceSet.smallPolygonVertices
        return FenceSet.fullDistance(shape, local, limitMetres: limitMetres, window: !small, rings: rings, vertices, &clearance)
    }

    /// The squared distance from (px, py) to the edge from vertex `a` to `a + 1`, as
    /// `polygonDistance` computes it; nil when the edge's box is further than √`best` (so the
    /// edge cannot be nearer: 1e-9 of slack for the rounding).
    @inline(__always)
    static func edgeDistance(_ px: Double, _ py: Double, _ a: Int, _ v: UnsafeBufferPointer<Double>, best: Double) -> Double? {
        let ax = v[2 * a], ay = v[2 * a + 1], bx = v[2 * a + 2], by = v[2 * a + 3]
        let gx = max(min(ax, bx) - px, px - max(ax, bx), 0)
        let gy = max(min(ay, by) - py, py - max(ay, by), 0)
        guard gx * gx + gy * gy <= best * (1 + 1e-9) else { return nil }
        let dx = bx - ax
        let dy = by - ay
        let wx = px - ax
        let wy = py - ay
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? (wx * dx + wy * dy) / length2 : 0
        t = min(max(t, 0), 1)
        let ex = wx - t * dx
        let ey = wy - t * dy
        return ex * ex + ey * ey
    }

    /// Every edge of `shape`: true when the point is inside (even-odd, as `polygonDistance`);
    /// `best` lowered to the squared distance of the nearest edge nearer than it, `nearest`
    /// that edge and its ring. With `best` = L² first, √`best` is `polygonDistance`'s value.
    @inline(__always)
    static func scan(_ shape: Shape, _ local: (east: Double, north: Double), rings: UnsafeBufferPointer<UInt32>,
                     _ v: UnsafeBufferPointer<Double>, best: inout Double, nearest: inout (edge: Int, ring: Range<Int>)) -> Bool {
        let px = local.east
        let py = local.north
        var inside = false
        for ring in shape.rings {
            let range = Int(rings[2 * ring])..<Int(rings[2 * ring + 1])
            for a in range.lowerBound..<(range.upperBound - 1) {
                let ay = v[2 * a + 1]
                let by = v[2 * a + 3]
                // Even-odd crossings of the ray eastward from the point, as polygonDistance.
                if (ay > py) != (by > py) {
                    let ax = v[2 * a]
                    if px < ax + (py - ay) * (v[2 * a + 2] - ax) / (by - ay) { inside.toggle() }
                }
                if let distance = edgeDistance(px, py, a, v, best: best), distance < best {
                    best = distance
                    nearest = (a, range)
                }
            }
        }
        return inside
    }

    /// Every edge: the even-odd side and the nearest edge, as `polygonDistance` finds them
    /// (the value it gives), then the window round that edge and how far the rest is, kept in
    /// `clearance`.
    static func fullDistance(_ shape: Shape, _ local: (east: Double, north: Double), limitMetres: Double, window: Bool,
                             rings: UnsafeBufferPointer<UInt32>, _ v: UnsafeBufferPointer<Double>,
                             _ clearance: inout FenceClearance) -> Double {
        let px = local.east
        let py = local.north
        // Edges further than the window's reach past the limit make no difference.
        let cap = limitMetres + (window ? windowMetres : smallPolygonReachMetres)
        var best = cap * cap
        var found = (edge: -1, ring: 0..<0)
        let inside = scan(shape, local, rings: rings, v, best: &best, nearest: &found)
        let (nearest, nearestRing) = found
        let distance = Math.squareRoot(best)
        // √ is correctly rounded and monotonic: min(L, √min(C², e²)) is polygonDistance's
        // √min(L², e²) for a cap C ≥ L.
        let result = inside ? min(distance, limitMetres) : -min(distance, limitMetres)
        clearance = FenceClearance()
        // A point within 1 cm of an edge: its side is left to the next full look.
        guard distance > 0.01 else { return result }
        clearance = FenceClearance(east: px, north: py, metres: distance, inside: inside)
        guard window, nearest >= 0 else { return result }
        // The window: the ring's edges either side of the nearest one within the reach.
        let reach = distance + windowMetres
        let reach2 = reach * reach
        // The window runs round the ring past its first vertex if need be: offsets from the
        // ring's first edge, modulo its edges. Grown a step each way in turn, so that a full
        // window is centred on the nearest edge.
        let ringFirst = nearestRing.lowerBound
        let edges = nearestRing.count - 1
        let most = min(windowEdges, edges)
        var start = nearest - ringFirst
        var count = 1
        var back = true
        var forward = true
        while (back || forward) && count < most {
            if back {
                let previous = (start + edges - 1) % edges
                if let d = edgeDistance(px, py, ringFirst + previous, v, best: reach2), d <= reach2 {
                    start = previous
                    count += 1
                } else {
                    back = false
                }
            }
            if forward && count < most {
                if let d = edgeDistance(px, py, ringFirst + (start + count) % edges, v, best: reach2), d <= reach2 {
                    count += 1
                } else {
                    forward = false
                }
            }
        }
        // How far every edge outside the window is.
        var rest = Double.infinity
        for ring in shape.rings {
            let range = Int(rings[2 * ring])..<Int(rings[2 * ring + 1])
            for a in range.lowerBound..<(range.upperBound - 1) {
                if range.lowerBound == ringFirst && (a - ringFirst - start + edges) % edges < count { continue }
                if let d = edgeDistance(px, py, a, v, best: rest), d < rest { rest = d }
            }
        }
        clearance.metres = Math.squareRoot(rest)
        clearance.ringFirst = UInt32(ringFirst)
        clearance.ringEdges = UInt32(edges)
        clearance.start = UInt32(start)
        clearance.count = UInt32(count)
        return result
    }

    /// The distance from the window alone, when the point is more than the limit from every
    /// edge outside it: the side from the one then and the window's edges the path between
    /// crossed. Nil when that cannot be told for certain (the path touches an edge or passes a
    /// vertex, or the point is within 1 cm of an edge).
    static func windowDistance(_ clearance: FenceClearance, _ local: (east: Double, north: Double), limitMetres: Double,
                               _ v: UnsafeBufferPointer<Double>) -> Double? {
        guard clearance.count > 0 else { return clearance.inside ? limitMetres : -limitMetres }
        let (px, py) = (local.east, local.north)
        let (qx, qy) = (clearance.east, clearance.north)
        let pathX = px - qx
        let pathY = py - qy
        let path = Math.squareRoot(pathX * pathX + pathY * pathY)
        var best = limitMetres * limitMetres
        var inside = clearance.inside
        let ringFirst = Int(clearance.ringFirst)
        let edges = Int(clearance.ringEdges)
        var offset = Int(clearance.start)
        for _ in 0..<Int(clearance.count) {
            let a = ringFirst + offset
            offset = offset + 1 == edges ? 0 : offset + 1
            if let distance = edgeDistance(px, py, a, v, best: best), distance < best { best = distance }
            let ax = v[2 * a], ay = v[2 * a + 1], bx = v[2 * a + 2], by = v[2 * a + 3]
            guard max(ax, bx) >= min(px, qx), min(ax, bx) <= max(px, qx), max(ay, by) >= min(py, qy), min(ay, by) <= max(py, qy) else {
                continue
            }
            // Sides of the path's ends against the edge, and of the edge's ends against the path
            // (cross products: length × distance from the line); under 1 µm is a touch.
            let ex = bx - ax
            let ey = by - ay
            let edge = Math.squareRoot(ex * ex + ey * ey)
            let o1 = ex * (qy - ay) - ey * (qx - ax)
            let o2 = ex * (py - ay) - ey * (px - ax)
            let o3 = pathX * (ay - qy) - pathY * (ax - qx)
            let o4 = pathX * (by - qy) - pathY * (bx - qx)
            let edgeTolerance = 1e-6 * edge
            let pathTolerance = 1e-6 * path
            if o1.magnitude < edgeTolerance || o2.magnitude < edgeTolerance
                || o3.magnitude < pathTolerance || o4.magnitude < pathTolerance { return nil }
            if (o1 > 0) != (o2 > 0) && (o3 > 0) != (o4 > 0) { inside.toggle() }
        }
        guard best > 0.0001 else { return nil }
        let distance = Math.squareRoot(best)
        return inside ? distance : -distance
    }
}
