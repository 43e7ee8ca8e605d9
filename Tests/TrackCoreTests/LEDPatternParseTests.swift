import Testing
import TrackCore

private func steps(_ pairs: (Bool, Int32)...) -> [LEDStep] {
    pairs.map { LEDStep(on: $0.0, milliseconds: $0.1) }
}

@Suite struct LEDPatternParseTests {
    struct Good: Sendable, CustomTestStringConvertible {
        var text: String
        var steps: [LEDStep]
        var period: Int64
        var steady: Bool
        var testDescription: String { text }
    }

    static let good: [Good] = [
        Good(text: "solid", steps: steps((true, 1000)), period: 1000, steady: true),
        Good(text: "off", steps: steps((false, 1000)), period: 1000, steady: true),
        Good(text: "  solid\t", steps: steps((true, 1000)), period: 1000, steady: true),
        Good(text: "on 100 off 100 on 100 off 700",
             steps: steps((true, 100), (false, 100), (true, 100), (false, 700)), period: 1000, steady: false),
        Good(text: "off 50\ton 60000", steps: steps((false, 50), (true, 60_000)), period: 60_050, steady: false),
        Good(text: "on 1", steps: steps((true, 1)), period: 1, steady: true),
        Good(text: "on 100 on 200", steps: steps((true, 100), (true, 200)), period: 300, steady: true),
        Good(text: "on 1 off 1 on 1 off 1 on 1 off 1 on 1 off 1",
             steps: steps((true, 1), (false, 1), (true, 1), (false, 1), (true, 1), (false, 1), (true, 1), (false, 1)),
             period: 8, steady: false),
    ]

    @Test(arguments: good)
    func parses(_ test: Good) throws {
        let pattern = try LEDPattern.parse(test.text)
        #expect(pattern.steps == test.steps)
        #expect(pattern.periodMilliseconds == test.period)
        #expect(pattern.isSteady == test.steady)
        #expect(pattern.mode == .repeating)
        #expect(pattern.priority == 0)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: String
        var error: LEDPatternError
        var testDescription: String { text }
    }

    static let bad: [Bad] = [
        Bad(text: "", error: .empty),
        Bad(text: " \t ", error: .empty),
        Bad(text: "on 100 of 100", error: .unknownWord("of", offset: 7)),
        Bad(text: "blink", error: .unknownWord("blink", offset: 0)),
        Bad(text: "Solid", error: .unknownWord("Solid", offset: 0)),
        Bad(text: "on 100 off", error: .missingDuration(offset: 7)),
        Bad(text: "on off 100", error: .missingDuration(offset: 3)),
        Bad(text: "on 1.5", error: .badDuration("1.5", offset: 3)),
        Bad(text: "on 100ms", error: .badDuration("100ms", offset: 3)),
        Bad(text: "on -5", error: .badDuration("-5", offset: 3)),
        Bad(text: "on 0", error: .durationOutOfRange("0", offset: 3)),
        Bad(text: "on 60001", error: .durationOutOfRange("60001", offset: 3)),
        Bad(text: "on 99999999999999999999", error: .durationOutOfRange("99999999999999999999", offset: 3)),
        // Malformed before large: the shared reader reads the whole word first.
        Bad(text: "on 70000x", error: .badDuration("70000x", offset: 3)),
        Bad(text: "on +5", error: .badDuration("+5", offset: 3)),
        Bad(text: "on 100 100", error: .missingLevel("100", offset: 7)),
        Bad(text: "100", error: .missingLevel("100", offset: 0)),
        Bad(text: "solid 100", error: .trailingText("100", offset: 6)),
        Bad(text: "off 100 solid", error: .trailingText("solid", offset: 8)),
        Bad(text: "on 1 off 1 on 1 off 1 on 1 off 1 on 1 off 1 on 1",
            error: .tooManySteps(offset: 44)),
        Bad(text: "on 100 off 100 é", error: .unknownWord("é", offset: 15)),
    ]

    @Test(arguments: bad)
    func rejects(_ test: Bad) {
        #expect(throws: test.error) { try LEDPattern.parse(test.text) }
    }

    @Test func errorsSayTheColumn() {
        #expect(LEDPatternError.unknownWord("of", offset: 7).description
            == "column 8: \"of\" is not on, off, solid or a number of milliseconds")
        #expect(LEDPatternError.durationOutOfRange("0", offset: 3).description
            == "column 4: \"0\" is outside 1 … 60000 ms")
    }

    @Test func anOverrideKeepsTheSlotsModeAndPriority() throws {
        var table = LEDTable()
        try table.override(.waypointSaved, with: "on 300 off 300")
        #expect(table[.waypointSaved].steps == steps((true, 300), (false, 300)))
        #expect(table[.waypointSaved].mode == .once)
        #expect(table[.waypointSaved].priority == 2)
        try table.override(.fix2D, with: "solid")
        #expect(table[.fix2D] == .solid)
        #expect(table != LEDTable())
    }

    @Test func aBadOverrideLeavesTheSlotAsItWas() {
        var table = LEDTable()
        #expect(throws: LEDPatternError.missingDuration(offset: 0)) { try table.override(.fix2D, with: "on") }
        #expect(table == LEDTable())
    }

    @Test func everySlotHasAKeyAndALine() {
        #expect(LEDPatternName.allCases.count == 20)
        #expect(LEDPatternName.fix2D.key.description == "fix-2d")
        #expect(LEDPatternName.storageError.line == .status)
        #expect(LEDTable()[.storageError].priority > LEDTable()[.waypointSaved].priority)
        #expect(LEDTable()[.waypointSaved].priority > LEDTable()[.statusAlways].priority)
    }

    @Test func stepsOutsideTheLimitsMakeNoPattern() {
        #expect(LEDPattern(steps: []) == nil)
        #expect(LEDPattern(steps: steps((true, 0))) == nil)
        #expect(LEDPattern(steps: Array(repeating: LEDStep(on: true, milliseconds: 1), count: 9)) == nil)
    }
}
