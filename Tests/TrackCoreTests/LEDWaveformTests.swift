import Testing
import TrackCore

/// One LED state and the waveform the default table gives it.
struct LEDStateCase: Sendable, CustomTestStringConvertible {
    var name: String
    var line: LEDLine
    var inputs: LEDInputs
    var window: Int64
    var levels: [Int]
    var times: [Int64]
    var next: Int64?
    var testDescription: String { name }
}

private func state(_ name: String, _ line: LEDLine, _ inputs: LEDInputs, window: Int64 = 10_000,
                   went levels: [Int], at times: [Int64], next: Int64?) -> LEDStateCase {
    LEDStateCase(name: name, line: line, inputs: inputs, window: window, levels: levels, times: times, next: next)
}

private let stateCases: [LEDStateCase] = [
    state("led-fix, receiver silent: off", .fix, LEDInputs(receiver: .silent), went: [0], at: [0], next: nil),
    state("led-fix, no fix: 1 Hz", .fix, LEDInputs(receiver: .noFix), window: 1000,
          went: [1, 0], at: [0, 500], next: 1000),
    state("led-fix, 2D: double flash", .fix, LEDInputs(receiver: .fix2D), window: 1000,
          went: [1, 0, 1, 0], at: [0, 100, 200, 300], next: 1000),
    state("led-fix, 3D: solid", .fix, LEDInputs(receiver: .fix3D), went: [1], at: [0], next: nil),
    state("led-fix, port error: 5 Hz", .fix, LEDInputs(receiver: .portError), window: 200,
          went: [1, 0], at: [0, 100], next: 200),
    state("led-status, always: solid", .status, LEDInputs(permission: .always), went: [1], at: [0], next: nil),
    state("led-status, when-in-use in use: solid", .status, LEDInputs(permission: .whenInUse(inUse: true)),
          went: [1], at: [0], next: nil),
    state("led-status, when-in-use idle: 0.2 Hz blip", .status,
          LEDInputs(permission: .whenInUse(inUse: false)), window: 5000, went: [1, 0], at: [0, 250], next: 5000),
    state("led-status, not-determined: double blip every 2 s", .status, LEDInputs(permission: .notDetermined),
          window: 2000, went: [1, 0, 1, 0], at: [0, 50, 200, 250], next: 2000),
    state("led-status, denied: 50 ms blip every 5 s", .status, LEDInputs(permission: .denied), window: 5000,
          went: [1, 0], at: [0, 50], next: 5000),
    state("led-status, restricted: 50 ms blip every 5 s", .status, LEDInputs(permission: .restricted),
          window: 5000, went: [1, 0], at: [0, 50], next: 5000),
    state("led-status, storage error: fast blink", .status, LEDInputs(permission: .always, storageError: true),
          window: 200, went: [1, 0], at: [0, 100], next: 200),
    state("led-status, waypoint saved: 3 quick flashes, then solid again", .status,
          LEDInputs(permission: .always, events: LEDEvents(waypointSaved: at(0))),
          went: [0, 1, 0, 1, 0, 1, 0, 1], at: [0, 150, 250, 350, 450, 550, 650, 800], next: nil),
    state("led-status, privacy toggled: one 1 s flash", .status,
          LEDInputs(permission: .denied, events: LEDEvents(privacyToggled: at(0))), window: 5000,
          went: [0, 1, 0], at: [0, 250, 1250], next: 5000),
    state("led-fence, outside: off", .fence, LEDInputs(insideFence: false), went: [0], at: [0], next: nil),
    state("led-fence, inside: on", .fence, LEDInputs(insideFence: true), went: [1], at: [0], next: nil),
    state("led-fence, entered: 3 quick flashes, then on", .fence,
          LEDInputs(insideFence: true, events: LEDEvents(fenceCrossed: at(0))),
          went: [0, 1, 0, 1, 0, 1, 0, 1], at: [0, 150, 250, 350, 450, 550, 650, 800], next: nil),
    state("led-fence, left: 3 quick flashes, then off", .fence,
          LEDInputs(insideFence: false, events: LEDEvents(fenceCrossed: at(0))),
          went: [0, 1, 0, 1, 0, 1, 0], at: [0, 150, 250, 350, 450, 550, 650], next: nil),
    state("led-log, idle: off", .log, LEDInputs(), went: [0], at: [0], next: nil),
    state("led-log, synced: 50 ms flash", .log, LEDInputs(events: LEDEvents(logSynced: at(0))),
          went: [1, 0], at: [0, 50], next: nil),
]

@Suite struct LEDWaveformTests {
    @Test(arguments: stateCases)
    func everyStateHasItsWaveform(_ test: LEDStateCase) {
        let waveform = steppedWaveform(line: test.line, window: test.window) { _ in test.inputs }
        #expect(waveform == Waveform(levels: test.levels, times: test.times, next: test.next))
    }

    @Test func frameGivesAllFourLinesAndTheNextEdgeOfAny() {
        let inputs = LEDInputs(receiver: .fix2D, permission: .always, insideFence: true)
        let frame = LEDTable().frame(for: inputs, at: at(1200))
        var expected = LEDLevels()
        expected[.fix] = true
        expected[.status] = true
        expected[.fence] = true
        #expect(frame == LEDFrame(levels: expected, nextEdge: at(1300)))
    }

    @Test func allSteadyHasNoNextEdge() {
        let inputs = LEDInputs(receiver: .fix3D, permission: .always, insideFence: true)
        #expect(LEDTable().frame(for: inputs, at: at(7)).nextEdge == nil)
    }

    @Test func anEdgeOnANonMillisecondBoundaryIsExact() {
        // A waypoint saved 0.4 ms into a millisecond: its edges keep that fraction.
        let start = at(0).adding(nanoseconds: 400_000)
        let inputs = LEDInputs(permission: .always, events: LEDEvents(waypointSaved: start))
        #expect(LEDTable().frame(for: inputs, at: start).nextEdge == start.adding(milliseconds: 150))
    }

    @Test func aFutureEventWaitsForItsStart() {
        let inputs = LEDInputs(permission: .always, events: LEDEvents(logSynced: at(300)))
        let frame = LEDTable().frame(for: inputs, at: at(0))
        #expect(frame.levels[.log] == false)
        #expect(frame.nextEdge == at(300))
    }
}
