/// Where `TripCutter` cuts a log into trips, e.g. the defaults: a stop is 5 min within 50 m,
/// and fixes more than 5 min apart (a receiver or permission gap) end a trip.
public struct TripSettings: Equatable, Sendable {
    /// A stop lasts at least this long, in ms (default 300,000: 5 min).
    public var stopMilliseconds: Int64
    /// … with every fix within this many metres of its first (default 50).
    public var stopRadiusMetres: Double
    /// Consecutive fixes further apart in time end the trip, in ms (default 300,000), as the
    /// exports split track segments.
    public var gapMilliseconds: Int64
    /// Moving time counts the stretches between fixes at this speed or more, in mm/s
    /// (default 500: 1.8 km/h, above a parked receiver's drift).
    public var movingMillimetresPerSecond: Int64

    /// Settings from their parts; the defaults are the "5 min within 50 m".
    public init(stopMilliseconds: Int64 = 300_000, stopRadiusMetres: Double = 50,
                gapMilliseconds: Int64 = 300_000, movingMillimetresPerSecond: Int64 = 500) {
        self.stopMilliseconds = stopMilliseconds
        self.stopRadiusMetres = stopRadiusMetres
        self.gapMilliseconds = gapMilliseconds
        self.movingMillimetresPerSecond = movingMillimetresPerSecond
    }
}
