import CLinux
import TrackCore

/// Why a GPIO operation failed, naming the chip (label or path as given) and the line (its
/// name, or `offset N`), e.g. `GPIO17 on pinctrl-bcm2835: busy (used by another program)`.
public enum GPIOError: Error, Equatable, Sendable {
    /// No chip with this label or path (ENOENT): no GPIO driver, a wrong label, or a machine
    /// without `/dev/gpiochip*`.
    case noSuchChip(chip: String)
    /// The chip has no line of this name, e.g. `GPIO71`.
    case lineNotFound(line: String, chip: String)
    /// The line is held by another program or a kernel driver (EBUSY), e.g. a 1-Wire overlay.
    case lineBusy(line: String, chip: String)
    /// Not allowed to open the chip or request the line (EACCES, EPERM): trackd's user is not
    /// in the `gpio` group, or a udev rule is missing. `line` is nil for the chip itself.
    case permissionDenied(line: String?, chip: String)
    /// `set` on a line not requested as an output, or `readEvent` on one not requested as an input.
    case notRequested(line: String, chip: String)
    /// Another failure of `operation` (e.g. `request output`), with its errno.
    case system(operation: String, line: String?, chip: String, errno: Errno)

    /// The error for `errno` from `operation` on `line` of `chip`: ENOENT/ENODEV, EBUSY,
    /// EACCES/EPERM become their own cases, anything else `.system`.
    public static func from(_ errno: Errno, operation: String, line: String?, chip: String) -> GPIOError {
        switch errno.rawValue {
        case ENOENT, ENODEV:
            if let line { return .lineNotFound(line: line, chip: chip) }
            return .noSuchChip(chip: chip)
        case EBUSY:
            return .lineBusy(line: line ?? "?", chip: chip)
        case EACCES, EPERM:
            return .permissionDenied(line: line, chip: chip)
        default:
            return .system(operation: operation, line: line, chip: chip, errno: errno)
        }
    }
}

extension GPIOError: CustomStringConvertible {
    /// One line for the journal and `trackctl doctor`, e.g.
    /// `GPIO chip pinctrl-bcm2835: no such chip (ENOENT: is this a board with GPIO?)`.
    public var description: String {
        switch self {
        case .noSuchChip(let chip):
            return String(joining: "GPIO chip ", chip, ": no such chip (ENOENT: is this a board with GPIO, and the label right?)")
        case .lineNotFound(let line, let chip):
            return String(joining: line, " on ", chip, ": no line of that name")
        case .lineBusy(let line, let chip):
            return String(joining: line, " on ", chip, ": busy (used by another program or a device-tree overlay)")
        case .permissionDenied(let line, let chip):
            return String(joining: Self.place(line, chip), ": permission denied (add trackd's user to the gpio group)")
        case .notRequested(let line, let chip):
            return String(joining: line, " on ", chip, ": not requested for this use")
        case .system(let operation, let line, let chip, let errno):
            return String(joining: Self.place(line, chip), ": ", operation, " failed: ", errno.message,
                          " (errno ", String(errno.rawValue), ")")
        }
    }

    /// `GPIO17 on gpiochip0`, or `GPIO chip gpiochip0` without a line.
    private static func place(_ line: String?, _ chip: String) -> String {
        line.map { String(joining: $0, " on ", chip) } ?? String(joining: "GPIO chip ", chip)
    }
}
