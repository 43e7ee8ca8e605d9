/// How many dimensions a fix resolves, as gpsd's TPV `mode` counts them.
public enum FixMode: UInt8, Equatable, Sendable {
    /// Nothing said yet.
    case unknown = 0
    /// The receiver reports no usable fix.
    case noFix = 1
    /// Latitude and longitude only.
    case twoD = 2
    /// Latitude, longitude and altitude.
    case threeD = 3
}

/// One receiver epoch merged from the sentences that share its UTC time, in integer units.
///
/// Every field is optional: absent data is nil, never 0.
public struct Fix: Equatable, Sendable {
    /// UTC time of the epoch; nil until RMC or ZDA has given a date.
    public var time: UTCTime?
    /// Fix dimension.
    public var mode: FixMode = .unknown
    /// GGA quality 0…8 (1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 estimated…).
    public var quality: UInt8?
    /// Position.
    public var position: Coordinate?
    /// Altitude above mean sea level in millimetres.
    public var altitudeMSLMillimetres: Int32?
    /// Geoid separation (ellipsoid minus geoid) in millimetres, as sent by the receiver.
    public var geoidSeparationMillimetres: Int32?
    /// Speed over ground in mm/s.
    public var speedMillimetresPerSecond: Int32?
    /// Course over ground, true, in millidegrees.
    public var courseMillidegrees: Int32?
    /// Magnetic variation in millidegrees, east positive, as sent.
    public var magneticVariationMillidegrees: Int32?
    /// Satellites used in the solution.
    public var satellitesUsed: UInt8?
    /// Satellites in view, summed over constellations.
    public var satellitesInView: UInt8?
    /// Dilutions of precision × 100.
    public var hdopCenti: Int32?
    public var vdopCenti: Int32?
    public var pdopCenti: Int32?
    /// GST 1σ errors in centimetres, when the receiver sends GST.
    public var latitudeErrorCentimetres: Int32?
    public var longitudeErrorCentimetres: Int32?
    public var altitudeErrorCentimetres: Int32?
    /// Expected errors in centimetres from a second source (GBS, receiver autonomous integrity
    /// monitoring), e.g. `$GNGBS,223745.00,1.0,1.0,3.1,…` → 100, 100, 310; nil when not sent
    /// or sent for another epoch. Written as gpsd's `epy`, `epx`, `epv`.
    public var expectedLatitudeErrorCentimetres: Int32?
    public var expectedLongitudeErrorCentimetres: Int32?
    public var expectedAltitudeErrorCentimetres: Int32?

    /// An empty fix.
    public init() {}

    /// Height above the WGS-84 ellipsoid in millimetres: MSL altitude plus the receiver's
    /// geoid separation; nil unless both were sent.
    public var altitudeHAEMillimetres: Int32? {
        guard let msl = altitudeMSLMillimetres, let separation = geoidSeparationMillimetres else { return nil }
        return msl &+ separation
    }
}
