import TrackCore
import TrackIO

/// Progress of long work, for the person waiting at a terminal: a few lines on standard error
/// redrawn in place (`trackctl pull`: one per host; `fence compile`, `log export`, `log import`:
/// one), at most ten times a second, each fitted to the terminal's width. Only when standard
/// error is a terminal: otherwise every call does nothing, so a pipe or a file never receives a
/// progress line. Lines written to standard output through `say` move the progress out of the
/// way first when both go to the terminal.
///
/// Example:
///
///     var progress = ProgressLines()
///     for (index, record) in records.enumerated() {
///         progress.show("log import: \(index) of \(records.count) records")  // drawn ≤ 10/s
///         write(record)
///     }
///     progress.clear()                                                      // gone again
struct ProgressLines {
    /// Whether anything is drawn: standard error is a terminal.
    let isShown: Bool
    /// Whether standard output goes to a terminal too (then `say` clears and redraws).
    private let outputIsTerminal: Bool
    /// Lines on the screen now; the cursor rests at the end of the last.
    private var drawnCount = 0
    private var lastLines: [String] = []
    private var lastDrawnNanoseconds: Int64?

    /// Redraws at most this often, 100 ms: often enough to look live, rare enough to cost
    /// nothing beside the work.
    static let intervalNanoseconds: Int64 = 100_000_000

    /// Progress on standard error; `shown` overrides the terminal test (the tests).
    init(shown: Bool? = nil) {
        isShown = shown ?? TerminalSize.isTerminal(.standardError)
        outputIsTerminal = TerminalSize.isTerminal(.standardOutput)
    }

    /// True when a `show` now would draw: lets a caller skip building the text in between.
    func isDue(now: MonotonicTime = SystemClock.monotonic()) -> Bool {
        guard isShown else { return false }
        guard let last = lastDrawnNanoseconds else { return true }
        return now.nanoseconds - last >= Self.intervalNanoseconds
    }

    /// Shows `line` in place of what was drawn before (if `isDue`, or always with `force`).
    mutating func show(_ line: String, force: Bool = false) {
        show([line], force: force)
    }

    /// Shows `lines` in place of what was drawn before (if `isDue`, or always with `force`).
    mutating func show(_ lines: [String], force: Bool = false) {
        let now = SystemClock.monotonic()
        guard isShown, force || isDue(now: now) else { return }
        lastDrawnNanoseconds = now.nanoseconds
        lastLines = lines
        write(draw(lines, columns: TerminalSize.of(.standardError)?.columns ?? 80))
    }

    /// The bytes that replace the lines drawn before with `lines` on a terminal `columns` wide,
    /// the cursor left at the end of the last, e.g. `"\r" + "ESC[1A" + "boat: done: 4,811 bytes" +
    /// "ESC[K"` after two lines and before one, then `ESC[J` for the line no longer there.
    mutating func draw(_ lines: [String], columns: Int) -> String {
        var bytes = returnToFirstLine()
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes += "\n" }
            // One cell short of the width: a line that fills it would leave the cursor waiting
            // to wrap, and the next redraw would start a line too low.
            bytes += DisplayColumns.fit(line, columns: columns - 1).text + "\u{1B}[K"
        }
        // Lines drawn before and not now.
        if lines.count < drawnCount { bytes += "\u{1B}[J" }
        drawnCount = lines.count
        return bytes
    }

    /// Takes the progress lines off the screen (at the end of the work).
    mutating func clear() {
        guard isShown, drawnCount > 0 else { return }
        write(erase())
    }

    /// The bytes that take the lines drawn off the screen, the cursor where the first began.
    mutating func erase() -> String {
        defer { drawnCount = 0 }
        return returnToFirstLine() + "\u{1B}[J"
    }

    /// Writes `line` and a newline to standard output, the progress lines taken away before and
    /// drawn again after it when both share the terminal.
    mutating func say(_ line: String) {
        let redraw = isShown && outputIsTerminal && drawnCount > 0
        if redraw { clear() }
        try? FileDescriptor.standardOutput.writeAll(line + "\n")
        if redraw { show(lastLines, force: true) }
    }

    /// A count with thousands separators, e.g. 1234567 → "1,234,567".
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var text = count < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }

    /// A size in megabytes with one decimal (10^6 bytes), e.g. 24194462 → "24.2 MB".
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return String(tenths / 10) + "." + String(tenths % 10) + " MB"
    }

    /// The bytes that put the cursor at the start of the first line drawn.
    private func returnToFirstLine() -> String {
        guard drawnCount > 0 else { return "" }
        return "\r" + (drawnCount > 1 ? "\u{1B}[" + String(drawnCount - 1) + "A" : "")
    }

    private func write(_ bytes: String) {
        try? FileDescriptor.standardError.writeAll(bytes)
    }
}
