import Foundation
import Testing
import TrackCore
@testable import TrackDaemon
import TrackIO

/// Choosing the board: the `[board] file`, trackd.conf's overrides over it, the simulated board.
@Suite("Config loader: the board")
struct ConfigLoaderBoardTests {
    static func config(_ text: String) throws -> TrackdConfig { try TrackdConfig.parse(text, file: "trackd.conf") }

    @Test("the board file with trackd.conf's lines laid over it")
    func boardFileAndOverrides() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: file) }
        try "[receiver]\ndevice = /dev/ttyAMA0\n[gpio]\nchip = pinctrl-rp1\nled-fix = GPIO17\nbutton = GPIO24\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let map = try ConfigFiles.loadBoard(Self.config("[board]\nfile = \(file.path)\nbutton = 5\n")).get()
        #expect(map.receiverDevice == "/dev/ttyAMA0")
        #expect(map.chip == "pinctrl-rp1")
        #expect(map[.ledFix] == .name("GPIO17"))
        #expect(map[.button] == .offset(5))
        #expect(map[.inUse] == nil)
    }

    @Test("no board file: only trackd.conf's lines; none at all: no board")
    func noFile() throws {
        #expect(try ConfigFiles.loadBoard(Self.config("")).get().isEmpty)
        let map = try ConfigFiles.loadBoard(Self.config("[board]\nchip = /dev/gpiochip0\nled-fix = 17\n")).get()
        #expect(map.chip == "/dev/gpiochip0")
        #expect(map[.ledFix] == .offset(17))
    }

    @Test("the simulated board names every line after its role")
    func simulated() throws {
        let map = try ConfigFiles.loadBoard(Self.config("[board]\nsimulated = yes\nfile = /nonexistent/board.conf\n")).get()
        #expect(map.chip == ConfigFiles.simulatedChip.label)
        for role in BoardRole.allCases { #expect(map[role] == .name(role.key)) }
    }

    @Test("a missing board file is an error naming it")
    func missingFile() throws {
        let result = ConfigFiles.loadBoard(try Self.config("[board]\nfile = /nonexistent/trackd-board.conf\n"))
        guard case .failure(let error) = result else {
            Issue.record("a missing board file was accepted")
            return
        }
        #expect(error.description.hasPrefix("/nonexistent/trackd-board.conf: "))
    }
}
