import TrackCore
import TrackIO

/// Turns a configuration into the pipeline's settings (the files are read by `ConfigFiles`).
enum ConfigLoader {
    static func filterSettings(_ config: TrackdConfig) -> FilterSettings {
        FilterSettings(
            maxAgeMilliseconds: config.filter.maxAgeMilliseconds,
            maxAccuracyMillimetres: Int64(config.filter.maxAccuracyMillimetres),
            uereMillimetres: Int64(config.filter.uereMillimetres),
            maxSpeedMillimetresPerSecond: Int64(config.filter.maxSpeedMillimetresPerSecond),
            minSatellites: config.filter.minSatellites)
    }

    static func profile(_ config: TrackdConfig) -> SamplingProfile {
        switch config.sampling.profile {
        case .checkin: .checkin
        case .track: .track
        case .arrival: .arrival
        }
    }

    static func samplingSettings(_ config: TrackdConfig) -> SamplingSettings {
        let sampling = config.sampling
        return SamplingSettings(
            profile: profile(config),
            minPeriodMilliseconds: sampling.minPeriodMilliseconds,
            minDistanceMillimetres: sampling.minDistanceMillimetres.map { Int64($0) },
            minHeadingChangeMillidegrees: sampling.minHeadingChangeMillidegrees,
            minSpeedChangeMillimetresPerSecond: sampling.minSpeedChangeMillimetresPerSecond,
            heartbeatMilliseconds: sampling.heartbeatMilliseconds,
            accuracyLimitMillimetres: sampling.accuracyLimitMillimetres.map { Int64($0) })
    }
}
