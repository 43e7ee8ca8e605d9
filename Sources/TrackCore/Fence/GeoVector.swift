/// A point as a unit vector from the centre of the sphere of geodetic latitude and longitude,
/// x toward (0°, 0°), y toward (0°, 90°E), z toward the north pole. Geometry in vectors has no
/// antimeridian and no pole to special-case, e.g. (0°, 180°) → (−1, 0, 0).
public struct GeoVector: Equatable, Sendable {
    /// Components, |(x, y, z)| = 1 for points.
    public var x: Double
    /// See `x`.
    public var y: Double
    /// See `x`.
    public var z: Double

    /// A vector from its components (not normalised).
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The unit vector of a latitude and longitude in degrees, e.g. (90, any) → (0, 0, 1).
    public init(latitudeDegrees: Double, longitudeDegrees: Double) {
        let latitude = Math.sinCosDegrees(latitudeDegrees)
        let longitude = Math.sinCosDegrees(longitudeDegrees)
        self.init(x: latitude.cos * longitude.cos, y: latitude.cos * longitude.sin, z: latitude.sin)
    }

    /// The unit vector of a coordinate.
    public init(_ coordinate: Coordinate) {
        self.init(latitudeDegrees: coordinate.latitudeDegrees, longitudeDegrees: coordinate.longitudeDegrees)
    }

    /// The dot product.
    @inline(__always)
    public func dot(_ other: GeoVector) -> Double {
        x * other.x + y * other.y + z * other.z
    }

    /// The cross product `self × other`.
    public func cross(_ other: GeoVector) -> GeoVector {
        GeoVector(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
    }

    /// The length.
    public var length: Double { Math.squareRoot(dot(self)) }

    /// This vector scaled to length 1 (a zero vector stays zero).
    public var normalized: GeoVector {
        let length = self.length
        guard length > 0 else { return self }
        return GeoVector(x: x / length, y: y / length, z: z / length)
    }

    /// The sum of two vectors.
    public static func + (lhs: GeoVector, rhs: GeoVector) -> GeoVector {
        GeoVector(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }

    /// The vector scaled by `factor`.
    public static func * (lhs: GeoVector, factor: Double) -> GeoVector {
        GeoVector(x: lhs.x * factor, y: lhs.y * factor, z: lhs.z * factor)
    }

    /// Latitude in degrees, −90…90.
    public var latitudeDegrees: Double { Math.atan2Degrees(z, Math.hypot(x, y)) }
    /// Longitude in degrees, −180…180 (0 at the poles).
    public var longitudeDegrees: Double { Math.atan2Degrees(y, x) }
}
