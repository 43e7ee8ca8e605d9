/// A latitude-longitude box in degrees, longitudes within −180…180 and minLongitude ≤
/// maxLongitude (a box across the antimeridian is stored as two), e.g. the box of a 1 km circle
/// at the equator is ±0.009° around its centre.
public struct FenceBox: Equatable, Sendable {
    /// Southern edge, degrees.
    public var minLatitude: Double
    /// Northern edge, degrees.
    public var maxLatitude: Double
    /// Western edge, degrees.
    public var minLongitude: Double
    /// Eastern edge, degrees.
    public var maxLongitude: Double

    /// A box from its edges.
    public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.maxLatitude = maxLatitude
        self.minLongitude = minLongitude
        self.maxLongitude = maxLongitude
    }

    /// True when the boxes share a point.
    @inline(__always)
    public func intersects(_ other: FenceBox) -> Bool {
        minLatitude <= other.maxLatitude && other.minLatitude <= maxLatitude
            && minLongitude <= other.maxLongitude && other.minLongitude <= maxLongitude
    }

    /// The smallest box holding both.
    func union(_ other: FenceBox) -> FenceBox {
        FenceBox(minLatitude: min(minLatitude, other.minLatitude), maxLatitude: max(maxLatitude, other.maxLatitude),
                 minLongitude: min(minLongitude, other.minLongitude), maxLongitude: max(maxLongitude, other.maxLongitude))
    }

    /// The boxes covering `latitude` ± `latitudeHalfWidth` and a longitude range given relative
    /// to `centreLongitude` (which may run past ±180°): one box, or two across the antimeridian,
    /// passed to `body`. Near a pole the longitudes cover everything.
    static func covering(latitudes: ClosedRange<Double>, centreLongitude: Double, west: Double, east: Double,
                         _ body: (FenceBox) -> Void) {
        let south = max(latitudes.lowerBound, -90)
        let north = min(latitudes.upperBound, 90)
        if east - west >= 360 || south <= -90 || north >= 90 {
            body(FenceBox(minLatitude: south, maxLatitude: north, minLongitude: -180, maxLongitude: 180))
            return
        }
        let start = centreLongitude + west
        let end = centreLongitude + east
        if start < -180 {
            body(FenceBox(minLatitude: south, maxLatitude: north, minLongitude: start + 360, maxLongitude: 180))
            body(FenceBox(minLatitude: south, maxLatitude: north, minLongitude: -180, maxLongitude: min(end, 180)))
        } else if end > 180 {
            body(FenceBox(minLatitude: south, maxLatitude: north, minLongitude: max(start, -180), maxLongitude: 180))
            body(FenceBox(minLatitude: south, maxLatitude: north, minLongitude: -180, maxLongitude: end - 360))
        } else {
            body(FenceBox(minLatitude: south, maxLatitude: north, minLongitude: start, maxLongitude: end))
        }
    }

    /// Calls `body` with the box or boxes of everything within `metres` of `coordinate`
    /// (a slight overestimate), e.g. 100 m at 48°N is ±0.0009° by ±0.0014°.
    @inline(__always)
    static func around(_ latitude: Double, _ longitude: Double, metres: Double, _ body: (FenceBox) -> Void) {
        // 110 574 m is the shortest degree of latitude (at the equator); 1 % covers the rest.
        let dLatitude = metres / 110_000
        let cosine = Math.sinCosDegrees(min(latitude.magnitude + dLatitude, 90)).cos
        let dLongitude = cosine > 1e-9 ? metres / (111_000 * cosine) : 360
        covering(latitudes: (latitude - dLatitude)...(latitude + dLatitude), centreLongitude: longitude,
                 west: -dLongitude, east: dLongitude, body)
    }
}
