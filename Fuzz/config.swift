// Fuzz target `config`: text as trackd reads its files at start-up and on SIGHUP — trackd.conf
// (`TrackdConfig.parse`, then the services' settings the daemon derives from it), a board file
// (`BoardMap.parse`) and LED patterns (`LEDPattern.parse`, each line of the input alone).
// The bytes are decoded as the daemon decodes a file (invalid UTF-8 replaced). Checks beyond
// "no crash":
// * an error names the file and a line that exists;
// * every LED pattern that parses reads back from its own text (`pattern.text`), also each slot
//   of a parsed `[leds]` table, with the slot's mode and priority;
// * a parsed board file laid over itself is itself.
import TrackCore
@testable import TrackDaemon
import TrackIO

func fuzzTarget(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    // Lines as the INI reader counts them: LF ends a line, a last line may lack it.
    let lineCount = text.utf8.count(where: { $0 == 0x0A }) + 1

    do {
        let config = try TrackdConfig.parse(text, file: "trackd.conf")
        // What start-up builds from it (`TrackdCommand.run`, `DaemonBuilder.build`), and what a SIGHUP
        // reload applies to a running pipeline (`Daemon.reload`).
        _ = FixPipeline(config)
        var reloaded = FixPipeline(TrackdConfig())
        reloaded.apply(config)
        _ = Odometer(maxSpeedMillimetresPerSecond: Int64(config.filter.maxSpeedMillimetresPerSecond))
        _ = LogWriterSettings(config.log)
        _ = BoardSettings(config)
        _ = SerialPort.Configuration(config.receiver, board: BoardMap())
        let none = FenceMonitor(fences: FenceSet(), settings: config.fences.settings)
        _ = FenceService(none, config, loadError: nil)
        _ = ReloadPlan(from: TrackdConfig(), oldBoard: BoardMap(), to: config, board: BoardMap(), fences: none, logSettings: nil)
        _ = BoardMap().overridden(by: config.board.overrides)
        for name in LEDPatternName.allCases {
            let pattern = config.leds[name]
            let reread: LEDPattern
            do {
                reread = try LEDPattern.parse(pattern.text)
            } catch {
                check(false, "slot \(name.key) as text \"\(pattern.text)\" does not parse: \(error)")
                return
            }
            check(reread.with(mode: name.role.mode, priority: name.role.priority) == pattern,
                  "slot \(name.key) reads back differently from \"\(pattern.text)\"")
        }
    } catch {
        ConfigFuzz.checkPlace(error, file: "trackd.conf", lineCount: lineCount)
    }

    do {
        let map = try BoardMap.parse(text, file: "board.conf")
        check(map.overridden(by: map) == map, "a board map laid over itself changed")
    } catch {
        ConfigFuzz.checkPlace(error, file: "board.conf", lineCount: lineCount)
    }

    for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(64) {
        guard let pattern = try? LEDPattern.parse(String(line)) else { continue }
        let reread = try? LEDPattern.parse(pattern.text)
        check(reread == pattern, "LED pattern \"\(line)\" reads back differently from \"\(pattern.text)\"")
    }
}

enum ConfigFuzz {
    /// An error names `file` and a line of the text.
    static func checkPlace(_ error: ConfigError, file: String, lineCount: Int) {
        check(error.file == file, "error names file \(error.file)")
        check(error.line >= 1 && error.line <= lineCount, "error at line \(error.line) of \(lineCount)")
        check(startsWithBytes(error.description, file + ":\(error.line): "), "error text \(error.description)")
    }
}
