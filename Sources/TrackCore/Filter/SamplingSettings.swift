/// A named preset of the sampling policy, chosen with `profile = …` in the config's `[sampling]`.
///
/// The triggers are the ones GPS trackers have long used (Teltonika's data acquisition calls
/// them Min Period, Min Distance, Min Angle and Min Speed delta "on moving", and a period "on
/// stop"; movement there is GNSS speed above 5 km/h); the figures follow the phone presets
/// each profile stands in for:
///
/// | | checkin | track | arrival |
/// |---|---:|---:|---:|
/// | period while moving | 5 min | 1 s | 1 s |
/// | distance | 500 m | 5 m | 2 m |
/// | heading change | off | 15° | 10° |
/// | speed change | off | 1 m/s | 0.5 m/s |
/// | moving above | 1 m/s | 1 m/s | 0.5 m/s |
/// | heartbeat | 1 h | 60 s | 10 s |
/// | accuracy limit | 100 m | 20 m | 10 m |
///
/// * `checkin` takes the figures of iOS's significant-change service (500 m, 5 min) with
///   `kCLLocationAccuracyHundredMeters`, Android's balanced-power priority (~100 m, "block
///   level"): a fix per 500 m travelled or per 5 min of movement, whichever comes first.
///   With the default filter settings the filter's 65 m limit is the stricter one.
/// * `track` is a fitness app's `kCLLocationAccuracyBest` at 1 Hz (bike computers' "every
///   second" recording), one fix a minute when stopped, held to 20 m (the mobile app trackd
///   grew out of kept fixes under 50 m); 5 m and 15° keep corners when a receiver runs faster
///   than 1 Hz or the period is raised.
/// * `arrival` is `kCLLocationAccuracyNearestTenMeters` with a 2 m `distanceFilter`: walking up
///   to a door, where every metre and every 10 s counts and a 0.5 m/s walk already moves.
///
/// 1 m/s as "moving" is a slow walk; a stationary receiver in the project's shared tracks read
/// a median of 0.17 m/s and up to 1.7 m/s, which is why course is not trusted below it.
public enum SamplingProfile: UInt8, Equatable, Sendable, CaseIterable {
    /// Coarse: where has it been, every 500 m or 5 min while moving, hourly when not.
    case checkin
    /// Full track: every second while moving, every minute when stopped.
    case track
    /// Fine, around an arrival: every second or 2 m, every 10 s when stopped, 10 m accuracy.
    case arrival

    /// The profile's name as written in the config, e.g. `"checkin"`.
    public var name: StaticString {
        switch self {
        case .checkin: "checkin"
        case .track: "track"
        case .arrival: "arrival"
        }
    }

    /// The profile's preset values (see the table on the type).
    public var settings: SamplingSettings {
        switch self {
        case .checkin:
            SamplingSettings(
                minPeriodMilliseconds: 300_000, minDistanceMillimetres: 500_000,
                minHeadingChangeMillidegrees: 0, minSpeedChangeMillimetresPerSecond: 0,
                movingSpeedMillimetresPerSecond: 1_000, heartbeatMilliseconds: 3_600_000,
                accuracyLimitMillimetres: 100_000)
        case .track:
            SamplingSettings(
                minPeriodMilliseconds: 1_000, minDistanceMillimetres: 5_000,
                minHeadingChangeMillidegrees: 15_000, minSpeedChangeMillimetresPerSecond: 1_000,
                movingSpeedMillimetresPerSecond: 1_000, heartbeatMilliseconds: 60_000,
                accuracyLimitMillimetres: 20_000)
        case .arrival:
            SamplingSettings(
                minPeriodMilliseconds: 1_000, minDistanceMillimetres: 2_000,
                minHeadingChangeMillidegrees: 10_000, minSpeedChangeMillimetresPerSecond: 500,
                movingSpeedMillimetresPerSecond: 500, heartbeatMilliseconds: 10_000,
                accuracyLimitMillimetres: 10_000)
        }
    }
}

