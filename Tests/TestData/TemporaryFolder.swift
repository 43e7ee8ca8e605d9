import Foundation

/// A fresh folder under the system's temporary directory, removed by `remove()`.
public struct TemporaryFolder {
    /// Its path, e.g. `/tmp/trackd-tests-…`.
    public let path: String

    /// Creates the folder.
    public init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackd-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside it.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Removes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
