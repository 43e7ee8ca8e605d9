import TrackCore
import TrackIO

/// Where a daemon's fences come from: at start and on SIGHUP, the compiled image beside the
/// state file, mapped when its key says it was made from the fences file's bytes, else made
/// first by `trackctl fence compile` in a process of its own (the daemon links no JSON reader).
enum FenceLoader {
    /// The fences for a start or a reload (mapped from their image, compiled first when stale),
    /// or for `trackd --check` (`check`: `trackctl fence validate`, which writes nothing).
    static func load(_ config: TrackdConfig, configPath: String, check: Bool = false)
        -> Result<ConfigFiles.FenceLoad, ConfigFiles.FenceLoadError> {
        var compiler = [FenceImageFile.compilerPath(), "fence", check ? "validate" : "compile"]
        if FileDescriptor.exists(configPath) { compiler += ["--config", configPath] }
        guard check else {
            return FenceImageFile.load(config, image: FenceImageFile.path(besideState: config.state.file), compiler: compiler)
        }
        guard FileDescriptor.exists(config.fences.file) else {
            return .success(ConfigFiles.FenceLoad(monitor: FenceMonitor(fences: FenceSet(), settings: config.fences.settings)))
        }
        let validated = FenceImageFile.run(compiler + [config.fences.file])
        if let problem = validated.problem { return .failure(ConfigFiles.FenceLoadError(description: problem)) }
        return .success(ConfigFiles.FenceLoad(monitor: FenceMonitor(fences: FenceSet(), settings: config.fences.settings),
                                              note: validated.output))
    }
}
