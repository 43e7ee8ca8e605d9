import LogPowerCut
import Testing
import TrackIO
@testable import TrackctlCommands

/// The live views' frame renderer: lines fitted to the width by display columns, redrawn
/// exactly over whatever the frame before left, checked on the bytes and on a screen that
/// plays them as a VT100-style terminal does.
@Suite struct TerminalFrameTests {
    static let fitCases: [(line: String, columns: Int, fitted: String, cells: Int)] = [
        ("odometer  0 m", 20, "odometer  0 m", 13),
        ("odometer  0 m", 13, "odometer  0 m", 13),
        ("odometer  0 m", 12, "odometer  0…", 12),
        ("Tübingen", 5, "Tübi…", 5),
        ("gpio      simulated board: ● fix  ○ status", 33, "gpio      simulated board: ● fix…", 33),
        ("±1.5 m at 48.52°N", 9, "±1.5 m a…", 9),
        // Wide characters take two cells; one that would straddle the cut is left out whole.
        ("東京都庁", 8, "東京都庁", 8),
        ("東京都庁", 7, "東京都…", 7),
        ("東京都庁", 6, "東京…", 5),
        // A combining acute accent takes no cell and stays with its letter.
        ("Cafe\u{301} Rouge", 6, "Cafe\u{301} …", 6),
        ("Cafe\u{301} Rouge", 11, "Cafe\u{301} Rouge", 10),
        // Control characters are shown, not obeyed; tabs go to the next multiple of 8.
        ("mark \u{1B}[2J", 20, "mark ?[2J", 9),
        ("a\tb", 20, "a       b", 9),
        ("a\tb", 5, "a   …", 5),
        ("abc", 1, "…", 1),
        ("abc", 0, "", 0),
        ("", 10, "", 0),
    ]

    @Test(arguments: fitCases)
    func fitsByDisplayColumns(_ example: (line: String, columns: Int, fitted: String, cells: Int)) {
        let fitted = DisplayColumns.fit(example.line, columns: example.columns)
        #expect(fitted.text == example.fitted)
        #expect(fitted.cells == example.cells)
        #expect(DisplayColumns.of(fitted.text) == example.cells)
        #expect(fitted.cells <= max(example.columns, 0))
    }

    @Test func firstFrameClearsTheScreenAndClearsEachShortLine() {
        var frame = TerminalFrame()
        let bytes = frame.draw("fix       3D\nplace     Tübingen\n", size: TerminalSize(columns: 20, rows: 5))
        #expect(bytes == "\u{1B}[H\u{1B}[2J\u{1B}[1;1Hfix       3D\u{1B}[K\u{1B}[2;1Hplace     Tübingen\u{1B}[K")
        #expect(frame.shown == ["fix       3D", "place     Tübingen"])
    }

    @Test func aShorterFrameClearsBelowItsLastLineAndResendsOnlyChangedLines() {
        var frame = TerminalFrame()
        let size = TerminalSize(columns: 40, rows: 10)
        _ = frame.draw("trackd    up 1s\nreceiver  open\nfix       3D, 0.6s ago; first fix after 8.9s\ngpsd      127.0.0.1:2947\n", size: size)
        let bytes = frame.draw("trackd    up 1s\nreceiver  open\nfix       3D, 1.2s ago\n", size: size)
        #expect(bytes == "\u{1B}[3;1Hfix       3D, 1.2s ago\u{1B}[K\u{1B}[4;1H\u{1B}[J")
        #expect(frame.draw("trackd    up 1s\nreceiver  open\nfix       3D, 1.2s ago\n", size: size) == "")
    }

    @Test func aLineAsWideAsTheScreenIsNotErasedAtItsLastCell() {
        var frame = TerminalFrame()
        let bytes = frame.draw("0123456789\nshort\n", size: TerminalSize(columns: 10, rows: 4))
        #expect(bytes.contains("\u{1B}[1;1H0123456789\u{1B}[2;1H"))
        #expect(bytes.hasSuffix("short\u{1B}[K"))
    }

    @Test func aNewSizeRedrawsEverything() {
        var frame = TerminalFrame()
        _ = frame.draw("receiver  /dev/ttyAMA0 9600 baud\nodometer  0 m\n", size: TerminalSize(columns: 80, rows: 24))
        let bytes = frame.draw("receiver  /dev/ttyAMA0 9600 baud\nodometer  0 m\n", size: TerminalSize(columns: 20, rows: 24))
        #expect(bytes == "\u{1B}[H\u{1B}[2J\u{1B}[1;1Hreceiver  /dev/ttyA…\u{1B}[2;1Hodometer  0 m\u{1B}[K")
    }

    @Test func linesBeyondTheScreenAreLeftOut() {
        var frame = TerminalFrame()
        _ = frame.draw("1\n2\n3\n4\n5\n", size: TerminalSize(columns: 10, rows: 3))
        #expect(frame.shown == ["1", "2", "3"])
        // Nothing to clear below a full screen: an erase on the row below would hit the last.
        #expect(!frame.draw("1\n2\n", size: TerminalSize(columns: 10, rows: 3)).contains("\u{1B}[4;1H"))
    }

