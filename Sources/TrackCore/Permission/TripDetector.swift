/// Trip detection from speed, for `whenInUse` on boards without an `in-use` input, e.g. three
/// fixes above 2 m/s start a trip; five minutes below 0.5 m/s end it.
///
/// The numbers: 2 m/s (7.2 km/h) is a brisk walk, above the 0.5–1 m/s that a parked receiver's
/// multipath drift reports; three fixes in a row (3 s at 1 Hz) keep a single spike from starting
/// a trip. A trip ends only after 5 min wholly below 0.5 m/s, so traffic lights and queues do not
/// split it; speeds between the two thresholds neither start nor end one. No allocation.
public struct TripDetector: Equatable, Sendable {
    /// Speed above which a fix counts towards a start: 2 000 mm/s.
    public static let startSpeedMillimetresPerSecond: Int32 = 2_000
    /// Consecutive fast fixes that start a trip: 3.
    public static let startFixes = 3
    /// Speed below which a fix counts towards the end: 500 mm/s.
    public static let stopSpeedMillimetresPerSecond: Int32 = 500
    /// Time wholly below the stop speed that ends a trip: 300 000 ms (5 min).
    public static let stopMilliseconds: Int64 = 300_000

    /// True while a trip is under way.
    public private(set) var onTrip = false
    private var fastFixes = 0
    private var slowSince: UTCTime?

    /// No trip.
    public init() {}

    /// Feeds one fix's speed at `now` (the fix time); returns whether a trip is under way.
    /// A fix without speed changes nothing, e.g. 3 × 2.5 m/s → true.
    public mutating func update(speedMillimetresPerSecond speed: Int32?, now: UTCTime) -> Bool {
        guard let speed else { return onTrip }
        if onTrip {
            if speed >= Self.stopSpeedMillimetresPerSecond {
                slowSince = nil
            } else if let since = slowSince {
                if now.millisecondsSinceEpoch - since.millisecondsSinceEpoch >= Self.stopMilliseconds {
                    onTrip = false
                    slowSince = nil
                    fastFixes = 0
                }
            } else {
                slowSince = now
            }
        } else {
            fastFixes = speed > Self.startSpeedMillimetresPerSecond ? fastFixes + 1 : 0
            if fastFixes >= Self.startFixes {
                onTrip = true
                fastFixes = 0
                slowSince = nil
            }
        }
        return onTrip
    }
}
