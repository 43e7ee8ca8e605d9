/// A gnomonic projection centred on a fence, scaled to metres: great circles, which is what a
/// fence edge is between its vertices, become straight lines, so a polygon test in this plane
/// is right across the antimeridian and around the poles. East and north are scaled by the
/// WGS-84 radii of curvature at the centre, so distances near the fence are metres to within
/// f × (distance from the centre ÷ Earth radius), 3 mm per km at 10 km.
///
/// Example: centred on (0°, 0°), the point (0°, 0.001°) maps to (111.32 m, 0 m).
public struct LocalPlane: Equatable, Sendable {
    /// The centre as a unit vector.
    public var centre: GeoVector
    /// Unit east and north at the centre.
    public var east: GeoVector
    /// See `east`.
    public var north: GeoVector
    /// Metres per unit of the gnomonic plane eastward (prime-vertical radius) and northward
    /// (meridional radius).
    public var eastMetres: Double
    /// See `eastMetres`.
    public var northMetres: Double

    /// Points with cos(angle to the centre) at or below this are behind the plane (over 84°
    /// away): no fence reaches that far, `project` returns nil.
    static var horizonCosine: Double { 0.1 }

    /// The plane touching the sphere at `centre` (a unit vector).
    public init(centre: GeoVector) {
        self.centre = centre
        let axis = GeoVector(x: 0, y: 0, z: 1)
        var east = axis.cross(centre)
        // At a pole every direction is south: take the 90°E meridian's direction as east.
        if east.length < 1e-12 { east = GeoVector(x: 0, y: 1, z: 0) }
        self.east = east.normalized
        self.north = centre.cross(self.east).normalized
        let sine = centre.z
        let e2 = Geodesic.flattening * (2 - Geodesic.flattening)
        let w = 1 - e2 * sine * sine
        eastMetres = Geodesic.equatorialRadiusMetres / Math.squareRoot(w)
        northMetres = Geodesic.equatorialRadiusMetres * (1 - e2) / (w * Math.squareRoot(w))
    }

    /// A plane from its parts as `init(centre:)` computed them (a compiled fence image).
    init(centre: GeoVector, east: GeoVector, north: GeoVector, eastMetres: Double, northMetres: Double) {
        self.centre = centre
        self.east = east
        self.north = north
        self.eastMetres = eastMetres
        self.northMetres = northMetres
    }

    /// The point in plane metres (east, north), or nil when it is more than 84° from the centre.
    @inline(__always)
    public func project(_ point: GeoVector) -> (east: Double, north: Double)? {
        let t = point.dot(centre)
        guard t > LocalPlane.horizonCosine else { return nil }
        return (point.dot(east) / t * eastMetres, point.dot(north) / t * northMetres)
    }
}