    @Test func leavingPutsTheCursorBelowTheFrameAndShowsIt() {
        var frame = TerminalFrame()
        #expect(frame.leave() == "\u{1B}[H\u{1B}[?25h")
        _ = frame.draw("a\nb\n", size: TerminalSize(columns: 10, rows: 3))
        #expect(frame.leave() == "\u{1B}[2;1H\n\u{1B}[?25h")
    }

    /// Seeded random frames (lines of ASCII, ● ○ ° ±, accents, wide characters, control
    /// bytes; growing, shrinking, resized) drawn one over the other on the emulated screen:
    /// after each, the screen holds exactly the frame's fitted lines and nothing else, and no
    /// character ever wrapped.
    @Test(arguments: [1, 7, 42, 2026])
    func everyFrameLeavesExactlyItsLinesOnTheScreen(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let pieces = ["fix ", "3D", "● ", "○ ", "48.52°N", "±2.5 m", "Tübingen", "東京", "e\u{301}", "\u{1B}", "\t", "…", "  ", "0"]
        var size = TerminalSize(columns: 30, rows: 8)
        var screen = EmulatedScreen(size: size)
        var frame = TerminalFrame()
        for _ in 0..<200 {
            if Int.random(in: 0..<10, using: &random) == 0 {
                size = TerminalSize(columns: 1 + Int.random(in: 0..<60, using: &random), rows: 1 + Int.random(in: 0..<12, using: &random))
                screen.resize(size)
            }
            var lines: [String] = []
            for _ in 0..<Int.random(in: 0..<14, using: &random) {
                var line = ""
                for _ in 0..<Int.random(in: 0..<12, using: &random) { line += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
                lines.append(line)
            }
            let text = lines.map { $0 + "\n" }.joined()
            try screen.play(frame.draw(text, size: size))
            // The screen's rows come back without trailing blanks, so the fitted lines do too.
            let expected = TerminalFrame.lines(text, size: size).map { line in
                var text = line.text
                while text.hasSuffix(" ") { text.removeLast() }
                return text
            }
            #expect(screen.rows == expected + Array(repeating: "", count: size.rows - expected.count))
        }
    }
}

/// A small terminal: cursor addressing, erase in line and display, autowrap's pending state,
/// wide characters in two cells; resizing keeps nothing (as a terminal that rewraps might).
struct EmulatedScreen {
    struct Wrapped: Error {}
    var size: TerminalSize
    var cells: [[String]]
    var row = 0
    var column = 0
    var pendingWrap = false
    var cursorVisible = true

    init(size: TerminalSize) {
        self.size = size
        cells = Array(repeating: Array(repeating: " ", count: size.columns), count: size.rows)
    }

    mutating func resize(_ new: TerminalSize) {
        // Leave junk on purpose: the renderer must clear after a resize.
        size = new
        cells = Array(repeating: Array(repeating: "#", count: new.columns), count: new.rows)
        row = min(row, new.rows - 1)
        column = min(column, new.columns - 1)
    }

    /// The rows as text, trailing blanks trimmed, wide characters once.
    var rows: [String] {
        cells.map { line in
            var text = line.joined()
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
    }

    mutating func play(_ bytes: String) throws {
        var scalars = bytes.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\u{1B}" {
                guard scalars.next() == "[" else { continue }
                var parameters = ""
                var final: Unicode.Scalar = " "
                while let next = scalars.next() {
                    if (0x40...0x7E).contains(next.value) { final = next; break }
                    parameters.unicodeScalars.append(next)
                }
                control(parameters, final)
                continue
            }
            if scalar == "\n" { row = min(row + 1, size.rows - 1); column = 0; pendingWrap = false; continue }
            if scalar == "\r" { column = 0; pendingWrap = false; continue }
            let width = DisplayColumns.of(scalar)
            if width == 0 {
                // A combining mark joins the character before the cursor (the cursor stays on
                // the last cell while a wrap is pending; a wide character's second cell is "").
                var base = pendingWrap ? column : max(column - 1, 0)
                if cells[row][base].isEmpty, base > 0 { base -= 1 }
                cells[row][base].unicodeScalars.append(scalar)
                continue
            }
            if pendingWrap || column + width > size.columns { throw Wrapped() }
            cells[row][column] = String(scalar)
            if width == 2 { cells[row][column + 1] = "" }
            if column + width == size.columns {
                column = size.columns - 1
                pendingWrap = true
            } else {
                column += width
            }
        }
    }

    mutating func control(_ parameters: String, _ final: Unicode.Scalar) {
        let numbers = parameters.split(separator: ";").map { Int($0) ?? 0 }
        switch (parameters, final) {
        case ("?25", "l"): cursorVisible = false
        case ("?25", "h"): cursorVisible = true
        case (_, "H"):
            row = min(max((numbers.first ?? 1) - 1, 0), size.rows - 1)
            column = min(max((numbers.count > 1 ? numbers[1] : 1) - 1, 0), size.columns - 1)
            pendingWrap = false
        case ("", "K"):
            for index in column..<size.columns { cells[row][index] = " " }
        case ("", "J"):
            for index in column..<size.columns { cells[row][index] = " " }
            for below in (row + 1)..<max(size.rows, row + 1) {
                cells[below] = Array(repeating: " ", count: size.columns)
            }
        case ("2", "J"):
            cells = Array(repeating: Array(repeating: " ", count: size.columns), count: size.rows)
        default: break
        }
    }
}
