import TrackCore

/// The persisted state file (`/var/lib/trackd/state`), loaded at start-up and saved atomically:
/// write a temporary file, fsync it, rename it over the old one, fsync the directory. A power
/// cut at any point leaves the old or the new state, never a mix; a corrupt file loads as a
/// typed error plus the safe default `notDetermined`.
public struct StateFile<Storage: StateFileStorage> {
    /// The file, e.g. "/var/lib/trackd/state".
    public let path: String
    /// Where a save is written before the rename: `path` + ".tmp", in the same directory.
    public let temporaryPath: String
    /// The directory holding `path`, fsynced after the rename ("." for a bare name).
    public let directory: String
    /// The file layer.
    public var storage: Storage
    /// The largest odometer loaded or saved, so a save never puts a smaller one on disk.
    public private(set) var savedOdometerMillimetres: Int64 = 0

    /// Saves of the odometer alone are at most this often: 30 000 ms (flash wear).
    public static var odometerSaveIntervalMilliseconds: Int64 { 30_000 }

    /// A state file at `path` over `storage`.
    public init(path: String, storage: Storage) {
        self.path = path
        self.temporaryPath = path + ".tmp"
        self.storage = storage
        let bytes = Array(path.utf8)
        if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
            self.directory = slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
        } else {
            self.directory = "."
        }
    }

    /// Reads and checks the file; a missing file is `.unreadable` with ENOENT.
    public mutating func load() throws(StateFileError) -> PersistedState {
        let bytes: [UInt8]
        do {
            bytes = try storage.readAll(path)
        } catch {
            throw .unreadable(path: path, error)
        }
        let state = try PersistedState.decode(bytes, path: path)
        savedOdometerMillimetres = max(savedOdometerMillimetres, state.odometerMillimetres)
        return state
    }

    /// The state to start from: the file's, or the first-boot default with the reason when the
    /// file is missing (problem nil: a first boot is not an error) or bad (never a crash).
    public mutating func loadOrDefault() -> (state: PersistedState, problem: StateFileError?) {
        do {
            return (try load(), nil)
        } catch {
            if case .unreadable(_, let errno) = error, errno == .noSuchFile { return (PersistedState(), nil) }
            return (PersistedState(), error)
        }
    }

    /// Saves `state` atomically; on failure the old file is still whole. The odometer written is
    /// never below one loaded or saved before.
    public mutating func save(_ state: PersistedState) throws(StateFileError) {
        var state = state
        state.odometerMillimetres = max(state.odometerMillimetres, savedOdometerMillimetres)
        let bytes = state.encoded()
        var current = StateFileStep.create
        do throws(Errno) {
            let handle = try storage.create(temporaryPath)
            do throws(Errno) {
                current = .write
                try storage.write(bytes, to: handle)
                current = .sync
                try storage.sync(handle)
            } catch {
                try? storage.close(handle)
                throw error
            }
            current = .close
            try storage.close(handle)
            current = .rename
            try storage.rename(temporaryPath, to: path)
            savedOdometerMillimetres = state.odometerMillimetres
            current = .syncDirectory
            try storage.syncDirectory(directory)
        } catch {
            throw .saveFailed(path: path, step: current, error)
        }
    }

    /// Whether a save for the odometer is due at `now`: never saved (`lastSave` nil), or
    /// 30 s since the last one, e.g. saved at 10 s → due from 40 s.
    public static func isOdometerSaveDue(lastSave: MonotonicTime?, now: MonotonicTime) -> Bool {
        guard let lastSave else { return true }
        return now.nanoseconds - lastSave.nanoseconds >= odometerSaveIntervalMilliseconds * 1_000_000
    }
}

/// A step of saving, named in errors, e.g. `.rename`.
public enum StateFileStep: UInt8, Equatable, Sendable {
    /// Creating the temporary file.
    case create
    /// Writing it.
    case write
    /// fsync of the temporary file.
    case sync
    /// Closing it.
    case close
    /// Renaming it over the state file.
    case rename
    /// fsync of the directory.
    case syncDirectory

    /// The step's name for messages, e.g. "fsync" (a String: Embedded Swift cannot interpolate
    /// a StaticString).
    public var name: String {
        switch self {
        case .create: "create"
        case .write: "write"
        case .sync: "fsync"
        case .close: "close"
        case .rename: "rename"
        case .syncDirectory: "directory fsync"
        }
    }
}
