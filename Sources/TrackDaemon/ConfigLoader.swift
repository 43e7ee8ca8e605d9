import TrackCore
import TrackIO

/// Reads and parses the configuration file, and turns it into the pipeline's settings.
enum ConfigLoader {
    static let defaultPath = "/etc/trackd/trackd.conf"

    /// The configuration at `path`. A missing file at the default path means "all defaults"
    /// (a fresh install); a missing file that was asked for by name is an error.
    static func load(_ path: String, explicit: Bool) -> Result<TrackdConfig, LoadError> {
        let text: String
        do {
            text = try readText(path)
        } catch {
            if error == .noSuchFile && !explicit { return .success(TrackdConfig()) }
            return .failure(.unreadable(path: path, error))
        }
        do {
            return .success(try TrackdConfig.parse(text, file: path))
        } catch {
            return .failure(.invalid(error))
        }
    }

    /// The board's pin map: the `[board] file` (if any) with trackd.conf's `[board]` lines laid
    /// over it; the simulated board's own map when `simulated = yes`. A board file that cannot
    /// be read or parsed is a configuration error (file, line and key).
    static func loadBoard(_ config: TrackdConfig) -> Result<BoardMap, LoadError> {
        if config.board.simulated { return .success(simulatedBoardMap) }
        var map = BoardMap()
        if let file = config.board.file {
            let text: String
            do {
                text = try readText(file)
            } catch {
                return .failure(.unreadable(path: file, error))
            }
            do {
                map = try BoardMap.parse(text, file: file)
            } catch {
                return .failure(.invalid(error))
            }
        }
        return .success(map.overridden(by: config.board.overrides))
    }

    /// The simulated board: one chip whose lines are named after their roles.
    static let simulatedChip = FakeGPIOBackend.Chip(
        label: "trackd-simulated", path: "/dev/null", lineNames: BoardRole.allCases.map { $0.key })

    static var simulatedBoardMap: BoardMap {
        var map = BoardMap()
        map.chip = simulatedChip.label
        for role in BoardRole.allCases { map[role] = .name(role.key) }
        return map
    }

    /// Why the configuration could not be used.
    enum LoadError: Error {
        case unreadable(path: String, Errno)
        case invalid(ConfigError)

        var description: String {
            switch self {
            case .unreadable(let path, let errno): "\(path): \(errno.message)"
            case .invalid(let error): error.description
            }
        }
    }

    /// The whole file as UTF-8 text (start-up and reload only).
    static func readText(_ path: String) throws(Errno) -> String {
        let file = try FileDescriptor.openForReading(path)
        defer { try? file.close() }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let got = try file.read(into: chunk)
            if got == 0 { break }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<got]))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

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

    /// The fences `config` names, monitored with its settings: an empty set when the file does
    /// not exist (no fences configured), an error text naming file, feature and problem when
    /// it cannot be used.
    static func fences(_ config: TrackdConfig) -> Result<FenceMonitor, FenceLoadError> {
        let path = config.fences.file
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readWholeFile(path)
        } catch {
            if error == .noSuchFile { return .success(FenceMonitor(fences: FenceSet(), settings: config.fences.settings)) }
            return .failure(FenceLoadError(description: path + ": " + error.message))
        }
        do {
            let set = try FenceFile.parse(bytes, settings: config.fences.settings)
            return .success(FenceMonitor(fences: set, settings: config.fences.settings))
        } catch {
            return .failure(FenceLoadError(description: path + ": " + error.description))
        }
    }

    /// Why the fences file could not be used, as one line.
    struct FenceLoadError: Error {
        var description: String
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
