import CLinux

/// The size of a terminal in character cells, as the kernel keeps it for the terminal
/// (TIOCGWINSZ; a terminal emulator or tmux sets it and sends SIGWINCH when it changes).
///
/// Example: a 110-column, 40-row tmux pane reads `TerminalSize(columns: 110, rows: 40)`.
public struct TerminalSize: Equatable, Sendable {
    /// Cells per line, 1 or more.
    public var columns: Int
    /// Lines on the screen, 1 or more.
    public var rows: Int

    /// A size of `columns` × `rows` cells (each at least 1).
    public init(columns: Int, rows: Int) {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
    }

    /// The size of the terminal on `descriptor`; nil when it is no terminal, or one that does
    /// not know its size (a serial console reports 0 × 0).
    public static func of(_ descriptor: FileDescriptor) -> TerminalSize? {
        var rows: UInt16 = 0
        var columns: UInt16 = 0
        guard clinux_terminal_size(descriptor.rawValue, &rows, &columns) == 0, rows > 0, columns > 0 else {
            return nil
        }
        return TerminalSize(columns: Int(columns), rows: Int(rows))
    }

    /// True when `descriptor` is a terminal (isatty), e.g. false for a pipe or a file.
    public static func isTerminal(_ descriptor: FileDescriptor) -> Bool {
        isatty(descriptor.rawValue) == 1
    }
}
