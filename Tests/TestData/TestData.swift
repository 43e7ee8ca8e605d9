import Foundation
import Testing

/// Where the tests find what a clone of the repository does not hold: the data shared beside
/// it, `../shared/data` (gpsd's regression captures in `gpsd-regress/`, real recorded tracks in
/// `tracks/`, see its README), and the gazetteer scripts/build-places compiles into
/// `.build/places/places.bin`.
///
/// A test that needs one of them says so with `.enabled(if:)`, e.g.
/// `@Test(.enabled(if: TestData.hasShared("gpsd-regress"), "../shared/data/gpsd-regress is absent"))`,
/// so that without it the test is reported as skipped, never passed. `TRACKD_SHARED_DATA`
/// names another folder for the shared data; an empty or missing one runs the tests as on a
/// fresh clone: `TRACKD_SHARED_DATA=/nonexistent swift test --filter …`.
public enum TestData {
    /// The repository's root (the folder holding Package.swift).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shared data folder: `$TRACKD_SHARED_DATA`, else `../shared/data` beside the repository.
    public static let sharedRoot: URL = {
        if let path = ProcessInfo.processInfo.environment["TRACKD_SHARED_DATA"] { return URL(fileURLWithPath: path) }
        return repository.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// `relative` inside the shared data, e.g. `gpsd-regress/ublox-8.log`, or nil when absent.
    public static func shared(_ relative: String) -> URL? {
        let url = sharedRoot.appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Whether `relative` is in the shared data, e.g. `tracks/csv`: a test's `.enabled(if:)`.
    public static func hasShared(_ relative: String) -> Bool { shared(relative) != nil }

    /// The gazetteer scripts/build-places writes (scripts/setup runs it).
    public static let gazetteer = repository.appendingPathComponent(".build/places/places.bin").path

    /// Whether the gazetteer has been built: a test's `.enabled(if:)`.
    public static var hasGazetteer: Bool { FileManager.default.fileExists(atPath: gazetteer) }

    /// Whether `path` is an executable program, e.g. `/usr/bin/gpspipe` (Debian's
    /// gpsd-clients, which scripts/setup installs): a test's `.enabled(if:)`.
    public static func hasProgram(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when `relative` is in the shared data, else reports it skipped, e.g.
    /// `@Test(.needsShared("gpsd-regress"))`.
    public static func needsShared(_ relative: String) -> Self {
        .enabled(if: TestData.hasShared(relative), Comment(rawValue: "../shared/data/" + relative + " is absent"))
    }

    /// Runs the test only when the gazetteer has been built, else reports it skipped.
    public static var needsGazetteer: Self {
        .enabled(if: TestData.hasGazetteer, "no gazetteer at .build/places/places.bin: scripts/build-places builds it")
    }

    /// Runs the test only when `path` is an executable program, else reports it skipped naming
    /// the Debian package that has it, e.g. `.needsProgram("/usr/bin/gpspipe", package: "gpsd-clients")`.
    public static func needsProgram(_ path: String, package: String) -> Self {
        .enabled(if: TestData.hasProgram(path),
                 Comment(rawValue: path + " is not installed (Debian's " + package + "; scripts/setup installs it)"))
    }
}
