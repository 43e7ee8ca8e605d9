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

    /// A pipeline configured from `config`, keeping `status` when reloading.
    static func pipeline(_ config: TrackdConfig, status: DaemonStatus = DaemonStatus()) -> FixPipeline {
        var pipeline = FixPipeline(
            filter: FixFilter(settings: filterSettings(config)),
            sampling: SamplingPolicy(settings: samplingSettings(config)),
            status: status)
        pipeline.status.profile = profile(config)
        return pipeline
    }

    /// Puts the fences of `config` into `status` (a new monitor: every fence reports its
    /// initial state again).
    static func install(_ monitor: FenceMonitor, _ config: TrackdConfig, into status: inout DaemonStatus) {
        status.fences = monitor
        status.fencesFile = config.fences.file
        status.fencesInside = 0
        status.insideFence = false
        status.fenceCommands.limit = config.fences.maxCommands
    }
}