/// Resolved values of the sampling policy, in integer units; any trigger records a fix.
///
/// A trigger whose value is 0 (or below) is off, e.g. `minHeadingChangeMillidegrees: 0`.
/// Build from a profile and the config's overrides:
/// `SamplingSettings(profile: .track, heartbeatMilliseconds: 30_000)` is `track` with a 30 s
/// heartbeat.
public struct SamplingSettings: Equatable, Sendable {
    /// `.period`: record when this long has passed since the last record and the receiver is
    /// moving, in ms (e.g. 1,000).
    public var minPeriodMilliseconds: Int64
    /// `.distance`: record when this far from the last recorded fix, in mm (e.g. 5,000).
    public var minDistanceMillimetres: Int64
    /// `.heading`: record when the course differs this much from the last recorded fix's, both
    /// moving, in millidegrees 0…180,000 (e.g. 15,000).
    public var minHeadingChangeMillidegrees: Int32
    /// `.speed`: record when the speed differs this much from the last recorded fix's, in mm/s
    /// (e.g. 1,000).
    public var minSpeedChangeMillimetresPerSecond: Int32
    /// At or above this speed the receiver is moving: its course counts for `.heading` and
    /// `.period` runs; in mm/s (e.g. 1,000). A fix without speed counts as moving.
    public var movingSpeedMillimetresPerSecond: Int32
    /// `.heartbeat`: record when this long has passed since the last record, moving or not, in
    /// ms (e.g. 60,000): a log that shows the device was alive and where.
    public var heartbeatMilliseconds: Int64
    /// Fixes with a horizontal accuracy (1σ) worse than this are never recorded, in mm
    /// (e.g. 20,000), even when the filter accepted them.
    public var accuracyLimitMillimetres: Int64

    /// Settings with every value given.
    public init(
        minPeriodMilliseconds: Int64, minDistanceMillimetres: Int64,
        minHeadingChangeMillidegrees: Int32, minSpeedChangeMillimetresPerSecond: Int32,
        movingSpeedMillimetresPerSecond: Int32, heartbeatMilliseconds: Int64,
        accuracyLimitMillimetres: Int64
    ) {
        self.minPeriodMilliseconds = minPeriodMilliseconds
        self.minDistanceMillimetres = minDistanceMillimetres
        self.minHeadingChangeMillidegrees = minHeadingChangeMillidegrees
        self.minSpeedChangeMillimetresPerSecond = minSpeedChangeMillimetresPerSecond
        self.movingSpeedMillimetresPerSecond = movingSpeedMillimetresPerSecond
        self.heartbeatMilliseconds = heartbeatMilliseconds
        self.accuracyLimitMillimetres = accuracyLimitMillimetres
    }

    /// A profile's presets with the config's `[sampling]` overrides applied: each non-nil
    /// argument replaces the profile's value (0 turns that trigger off), e.g.
    /// `SamplingSettings(profile: .checkin, minDistanceMillimetres: 1_000_000)`.
    public init(
        profile: SamplingProfile,
        minPeriodMilliseconds: Int64? = nil,
        minDistanceMillimetres: Int64? = nil,
        minHeadingChangeMillidegrees: Int32? = nil,
        minSpeedChangeMillimetresPerSecond: Int32? = nil,
        movingSpeedMillimetresPerSecond: Int32? = nil,
        heartbeatMilliseconds: Int64? = nil,
        accuracyLimitMillimetres: Int64? = nil
    ) {
        let preset = profile.settings
        self.init(
            minPeriodMilliseconds: minPeriodMilliseconds ?? preset.minPeriodMilliseconds,
            minDistanceMillimetres: minDistanceMillimetres ?? preset.minDistanceMillimetres,
            minHeadingChangeMillidegrees: minHeadingChangeMillidegrees ?? preset.minHeadingChangeMillidegrees,
            minSpeedChangeMillimetresPerSecond: minSpeedChangeMillimetresPerSecond
                ?? preset.minSpeedChangeMillimetresPerSecond,
            movingSpeedMillimetresPerSecond: movingSpeedMillimetresPerSecond
                ?? preset.movingSpeedMillimetresPerSecond,
            heartbeatMilliseconds: heartbeatMilliseconds ?? preset.heartbeatMilliseconds,
            accuracyLimitMillimetres: accuracyLimitMillimetres ?? preset.accuracyLimitMillimetres)
    }
}
