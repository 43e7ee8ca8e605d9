/// The loaded fences: their descriptions, their geometry (vertices in each fence's
/// `LocalPlane`, in metres) and the spatial index over them, all in one compiled `FenceImage`
/// (a heap copy, or the daemon's mapping of the image file). Built once at start-up, by appends
/// and `buildIndex`, or opened from an image; the per-fix path only reads it.
///
/// Example: `FenceFile.parse(bytes, settings: .init())` returns one; `signedDistance(of:to:)`
/// says how far inside (positive) or outside (negative) a point is.
public struct FenceSet: Sendable {
    /// The compiler while fences are appended; empty once `buildIndex` has compiled them.
    var builder = FenceImageBuilder(spool: FenceImageMemorySpool())
    /// The compiled fences every read goes to.
    public private(set) var image = FenceImage.empty

    struct Shape: Sendable {
        var plane: LocalPlane
        var centre: Coordinate
        var radiusMetres: Double
        /// Ring indices of a polygon; empty for a circle.
        var rings: Range<Int>
    }

    /// No fences.
    public init() {}

    /// The fences compiled in `image`, e.g. the daemon's mapping of its image file.
    public init(image: FenceImage) {
        self.image = image
    }

    /// The number of fences.
    public var count: Int { image.fenceCount }

    /// The fences in file order; an index here is the fence's number in logs and events.
    public var fences: FenceList { FenceList(image: image) }

    /// The spatial index over the fences' boxes.
    public var index: FenceIndex { FenceIndex(image) }

    /// Which transitions fence `fence` reports (no allocation, unlike `fences[fence]`).
    @inline(__always)
    public func notify(of fence: Int) -> FenceNotify { image.notify(fence) }

    /// Fence `fence`'s loitering delay in seconds, nil for none (no allocation).
    @inline(__always)
    public func dwellSeconds(of fence: Int) -> Int? { image.dwellSeconds(fence) }

    /// Fence `fence`'s id, e.g. `home`.
    public func id(of fence: Int) -> String { image.id(fence) }

    /// Adds a circle of `radiusMetres` (geodesic) around `centre`.
    public mutating func appendCircle(_ fence: Fence, centre: Coordinate, radiusMetres: Double) {
        precondition(image.fenceCount == 0, "fences appended after buildIndex")
        builder.appendCircle(fence, centre: centre, radiusMetres: radiusMetres)
    }

    /// Adds a polygon or multi-polygon (see `FenceImageBuilder.appendPolygon`), e.g. a square
    /// `[[[a, b, c, d, a]]]`; throws the first problem, naming the ring, and adds nothing then.
    public mutating func appendPolygon(_ fence: Fence, parts: [[[Coordinate]]]) throws(FenceFileError.Problem) {
        precondition(image.fenceCount == 0, "fences appended after buildIndex")
        try builder.appendPolygon(fence, parts: parts)
    }

    /// Compiles the fences appended into the image with its index; call once after the last
    /// append (nothing can be appended after it). `key` names the source for an image file
    /// (`FenceImage.key`).
    public mutating func buildIndex(key: UInt64 = 0) {
        guard image.fenceCount == 0 else { return }
        self = FenceSet(compiling: &builder, key: key)
    }

    /// The fences `builder` compiled, laid out on the heap for `key`.
    public init<Spool: FenceImageSpool>(compiling builder: inout FenceImageBuilder<Spool>, key: UInt64) {
        image = FenceImage.compiled(&builder, key: key)
    }

    /// How far `point` is inside fence `fence` in metres: positive inside, negative outside,
    /// clamped to ±`limitMetres` (a distance beyond the limit is not computed exactly), e.g.
    /// 30 m from the centre of a 100 m circle → 70. `coordinate` is the same point as `point`.
    @inline(__always)
    public func signedDistance(of fence: Int, to point: GeoVector, coordinate: Coordinate, limitMetres: Double) -> Double {
        let shape = image.shape(fence)
        if shape.rings.isEmpty {
            return circleDistance(shape, point: point, coordinate: coordinate, limitMetres: limitMetres)
        }
        return FenceSet.polygonDistance(shape, point: point, limitMetres: limitMetres,
                                        rings: image.ringBounds, vertices: image.vertexValues)
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

    /// The signed distance to a polygon whose ring bounds (first, end vertex pairs) and vertices
    /// (east, north pairs) are in `rings` and `vertices`.
    static func polygonDistance(_ shape: Shape, point: GeoVector, limitMetres: Double,
                                rings: UnsafeBufferPointer<UInt32>, vertices v: UnsafeBufferPointer<Double>) -> Double {
        guard let local = shape.plane.project(point) else { return -limitMetres }
        let px = local.east
        let py = local.north
        var inside = false
        var best = limitMetres * limitMetres
        for ring in shape.rings {
            let range = Int(rings[2 * ring])..<Int(rings[2 * ring + 1])
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
        let distance = Math.squareRoot(best)
        return inside ? distance : -distance
    }

    /// The state of every fence for one fix alone (no ring buffer, no hysteresis): inside when
    /// the accuracy circle is wholly inside, outside when wholly outside, else unknown; e.g.
    /// `trackctl fence check 48.5 9.06 10`. Checks every fence, without the index.
    public func states(at coordinate: Coordinate, accuracyMetres: Double, _ body: (Int, FenceState) -> Void) {
        let point = GeoVector(coordinate)
        let limit = accuracyMetres + 1
        for fence in 0..<count {
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
    public var ringCount: Int { image.ringCount }
    /// Vertices of all rings, closing vertices included.
    public var vertexCount: Int { image.vertexCount }
}
