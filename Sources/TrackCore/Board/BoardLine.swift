/// A part of the tracker wired to a GPIO line, named as in the board file, e.g. `.ledFix` is
/// `led-fix`.
public enum BoardRole: Int, CaseIterable, Equatable, Sendable {
    /// `led-fix`: what the receiver is doing.
    case ledFix
    /// `led-status`: permission, storage errors, acknowledgements.
    case ledStatus
    /// `led-fence`: inside a geofence.
    case ledFence
    /// `led-log`: a flash per sync.
    case ledLog
    /// `button`: to ground, with the pull-up (pressed = low).
    case button
    /// `in-use`: an optional input for when-in-use (active level configurable).
    case inUse

    /// The key in the board file and in trackd.conf's `[board]`, e.g. `led-fix`.
    public var key: String {
        switch self {
        case .ledFix: "led-fix"
        case .ledStatus: "led-status"
        case .ledFence: "led-fence"
        case .ledLog: "led-log"
        case .button: "button"
        case .inUse: "in-use"
        }
    }

    /// The LED this role drives, nil for the inputs, e.g. `.ledFix` → `.fix`.
    public var led: LEDLine? {
        switch self {
        case .ledFix: .fix
        case .ledStatus: .status
        case .ledFence: .fence
        case .ledLog: .log
        case .button, .inUse: nil
        }
    }
}

/// How a board file names a GPIO line: by the name `gpioinfo` shows (`GPIO17`) or by its
/// offset on the chip (`17`), e.g. `BoardLine(parsing: "GPIO17")` is `.name("GPIO17")`.
public enum BoardLine: Equatable, Sendable {
    /// The line's name, e.g. `GPIO17`.
    case name(String)
    /// The line's offset on its chip, 0 … 1023, e.g. 17.
    case offset(Int)

    /// Same name (byte for byte, as the kernel compares line names) or same offset.
    public static func == (left: BoardLine, right: BoardLine) -> Bool {
        switch (left, right) {
        case (.name(let a), .name(let b)): a.bytesEqual(b)
        case (.offset(let a), .offset(let b)): a == b
        default: false
        }
    }

    /// The highest offset accepted, 1023: no SoC's GPIO chip has more lines.
    public static let maximumOffset = 1023

    /// A line from its text: all digits is an offset (0 … 1023), anything else a name of 1 … 63
    /// printable bytes without spaces, e.g. `"17"` → `.offset(17)`, `"GPIO17"` → `.name("GPIO17")`.
    public init(parsing text: String) throws(ConfigError.Problem) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .missingValue }
        do throws(DecimalText.Problem) {
            self = .offset(Int(try DecimalText.unsigned(text, maximum: Int64(Self.maximumOffset))))
            return
        } catch .tooLarge {
            throw .outOfRange(text, range: String(joining: "line offsets 0 … ", String(Self.maximumOffset)))
        } catch {
            // Not all digits: a name.
        }
        // The kernel's line names are at most 31 bytes (GPIO_MAX_NAME_SIZE 32 with the NUL).
        guard bytes.count <= 31, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badValue(text, expected: "a line name such as GPIO17 (1 to 31 printable bytes, no spaces) or an offset")
        }
        self = .name(text)
    }

    /// The line as written, e.g. `GPIO17` or `17`.
    public var text: String {
        switch self {
        case .name(let name): name
        case .offset(let offset): "\(offset)"
        }
    }
}

/// Checks a chip's label or device path, e.g. `pinctrl-bcm2711` or `/dev/gpiochip0`.
func checkChip(_ text: String) throws(ConfigError.Problem) {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty else { throw .missingValue }
    guard bytes.count <= 255, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
        throw .badValue(text, expected: "a chip label such as pinctrl-bcm2711 or a path such as /dev/gpiochip0")
    }
}
