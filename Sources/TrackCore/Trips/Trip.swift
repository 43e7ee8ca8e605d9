/// One trip of the log: from a departure to an arrival, e.g. 07:30:00Z in Tübingen to
/// 08:22:00Z in Stuttgart, 41,236 m, 52 min, moving 47 min, 14.6 m/s at most.
///
/// Distance is the sum of the geodesics between consecutive fixes; average speed is distance
/// over moving time (the stretches at `TripSettings.movingMillimetresPerSecond` or faster).
public struct Trip: Equatable, Sendable {
    /// Its number in the log, from 1.
    public var number: Int
    /// The first fix: where and when it left.
    public var start: LogFix
    /// The last fix: where and when it arrived (the first fix of the stop that ended it).
    public var end: LogFix
    /// Fixes from start to end.
    public var fixCount: Int
    /// Geodesic length of the fixes' path in metres.
    public var distanceMetres: Double
    /// Time in motion, in ms.
    public var movingMilliseconds: Int64
    /// The highest speed: a fix's recorded speed, or between two fixes without one, in mm/s.
    public var maximumMillimetresPerSecond: Int64
    /// Waypoints and fence events on the way, in log order (events at the stop after it too).
    public var events: [LogRecord]
    /// Why it ended: `stop`, `gap`, `boot` or `end` (of the log).
    public var endReason: EndReason

    /// Why a trip ended.
    public enum EndReason: String, Equatable, Sendable {
        case stop, gap, boot, end
    }

    /// Start to end, in ms.
    public var durationMilliseconds: Int64 { end.time.millisecondsSinceEpoch - start.time.millisecondsSinceEpoch }

    /// Distance over moving time in mm/s; nil when it never moved.
    public var averageMillimetresPerSecond: Int64? {
        guard movingMilliseconds > 0 else { return nil }
        return Int64(distanceMetres * 1_000_000 / Double(movingMilliseconds) + 0.5)
    }
}
