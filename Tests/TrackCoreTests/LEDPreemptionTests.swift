import Testing
import TrackCore

/// A scenario whose inputs change over time, for pre-emption and next-edge checks.
struct LEDScenario: Sendable, CustomTestStringConvertible {
    var name: String
    var line: LEDLine
    var window: Int64
    var wakeUps: [Int64] = []
    var inputs: @Sendable (Int64) -> LEDInputs
    var testDescription: String { name }
}

private let scenarios: [LEDScenario] = [
    LEDScenario(name: "2D fix", line: .fix, window: 3000) { _ in LEDInputs(receiver: .fix2D) },
    LEDScenario(name: "receiver comes and goes", line: .fix, window: 6000,
                wakeUps: [1500, 3333, 4100]) { time in
        LEDInputs(receiver: time < 1500 ? .noFix : time < 3333 ? .fix2D : time < 4100 ? .portError : .fix3D)
    },
    LEDScenario(name: "not-determined, waypoint mid-period", line: .status, window: 6000) { _ in
        LEDInputs(permission: .notDetermined, events: LEDEvents(waypointSaved: at(500)))
    },
    LEDScenario(name: "storage error over waypoint over privacy", line: .status, window: 6000,
                wakeUps: [300, 700]) { time in
        LEDInputs(permission: .whenInUse(inUse: false), storageError: time >= 300 && time < 700,
                  events: LEDEvents(waypointSaved: at(400), privacyToggled: at(123)))
    },
    LEDScenario(name: "future and odd-nanosecond events", line: .status, window: 12_000) { _ in
        LEDInputs(permission: .denied,
                  events: LEDEvents(waypointSaved: at(7_777).adding(nanoseconds: 250_000),
                                    privacyToggled: at(4_990)))
    },
    LEDScenario(name: "fence entered then left", line: .fence, window: 4000,
                wakeUps: [1000, 2400]) { time in
        LEDInputs(insideFence: time >= 1000 && time < 2400,
                  events: LEDEvents(fenceCrossed: time >= 2400 ? at(2400) : time >= 1000 ? at(1000) : nil))
    },
    LEDScenario(name: "log synced every 5 s", line: .log, window: 12_000,
                wakeUps: [5000, 10_000]) { time in
        LEDInputs(events: LEDEvents(logSynced: at(time / 5000 * 5000 + 17)))
    },
]

@Suite struct LEDPreemptionTests {
    @Test func storageErrorPreemptsWaypointWhichResumesWhereItWouldBe() {
        // Storage error from 0 to 300 ms hides a waypoint saved at 0; when it clears, the
        // waypoint is 300 ms into its flashes and finishes them, then `always` is solid again.
        let waveform = steppedWaveform(line: .status, window: 2000) { time in
            LEDInputs(permission: .always, storageError: time < 300,
                      events: LEDEvents(waypointSaved: at(0)))
        }
        #expect(waveform == Waveform(levels: [1, 0, 1, 0, 1, 0, 1, 0, 1],
                                     times: [0, 100, 200, 300, 350, 450, 550, 650, 800], next: nil))
    }

    @Test func storageErrorHidesEverythingElse() {
        let waveform = steppedWaveform(line: .status, window: 400) { _ in
            LEDInputs(permission: .always, storageError: true,
                      events: LEDEvents(waypointSaved: at(0), privacyToggled: at(0)))
        }
        #expect(waveform == Waveform(levels: [1, 0, 1, 0], times: [0, 100, 200, 300], next: 400))
    }

    @Test func waypointPreemptsPrivacyFlashWhichThenFinishes() {
        let waveform = steppedWaveform(line: .status, window: 2000) { _ in
            LEDInputs(permission: .always, events: LEDEvents(waypointSaved: at(400), privacyToggled: at(0)))
        }
        #expect(waveform == Waveform(
            levels: [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1],
            times: [0, 250, 400, 550, 650, 750, 850, 950, 1050, 1200, 1250, 1500], next: nil))
    }

    @Test func oneShotThenTheNormalPatternResumesInPhase() {
        // Not-determined blips at 0, 200 (of every 2 s); the waypoint plays from 500 to 1300,
        // and the blips resume at 2000, not 1300.
        let waveform = steppedWaveform(line: .status, window: 2000) { _ in
            LEDInputs(permission: .notDetermined, events: LEDEvents(waypointSaved: at(500)))
        }
        #expect(waveform == Waveform(levels: [1, 0, 1, 0, 1, 0, 1, 0, 1, 0],
                                     times: [0, 50, 200, 250, 650, 750, 850, 950, 1050, 1150], next: 2000))
    }

    @Test func aSecondWaypointRestartsTheFlashes() {
        let waveform = steppedWaveform(line: .status, window: 2000, wakeUps: [300]) { time in
            LEDInputs(permission: .always, events: LEDEvents(waypointSaved: time < 300 ? at(0) : at(300)))
        }
        #expect(waveform == Waveform(levels: [0, 1, 0, 1, 0, 1, 0, 1, 0, 1],
                                     times: [0, 150, 250, 450, 550, 650, 750, 850, 950, 1100], next: nil))
    }

    @Test(arguments: scenarios)
    func steppingAtNextEdgesMatchesSamplingEveryMillisecond(_ scenario: LEDScenario) {
        // The walk also wakes where the inputs change, as the loop does for its other events.
        let sampled = sampledWaveform(line: scenario.line, window: scenario.window, inputs: scenario.inputs)
        var stepped = steppedWaveform(line: scenario.line, window: scenario.window, wakeUps: scenario.wakeUps,
                                      inputs: scenario.inputs)
        stepped.next = nil
        #expect(stepped == sampled)
        #expect(sampled.levels.count > 1)
    }
}
