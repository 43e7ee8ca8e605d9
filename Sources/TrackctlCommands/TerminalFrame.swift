import TrackIO

/// The screen of a live view (`trackctl status --watch`, `leds --watch`): turns each frame's
/// lines into the bytes that redraw a terminal exactly, whatever was on it before. Each line is
/// fitted to the width (`DisplayColumns.fit`: cut with `…`, never wrapped, so no line shifts the
/// ones below it) and written at its own row, cleared to its end when it is shorter than the
/// screen; lines that did not change since the last frame are not sent again; what is below the
/// last line is cleared when the frame got shorter; a change of size clears the screen and
/// draws every line (a terminal may have rewrapped or cut what was there). Lines beyond the
/// screen's height are left out rather than scrolling the top away.
///
/// Example: a frame `"fix       3D\nplace     Tübingen\n"` after one of three longer lines, on a
/// 110 × 40 terminal, sends `ESC[1;1H fix       3D ESC[K ESC[2;1H place     Tübingen ESC[K
/// ESC[3;1H ESC[J` (without the spaces around the escapes).
struct TerminalFrame {
    /// The fitted lines on the screen now; empty before the first frame.
    private(set) var shown: [String] = []
    /// The size the lines were fitted to; nil before the first frame.
    private(set) var size: TerminalSize?

    /// Hides the cursor: the first bytes of a view.
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again.
    static let showCursor = "\u{1B}[?25h"

    /// The lines of `text` (separated by newlines; a final newline ends the last line, a
    /// carriage return before a newline is dropped) fitted to `size`: each cut to its width,
    /// at most `size.rows` of them.
    static func lines(_ text: String, size: TerminalSize) -> [(text: String, cells: Int)] {
        var lines: [(text: String, cells: Int)] = []
        var rest = Substring(text)
        while !rest.isEmpty, lines.count < size.rows {
            var line: Substring
            if let newline = rest.firstIndex(of: "\n") {
                line = rest[..<newline]
                rest = rest[rest.index(after: newline)...]
            } else {
                line = rest
                rest = ""
            }
            if line.hasSuffix("\r") { line = line.dropLast() }
            lines.append(DisplayColumns.fit(line, columns: size.columns))
        }
        return lines
    }

    /// The bytes that turn the screen into `text` on a terminal of `size`, and records what it
    /// then shows.
    mutating func draw(_ text: String, size: TerminalSize) -> String {
        let lines = Self.lines(text, size: size)
        let whole = self.size != size
        var bytes = whole ? "\u{1B}[H\u{1B}[2J" : ""
        for (index, line) in lines.enumerated() where whole || index >= shown.count || shown[index] != line.text {
            bytes += "\u{1B}[" + String(index + 1) + ";1H" + line.text
            // A line as wide as the screen needs no clearing, and an erase there would take
            // its last cell (the cursor waits on it until the next character wraps).
            if line.cells < size.columns { bytes += "\u{1B}[K" }
        }
        if !whole, lines.count < shown.count, lines.count < size.rows {
            bytes += "\u{1B}[" + String(lines.count + 1) + ";1H\u{1B}[J"
        }
        shown = lines.map { $0.text }
        self.size = size
        return bytes
    }

    /// The bytes that end the view: the cursor on the line below the frame (the screen scrolls
    /// when the frame fills it), so a shell's prompt follows it, and shown again.
    func leave() -> String {
        guard !shown.isEmpty else { return "\u{1B}[H" + Self.showCursor }
        return "\u{1B}[" + String(shown.count) + ";1H\n" + Self.showCursor
    }
}
