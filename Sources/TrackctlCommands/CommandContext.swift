import TrackIO

/// What a verb writes to and reads from its surroundings: standard output and error, the
/// environment and where the package installs its files. `standard` is the process's own;
/// the tests make one that captures what is written and has the environment they give, so a
/// verb runs in the test process as it runs in trackctl, e.g.
/// `var context = CommandContext.captured(); LogTrips.run(["--log", dir], &context)`.
struct CommandContext {
    /// Captured standard output (empty for `standard`, whose output is written at once).
    private(set) var output = ""
    /// Captured standard error.
    private(set) var errors = ""
    private let capturing: Bool
    private let variables: [String: String]
    /// The gazetteer the package installs, `/usr/share/trackd/places.bin` unless a test moves it.
    let installedPlaces: String

    /// The process's standard output, error and environment.
    static var standard: CommandContext {
        CommandContext(capturing: false, variables: [:], installedPlaces: Gazetteer.defaultPath)
    }

    /// Output and errors kept in `output` and `errors`; `environment` stands for the process's
    /// (empty: no variable set); `installedPlaces` for the installed gazetteer's path.
    static func captured(environment: [String: String] = [:], installedPlaces: String = Gazetteer.defaultPath)
        -> CommandContext {
        CommandContext(capturing: true, variables: environment, installedPlaces: installedPlaces)
    }

    /// The value of the environment variable `name`, e.g. `TRACKD_PLACES`.
    func environment(_ name: String) -> String? {
        capturing ? variables[name] : TrackIO.environment(name)
    }

    /// Writes `text` to standard output; throws what writing it met (a closed pipe, a full disk).
    mutating func write(_ text: String) throws(Errno) {
        if capturing { output += text } else { try FileDescriptor.standardOutput.writeAll(text) }
    }

    /// Writes a literal such as a usage text to standard output.
    mutating func write(_ text: StaticString) throws(Errno) {
        try write(text.withUTF8Buffer { String(decoding: $0, as: UTF8.self) })
    }

    /// Says a literal such as a usage text on standard error.
    mutating func say(_ text: StaticString) {
        say(text.withUTF8Buffer { String(decoding: $0, as: UTF8.self) })
    }

    /// Says `text` on standard error (a message: nothing to do when that fails).
    mutating func say(_ text: String) {
        if capturing { errors += text } else { try? FileDescriptor.standardError.writeAll(text) }
    }
}
