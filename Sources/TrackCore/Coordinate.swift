/// A WGS-84 position in integer nanodegrees (1e-9°), e.g. 48.1173°N 11.5167°E is
/// `Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: 11_516_700_000)`.
///
/// Latitude −90…90°, longitude −180…180°; north and east positive.
public struct Coordinate: Equatable, Hashable, Sendable {
    /// Latitude in 1e-9 degrees, north positive.
    public var latitudeNanodegrees: Int64
    /// Longitude in 1e-9 degrees, east positive.
    public var longitudeNanodegrees: Int64

    /// A position from nanodegrees.
    public init(latitudeNanodegrees: Int64, longitudeNanodegrees: Int64) {
        self.latitudeNanodegrees = latitudeNanodegrees
        self.longitudeNanodegrees = longitudeNanodegrees
    }

    /// Latitude in degrees (for geodesy; storage stays integer).
    public var latitudeDegrees: Double { Double(latitudeNanodegrees) / 1e9 }
    /// Longitude in degrees.
    public var longitudeDegrees: Double { Double(longitudeNanodegrees) / 1e9 }
}
