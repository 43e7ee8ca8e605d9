/// Douglas–Peucker line simplification with its bound kept on the WGS-84 ellipsoid: every
/// point it drops lies within the tolerance of the segment between the kept points around it.
///
/// Iterative (an explicit stack of index ranges), so a track of a million fixes cannot overflow
/// the call stack. Distances are measured fast by `CrossTrack` (the section of the ellipsoid
/// through the segment's ends), which strays from the geodesic by up to about 6e-11 · L²
/// (L the segment's length: 1.5 mm at 5 km, 0.6 m at 100 km); where a decision falls inside
/// four times that band, `Geodesic.distance(from:toSegmentFrom:to:)` decides. A margin of
/// 1 mm plus 1e-4 of the tolerance absorbs rounding. Example: for a straight 1 Hz walk with 30 cm of jitter,
/// `keep(positions, toleranceMillimetres: 5_000)` keeps the two ends and the corners.
public enum DouglasPeucker {
    /// One flag per position: true for the points to keep. The first and last are always kept;
    /// fewer than three positions are all kept.
    public static func keep(_ positions: [LogPosition], toleranceMillimetres: Int64) -> [Bool] {
        var kept = [Bool](repeating: false, count: positions.count)
        guard positions.count > 2 else {
            for index in kept.indices { kept[index] = true }
            return kept
        }
        kept[0] = true
        kept[positions.count - 1] = true
        let points = positions.map(CrossTrack.Point.init)
        let tolerance = Double(max(toleranceMillimetres, 0)) / 1000
        let working = tolerance * (1 - 1e-4) - 0.001
        var ranges: [(first: Int, last: Int)] = [(0, positions.count - 1)]
        while let range = ranges.popLast() {
            guard range.last - range.first > 1 else { continue }
            let segment = CrossTrack.Segment(points[range.first], points[range.last])
            var farthest = range.first
            var farthestDistance = -1.0
            for index in (range.first + 1)..<range.last {
                let distance = segment.distance(to: points[index])
                if distance > farthestDistance {
                    farthestDistance = distance
                    farthest = index
                }
            }
            // The ellipsoid section strays from the geodesic by up to ~6e-11 · L² metres (measured
            // against the geodesic solver: 0.6 mm at 5 km, 0.6 m at 100 km); within four times
            // that of the line, the geodesic itself decides.
            let band = 0.001 + 2.5e-10 * segment.lengthMetres * segment.lengthMetres
            var split: Int?
            if farthestDistance > working + band {
                split = farthest
            } else if farthestDistance > working - band {
                split = exactSplit(positions, points, segment, range, threshold: working - band, tolerance: tolerance)
            }
            if let split {
                kept[split] = true
                ranges.append((range.first, split))
                ranges.append((split, range.last))
            }
        }
        return kept
    }

    /// The farthest point of `range` by the geodesic solver when it is beyond `tolerance`
    /// (nil when all are within), checking only those the fast measure puts past `threshold`.
    static func exactSplit(_ positions: [LogPosition], _ points: [CrossTrack.Point], _ segment: CrossTrack.Segment,
                           _ range: (first: Int, last: Int), threshold: Double, tolerance: Double) -> Int? {
        let start = positions[range.first].coordinate
        let end = positions[range.last].coordinate
        var farthest: Int?
        var farthestDistance = tolerance
        for index in (range.first + 1)..<range.last where segment.distance(to: points[index]) > threshold {
            let distance = Geodesic.distance(from: positions[index].coordinate, toSegmentFrom: start, to: end)
            if distance > farthestDistance {
                farthestDistance = distance
                farthest = index
            }
        }
        return farthest
    }
}

/// Distances from a point to a segment on the WGS-84 ellipsoid, in metres, for simplification.
///
/// Points are earth-centred Cartesian vectors; the segment A–B is taken along the plane through
/// the earth's centre, A and B (the great ellipse, which the geodesic follows to within
/// millimetres over hundreds of kilometres). A point whose foot lies between A and B is at its
/// distance from that plane; any other at its straight-line distance from the nearer end. All
/// products are formed from differences of nearby points, so nothing is lost to the 6,400 km
/// magnitude of the vectors: the result is good to micrometres at the log's 1e-7°. Example: a
/// point 10 m north of the middle of a 1 km east–west segment is 10.000 m away.
public enum CrossTrack {
    /// A position as an earth-centred, earth-fixed vector in metres on the ellipsoid's surface.
    public struct Point: Sendable {
        /// X towards (0°, 0°), Y towards (0°, 90°E), Z towards the north pole.
        public var x, y, z: Double

        /// The ECEF vector of `position` at height 0.
        public init(_ position: LogPosition) {
            let latitude = Math.sinCosDegrees(Double(position.latitudeE7) / 1e7)
            let longitude = Math.sinCosDegrees(Double(position.longitudeE7) / 1e7)
            let a = Geodesic.equatorialRadiusMetres
            let f = Geodesic.flattening
            let e2 = f * (2 - f)
            let n = a / Math.squareRoot(1 - e2 * latitude.sin * latitude.sin)
            x = n * latitude.cos * longitude.cos
            y = n * latitude.cos * longitude.sin
            z = n * (1 - e2) * latitude.sin
        }

        static func - (lhs: Point, rhs: Point) -> (Double, Double, Double) {
            (lhs.x - rhs.x, lhs.y - rhs.y, lhs.z - rhs.z)
        }
    }

    /// A segment from `start` to `end` with its plane's normal precomputed.
    public struct Segment: Sendable {
        let start: Point
        let end: Point
        let along: (Double, Double, Double)
        let normal: (Double, Double, Double)
        let normalLength: Double
        /// The straight-line length in metres (within 0.01 % of the geodesic's up to 500 km).
        public let lengthMetres: Double

        /// The segment between two points.
        public init(_ start: Point, _ end: Point) {
            self.start = start
            self.end = end
            along = end - start
            // start × (end − start) = start × end, without the large terms cancelling.
            normal = CrossTrack.cross((start.x, start.y, start.z), along)
            normalLength = Math.squareRoot(CrossTrack.dot(normal, normal))
            lengthMetres = CrossTrack.length(along)
        }

        /// The distance in metres from `point` to the segment.
        public func distance(to point: Point) -> Double {
            let fromStart = point - start
            let fromEnd = point - end
            let toStart = CrossTrack.length(fromStart)
            let toEnd = CrossTrack.length(fromEnd)
            // A segment of (nearly) coincident ends is a point.
            guard normalLength > 0, lengthMetres > 1e-6 else { return min(toStart, toEnd) }
            // The foot is between the ends when the point is on the end's side of the plane
            // through the start perpendicular to the segment, and vice versa.
            let beyondStart = CrossTrack.dot(fromStart, along) < 0
            let beyondEnd = CrossTrack.dot(fromEnd, along) > 0
            if beyondStart || beyondEnd { return min(toStart, toEnd) }
            return abs(CrossTrack.dot(normal, fromStart)) / normalLength
        }
    }

    static func cross(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> (Double, Double, Double) {
        (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
    }

    static func dot(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        a.0 * b.0 + a.1 * b.1 + a.2 * b.2
    }

    static func length(_ a: (Double, Double, Double)) -> Double {
        Math.squareRoot(dot(a, a))
    }
}
