import TrackCore

/// Reads and parses the files trackd runs on: the configuration, the board file and the fences
/// file, each error naming the file (and line and key, or feature). Used by the daemon at start-up
/// and on SIGHUP, and by trackctl's commands that take `--config`.
public enum ConfigFiles {
    public static let defaultPath = "/etc/trackd/trackd.conf"

    /// The configuration at `path`. A missing file at the default path means "all defaults"
    /// (a fresh install); a missing file that was asked for by name is an error.
    public static func load(_ path: String, explicit: Bool) -> Result<TrackdConfig, LoadError> {
        do throws(LoadError) {
            return .success(try loadConfig(path, explicit: explicit))
        } catch {
            return .failure(error)
        }
    }

    /// `load` as a throwing call: the daemon's, since a `Result` of the whole configuration
    /// costs the firmware an outlined copy of both cases (~8 KB).
    public static func loadConfig(_ path: String, explicit: Bool) throws(LoadError) -> TrackdConfig {
        let text: String
        do {
            text = try readText(path)
        } catch {
            if error == .noSuchFile && !explicit { return TrackdConfig() }
            throw .unreadable(path: path, error)
        }
        do {
            return try TrackdConfig.parse(text, file: path)
        } catch {
            throw .invalid(error)
        }
    }

    /// The board's pin map: the `[board] file` (if any) with trackd.conf's `[board]` lines laid
    /// over it; the simulated board's own map when `simulated = yes`. A board file that cannot
    /// be read or parsed is a configuration error (file, line and key).
    public static func loadBoard(_ config: TrackdConfig) -> Result<BoardMap, LoadError> {
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
    public static let simulatedChip = FakeGPIOBackend.Chip(
        label: "trackd-simulated", path: "/dev/null", lineNames: BoardRole.allCases.map { $0.key })

    public static var simulatedBoardMap: BoardMap {
        var map = BoardMap()
        map.chip = simulatedChip.label
        for role in BoardRole.allCases { map[role] = .name(role.key) }
        return map
    }

    /// Why the configuration could not be used.
    public enum LoadError: Error {
        case unreadable(path: String, Errno)
        case invalid(ConfigError)

        public var description: String {
            switch self {
            case .unreadable(let path, let errno): String(joining: path, ": ", errno.message)
            case .invalid(let error): error.description
            }
        }
    }

    /// The whole file as UTF-8 text (start-up and reload only).
    public static func readText(_ path: String) throws(Errno) -> String {
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

    /// The fences `config` names, monitored with its settings: an empty set when the file does
    /// not exist (no fences configured), an error text naming file, feature and problem when
    /// it cannot be used.
    public static func fences(_ config: TrackdConfig) -> Result<FenceMonitor, FenceLoadError> {
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

    /// Fences loaded: the monitor over them, and what became of their image, e.g.
    /// `10000 fences compiled to /var/lib/trackd/fences.image`.
    public struct FenceLoad {
        /// The monitor over the fences (an empty set when there is no fences file).
        public var monitor: FenceMonitor
        /// What became of the image, for the daemon's standard error; nil when nothing is said.
        public var note: String?

        /// A load and its note.
        public init(monitor: FenceMonitor, note: String? = nil) {
            self.monitor = monitor
            self.note = note
        }
    }

    /// Why the fences file could not be used, as one line.
    public struct FenceLoadError: Error {
        /// The line, naming the file (and the feature, when one is at fault).
        public var description: String

        /// An error saying `description`.
        public init(description: String) {
            self.description = description
        }
    }

}
