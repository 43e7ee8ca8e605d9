/// How many cells of a terminal text takes, and text cut to fit a width, as a terminal shows it:
/// most characters take one cell, East Asian wide and fullwidth ones (and emoji shown as such)
/// two, combining marks and format characters none. The table follows Unicode's East Asian
/// Width W and F ranges, which glibc's wcwidth (and so tmux) uses; ambiguous characters such as
/// `●`, `○`, `°` and `±` take one cell, as they do in a UTF-8 locale.
///
/// Example: `DisplayColumns.of("fix ● 3D")` → 8; `DisplayColumns.fit("Tübingen", columns: 5)`
/// → `"Tübi…"` (5 cells).
enum DisplayColumns {
    /// The mark that ends a cut line: `…` (U+2026, one cell).
    static let ellipsis: Unicode.Scalar = "\u{2026}"

    /// Cells of `scalar`: 0, 1 or 2. Control characters count 1 here because `fit` shows them
    /// as `?`.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        case .format: return value == 0xAD ? 1 : 0
        default: break
        }
        // Hangul Jamo vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(value) { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// Cells of `text` as `fit` shows it (tabs expanded).
    static func of<Text: StringProtocol>(_ text: Text) -> Int {
        cells(of: text).reduce(0) { $0 + $1.cells }
    }

    /// `line` as it can be shown in `columns` cells: tabs expanded to the next multiple of 8,
    /// other control characters (an escape in a waypoint's label, say) shown as `?` so they
    /// cannot move the cursor, and a line wider than `columns` cut to `columns - 1` cells and
    /// `…`. A wide character that would straddle the cut is left out whole.
    ///
    /// Example: `fit("receiver  /dev/ttyAMA0 9600 baud", columns: 20)` →
    /// `"receiver  /dev/ttyA…"`.
    static func fit<Text: StringProtocol>(_ line: Text, columns: Int) -> (text: String, cells: Int) {
        let shown = cells(of: line)
        let total = shown.reduce(0) { $0 + $1.cells }
        if total <= columns { return (String(String.UnicodeScalarView(shown.map { $0.scalar })), total) }
        guard columns > 0 else { return ("", 0) }
        var kept = String.UnicodeScalarView()
        var used = 0
        // Combining marks after the last character kept stay with it (they take no cell).
        for (scalar, width) in shown {
            if used + width > columns - 1 { break }
            kept.append(scalar)
            used += width
        }
        kept.append(ellipsis)
        return (String(kept), used + 1)
    }

    /// The scalars `fit` shows for `line` and the cells of each: tabs as spaces up to the next
    /// multiple of 8, control characters as `?`.
    static func cells<Text: StringProtocol>(of line: Text) -> [(scalar: Unicode.Scalar, cells: Int)] {
        var shown: [(scalar: Unicode.Scalar, cells: Int)] = []
        var used = 0
        for scalar in line.unicodeScalars {
            if scalar == "\t" {
                for _ in 0..<(8 - used % 8) { shown.append((" ", 1)) }
                used += 8 - used % 8
                continue
            }
            let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            let width = of(scalar)
            shown.append((isControl ? "?" : scalar, width))
            used += width
        }
        return shown
    }

    /// East Asian Width W or F (Unicode 15), the ranges glibc's wcwidth gives 2.
    static func isWide(_ value: UInt32) -> Bool {
        if value < 0x1100 { return false }
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1AFF0...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
