import Foundation
import Testing
import TrackCore

/// The board files of the repository and every way a pin map can be wrong.
@Suite("Board pin maps")
struct BoardMapTests {
    static let boardFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("board")

    @Test("every board file in board/ parses to its chip, UART and six lines",
          arguments: [("pi3.conf", "pinctrl-bcm2835", "/dev/serial0"), ("pi4.conf", "pinctrl-bcm2711", "/dev/serial0"),
                      ("pi5.conf", "pinctrl-rp1", "/dev/ttyAMA0"), ("pizero2w.conf", "pinctrl-bcm2835", "/dev/serial0")])
    func repositoryBoards(file: String, chip: String, device: String) throws {
        let text = try String(contentsOf: Self.boardFolder.appendingPathComponent(file), encoding: .utf8)
        let map = try BoardMap.parse(text, file: file)
        #expect(map.chip == chip)
        #expect(map.receiverDevice == device)
        let expected: [BoardRole: String] = [.ledFix: "GPIO17", .ledStatus: "GPIO27", .ledFence: "GPIO22",
                                             .ledLog: "GPIO23", .button: "GPIO24", .inUse: "GPIO25"]
        for role in BoardRole.allCases {
            #expect(map[role] == .name(expected[role] ?? "?"), "\(file): \(role.key)")
        }
    }

    @Test("a line is a name or an offset; trackd.conf's lines override the file's")
    func offsetsAndOverrides() throws {
        let map = try BoardMap.parse("[gpio]\nchip = /dev/gpiochip0\nled-fix = 17\nbutton = GPIO24\n", file: "b.conf")
        #expect(map.chip == "/dev/gpiochip0")
        #expect(map[.ledFix] == .offset(17))
        #expect(map[.button] == .name("GPIO24"))
        #expect(map[.inUse] == nil)
        #expect(map.receiverDevice == nil)
        var overrides = BoardMap()
        overrides.chip = "pinctrl-rp1"
        overrides[.button] = .offset(5)
        let merged = map.overridden(by: overrides)
        #expect(merged.chip == "pinctrl-rp1")
        #expect(merged[.ledFix] == .offset(17))
        #expect(merged[.button] == .offset(5))
        #expect(BoardMap().isEmpty)
        #expect(!merged.isEmpty)
        #expect(try BoardMap.parse("# nothing\n", file: "empty.conf").isEmpty)
    }

    @Test("errors name file, line and key", arguments: [
        ("[gpio]\nled-fix = GPIO 17",
         #"b.conf:2: gpio.led-fix: "GPIO 17" is not a line name such as GPIO17 (1 to 31 printable bytes, no spaces) or an offset"#),
        ("[gpio]\n\nbutton = 5000", #"b.conf:3: gpio.button: "5000" is outside line offsets 0 … 1023"#),
        ("[gpio]\nled-fix =", "b.conf:2: gpio.led-fix: no value after \"=\""),
        ("[gpio]\nled-fix = GPIO17\nled-fix = GPIO18", "b.conf:3: gpio.led-fix: set twice (first on line 2)"),
        ("[gpio]\nled-red = GPIO17",
         "b.conf:2: gpio.led-red: unknown key (this section has: chip, led-fix, led-status, led-fence, led-log, button, in-use)"),
        ("[receiver]\nbaud = 9600", "b.conf:2: receiver.baud: unknown key (this section has: device)"),
        ("[receiver]\ndevice = serial0", #"b.conf:2: receiver.device: "serial0" is not an absolute path of at most 4095 bytes"#),
        ("[pins]\n", "b.conf:1: unknown section [pins] (known: receiver, gpio)"),
        ("chip = pinctrl-rp1", "b.conf:1: chip: key before the first [section]"),
        ("[gpio]\nchip = pin ctrl", #"b.conf:2: gpio.chip: "pin ctrl" is not a chip label such as pinctrl-bcm2711 or a path such as /dev/gpiochip0"#),
        ("[gpio\n", #"b.conf:1: "[gpio" is not a [section] line"#),
        ("[gpio]\nled-fix GPIO17", #"b.conf:2: "led-fix GPIO17" is not "key = value", a [section] or a # comment"#),
    ])
    func errors(text: String, message: String) {
        #expect(throws: ConfigError.self) { try BoardMap.parse(text, file: "b.conf") }
        do {
            _ = try BoardMap.parse(text, file: "b.conf")
        } catch {
            #expect(error.description == message)
        }
    }

    /// All digits is an offset, read by the shared whole-number reader (leading zeros mean
    /// nothing; too large is out of range, however long); anything else is a name.
    @Test(arguments: [
        ("17", BoardLine.offset(17)), ("0", .offset(0)), ("0017", .offset(17)), ("1023", .offset(1023)),
        ("GPIO17", .name("GPIO17")), ("+17", .name("+17")), ("17a", .name("17a")), ("-1", .name("-1")),
    ])
    func linesAreOffsetsOrNames(text: String, line: BoardLine) throws {
        #expect(try BoardLine(parsing: text) == line)
    }

    @Test(arguments: ["1024", "99999999999999999999"])
    func offsetsPastTheLastLineAreOutOfRange(text: String) {
        #expect(throws: ConfigError.Problem.outOfRange(text, range: "line offsets 0 … 1023")) { try BoardLine(parsing: text) }
    }
}

