import Testing
@testable import TrackctlCommands

/// The progress lines of long trackctl work: redrawn in place over the lines before, fitted
/// one cell short of the width, erased at the end; the numbers they say.
@Suite struct ProgressLinesTests {
    @Test func linesAreRedrawnInPlaceGrowingAndShrinking() {
        var progress = ProgressLines(shown: true)
        #expect(progress.draw(["bike: connecting"], columns: 80) == "bike: connecting\u{1B}[K")
        #expect(progress.draw(["bike: receiving 812 bytes, 0.3 s", "boat: waiting"], columns: 80)
            == "\rbike: receiving 812 bytes, 0.3 s\u{1B}[K\nboat: waiting\u{1B}[K")
        #expect(progress.draw(["boat: done: 4811 bytes, 1200 fixes, 0.4 s"], columns: 80)
            == "\r\u{1B}[1Aboat: done: 4811 bytes, 1200 fixes, 0.4 s\u{1B}[K\u{1B}[J")
        #expect(progress.erase() == "\r\u{1B}[J")
        #expect(progress.erase() == "\u{1B}[J")
    }

    @Test func aLongLineIsCutOneCellShortOfTheWidth() {
        var progress = ProgressLines(shown: true)
        #expect(progress.draw(["log import: parsing Tübingen.gpx"], columns: 20) == "log import: parsin…\u{1B}[K")
    }

    @Test func nothingIsDueWhenStandardErrorIsNoTerminal() {
        let progress = ProgressLines(shown: false)
        #expect(!progress.isDue())
        #expect(ProgressLines(shown: true).isDue())
    }

    static let counts: [(Int, String)] = [(0, "0"), (999, "999"), (1000, "1,000"), (604_800, "604,800"),
                                          (1_234_567, "1,234,567"), (-4321, "-4,321")]

    @Test(arguments: counts)
    func countsHaveThousandsSeparators(_ example: (Int, String)) {
        #expect(ProgressLines.grouped(example.0) == example.1)
    }

    static let sizes: [(Int, String, String)] = [
        (0, "0.0 MB", "0 bytes"), (812, "0.0 MB", "812 bytes"), (9_999, "0.0 MB", "9,999 bytes"),
        (48_211, "0.0 MB", "48.2 KB"), (49_999, "0.0 MB", "50.0 KB"), (50_000, "0.1 MB", "50.0 KB"),
        (999_949, "1.0 MB", "999.9 KB"), (999_950, "1.0 MB", "1.0 MB"), (24_194_462, "24.2 MB", "24.2 MB"),
    ]

    @Test(arguments: sizes)
    func sizesInMegabytesAndTheirShortestUnit(_ example: (Int, String, String)) {
        #expect(ProgressLines.megabytes(example.0) == example.1)
        #expect(PullProgress.size(example.0) == example.2)
    }
}
