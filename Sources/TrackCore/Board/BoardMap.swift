/// A board's pin map, read from `board/*.conf` (e.g. `board/pi4.conf`): the receiver's UART,
/// the GPIO chip and the line of each LED, the button and the optional in-use input.
///
/// The file has trackd.conf's syntax: `[receiver]` with `device`, `[gpio]` with `chip` and one
/// key per `BoardRole`; a key left out is a part the build does not have. Example:
/// `[gpio]` / `chip = pinctrl-rp1` / `led-fix = GPIO17` → `chip == "pinctrl-rp1"`,
/// `self[.ledFix] == .name("GPIO17")`.
public struct BoardMap: Equatable, Sendable {
    /// The receiver's device, e.g. `/dev/ttyAMA0`; nil when the file does not say.
    public var receiverDevice: String?
    /// The GPIO chip: a label (`pinctrl-bcm2711`) or, starting with `/`, a device path.
    public var chip: String?
    private var roles: [BoardLine?] = Array(repeating: nil, count: BoardRole.allCases.count)

    /// An empty map: no receiver device, no chip, no lines.
    public init() {}

    /// The same device, chip and lines, names compared byte for byte.
    public static func == (left: BoardMap, right: BoardMap) -> Bool {
        left.receiverDevice.bytesEqual(right.receiverDevice) && left.chip.bytesEqual(right.chip)
            && left.roles.count == right.roles.count
            && zip(left.roles, right.roles).allSatisfy { $0 == $1 }
    }

    /// The line of `role`, nil when the board has none.
    public subscript(role: BoardRole) -> BoardLine? {
        get { roles[role.rawValue] }
        set { roles[role.rawValue] = newValue }
    }

    /// True when no line is mapped: trackd runs without LEDs and button.
    public var isEmpty: Bool { roles.allSatisfy { $0 == nil } }

    /// This map with `other`'s chip and lines laid over it (trackd.conf's `[board]` overrides).
    public func overridden(by other: BoardMap) -> BoardMap {
        var result = self
        if let device = other.receiverDevice { result.receiverDevice = device }
        if let chip = other.chip { result.chip = chip }
        for role in BoardRole.allCases {
            if let line = other[role] { result[role] = line }
        }
        return result
    }

    /// Reads a board file; `file` names it in errors, e.g.
    /// `pi4.conf:17: gpio.led-fix: "GPIO 17" is not a line name such as GPIO17 …`.
    /// Throws at the first problem (unknown section or key, a key set twice, a bad value).
    public static func parse(_ text: String, file: String) throws(ConfigError) -> BoardMap {
        var map = BoardMap()
        var section: String?
        var seen: [[UInt8]: Int] = [:]
        let known = ["receiver", "gpio"]
        for entry in try iniLines(text, file: file) {
            switch entry {
            case .section(let name, let line):
                guard known.containsBytes(name) else {
                    throw ConfigError(file: file, line: line, key: nil, problem: .unknownSection(name, known: known))
                }
                section = name
            case .entry(let key, let value, let line):
                guard let section else {
                    throw ConfigError(file: file, line: line, key: key, problem: .keyOutsideSection)
                }
                let qualified = section + "." + key
                if let first = seen[Array(qualified.utf8)] {
                    throw ConfigError(file: file, line: line, key: qualified, problem: .duplicateKey(firstLine: first))
                }
                seen[Array(qualified.utf8)] = line
                do throws(ConfigError.Problem) {
                    try map.set(section: section, key: key, value: value)
                } catch {
                    throw ConfigError(file: file, line: line, key: qualified, problem: error)
                }
            }
        }
        return map
    }

    private mutating func set(section: String, key: String, value: String) throws(ConfigError.Problem) {
        if section.bytesEqual("receiver") {
            guard key.bytesEqual("device") else { throw .unknownKey(known: ["device"]) }
            _ = try ConfigValueKind.path(maxBytes: 4095, optional: false).parse(value)
            receiverDevice = value
            return
        }
        if key.bytesEqual("chip") {
            try checkChip(value)
            chip = value
            return
        }
        guard let role = BoardRole.allCases.first(where: { $0.key.bytesEqual(key) }) else {
            throw .unknownKey(known: ["chip"] + BoardRole.allCases.map { $0.key })
        }
        self[role] = try BoardLine(parsing: value)
    }
}
