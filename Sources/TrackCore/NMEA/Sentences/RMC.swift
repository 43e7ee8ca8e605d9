/// RMC, recommended minimum data:
/// `$GPRMC,225446.33,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E,A*68`.
public struct RMC: Equatable, Sendable {
    /// UTC time of the fix.
    public var time: TimeOfDay?
    /// `A` valid, `V` warning (no usable fix); nil when empty.
    public var status: UInt8?
    /// Position.
    public var position: Coordinate?
    /// Speed over ground in mm/s (sent in knots).
    public var speedMillimetresPerSecond: Int32?
    /// Course over ground, true, in millidegrees 0…360_000.
    public var courseMillidegrees: Int32?
    /// The date (two-digit year: 80–99 → 19xx, else 20xx).
    public var date: CalendarDate?
    /// Magnetic variation in millidegrees, east positive.
    public var magneticVariationMillidegrees: Int32?
    /// FAA mode indicator (NMEA 2.3+): A autonomous, D differential, E estimated, N not valid…
    public var faaMode: UInt8?

    /// Decodes a framed RMC sentence.
    public init(_ s: borrowing NMEASentence) throws(NMEAError) {
        guard s.fieldCount >= 10 else { throw .tooFewFields(.rmc, count: s.fieldCount) }
        time = try s.time(1)
        status = try s.character(2)
        position = try s.position(latitudeAt: 3)
        speedMillimetresPerSecond = try s.knots(7)
        courseMillidegrees = try s.course(8)
        date = try s.date(9)
        if let variation = try s.decimal(10, scale: 3, in: 0...180_000), let side = try s.character(11) {
            switch side {
            case UInt8(ascii: "E"): magneticVariationMillidegrees = Int32(variation)
            case UInt8(ascii: "W"): magneticVariationMillidegrees = -Int32(variation)
            default: throw .malformedField(.rmc, field: 11)
            }
        } else {
            magneticVariationMillidegrees = nil
        }
        faaMode = try s.character(12)
    }
}
