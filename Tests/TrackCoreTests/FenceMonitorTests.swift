@testable import TrackCore
import Testing

// The per-fence state machine on synthetic fixes at known distances from a 100 m circle:
// initial state as a state, k of n, the hysteresis band, unknown, dwell, notify, settling.

/// A monitor over one 100 m circle at 48°N 9°E (plus `extra` circles far away).
func circleMonitor(notify: FenceNotify = [.enter, .exit, .dwell], dwellSeconds: Int? = 60, extra: Int = 0,
                   settings: FenceSettings = .band5) -> FenceMonitor {
    var fences = FenceSet()
    let centre = Coordinate(latitudeNanodegrees: 48_000_000_000, longitudeNanodegrees: 9_000_000_000)
    fences.appendCircle(Fence(id: "c", notify: notify, dwellSeconds: dwellSeconds, kind: .circle(radiusMetres: 100)),
                        centre: centre, radiusMetres: 100)
    for index in 0..<extra {
        let far = Coordinate(latitudeNanodegrees: 40_000_000_000, longitudeNanodegrees: Int64(index) * 10_000_000)
        fences.appendCircle(Fence(id: "far\(index)", kind: .circle(radiusMetres: 50)), centre: far, radiusMetres: 50)
    }
    fences.buildIndex()
    return FenceMonitor(fences: fences, settings: settings)
}

extension FenceSettings {
    /// The defaults with a 5 m hysteresis band, so the synthetic distances stay small.
    static var band5: FenceSettings {
        var settings = FenceSettings()
        settings.hysteresisMetres = 5
        return settings
    }
}

/// Drives a monitor with fixes at given distances (m) north of the circle's centre, one a second.
struct MonitorDriver {
    var monitor: FenceMonitor
    var second: Int64 = 0
    var events: [(second: Int64, fence: Int, transition: FenceTransition)] = []

    mutating func feed(_ distances: [Double], accuracyMetres: Double = 0) {
        let centre = Coordinate(latitudeNanodegrees: 48_000_000_000, longitudeNanodegrees: 9_000_000_000)
        for distance in distances {
            second += 1
            let point = Geodesic.direct(from: centre, azimuthDegrees: 0, distanceMetres: distance)
            let now = second
            monitor.update(position: point, accuracyMillimetres: Int64(accuracyMetres * 1000), timeMilliseconds: second * 1000) {
                events.append((now, $0, $1))
            }
        }
    }

    var transitions: [String] { events.map { "\($0.second):\($0.transition.name)" } }
}

@Suite struct FenceMonitorTests {
    /// The monitor is a value: a copy decides on its own fixes, and neither copy's fixes,
    /// states or restart show in the other (a shared buffer would make the second copy
    /// see the first one's votes).
    @Test func copiesAreIndependentValues() {
        var first = MonitorDriver(monitor: circleMonitor())
        first.feed([50, 50])
        var second = first
        first.feed([50, 50])
        #expect(first.transitions == ["3:initial-inside"])
        #expect(first.monitor.insideCount == 1 && first.monitor.sequence == 4)
        #expect(second.monitor.track(0).state == .unknown && second.monitor.sequence == 2)
        second.feed([500, 500, 500])
        #expect(second.transitions == ["5:initial-outside"])
        #expect(first.monitor.track(0).state == .inside)
        first.monitor.restart()
        #expect(second.monitor.track(0).state == .outside && second.monitor.sequence == 5)
        #expect(first.monitor.track(0).state == .unknown && first.monitor.insideCount == 0)
    }

    @Test func initialStateIsAStateNotAnEnter() {
        var driver = MonitorDriver(monitor: circleMonitor())
        driver.feed([50, 50, 50, 50])
        #expect(driver.transitions == ["3:initial-inside"])
        #expect(driver.monitor.track(0).state == .inside)
        #expect(driver.monitor.track(0).sinceMilliseconds == 3000)
        #expect(driver.monitor.insideCount == 1)
    }

    @Test func transitionsNeedKOfN() {
        var driver = MonitorDriver(monitor: circleMonitor())
        driver.feed([300, 300, 300])
        // Two inside fixes among outside ones: no enter; the third of five: enter.
        driver.feed([50, 300, 50, 300])
        #expect(driver.transitions == ["3:initial-outside"])
        driver.feed([50])
        #expect(driver.transitions == ["3:initial-outside", "8:enter"])
        driver.feed([300, 300, 300])
        #expect(driver.transitions == ["3:initial-outside", "8:enter", "11:exit"])
    }

    @Test(arguments: [
        // (distance from the centre, accuracy): inside state kept while the band holds it.
        (103.0, 0.0, false),  // 3 m outside: within the 5 m band
        (106.0, 0.0, true),   // 6 m outside: beyond it
        (110.0, 8.0, false),  // 10 m outside, but 8 m accuracy + 5 m band
        (114.0, 8.0, true),
    ])
    func hysteresisBandHoldsTheState(distance: Double, accuracy: Double, exits: Bool) {
        var driver = MonitorDriver(monitor: circleMonitor())
        driver.feed([50, 50, 50])
        driver.feed(Array(repeating: distance, count: 8), accuracyMetres: accuracy)
        #expect(driver.transitions.contains("6:exit") == exits, "\(driver.transitions)")
        #expect(driver.transitions.count == (exits ? 2 : 1))
    }

    @Test func enteringAlsoNeedsTheBand() {
        var driver = MonitorDriver(monitor: circleMonitor())
        driver.feed([300, 300, 300])
        driver.feed(Array(repeating: 97, count: 6))  // 3 m inside: not enough
        #expect(driver.transitions == ["3:initial-outside"])
        driver.feed(Array(repeating: 94, count: 3))
        #expect(driver.transitions == ["3:initial-outside", "12:enter"])
    }

    @Test func straddlingFixesAreUnknown() {
        var driver = MonitorDriver(monitor: circleMonitor())
        driver.feed(Array(repeating: 100, count: 7), accuracyMetres: 20)
        #expect(driver.transitions == ["5:initial-unknown"])
        #expect(driver.monitor.track(0).state == .unknown)
        driver.feed([40, 40, 40], accuracyMetres: 20)
        #expect(driver.transitions == ["5:initial-unknown", "10:initial-inside"])
    }

    @Test func dwellFiresOnceAfterTheDelay() {
        var driver = MonitorDriver(monitor: circleMonitor(dwellSeconds: 10))
        driver.feed([300, 300, 300, 50, 50, 50])
        driver.feed(Array(repeating: 50, count: 15))
        #expect(driver.transitions == ["3:initial-outside", "6:enter", "16:dwell"])
        driver.feed([300, 300, 300, 50, 50, 50])
        driver.feed(Array(repeating: 50, count: 12))
        #expect(driver.transitions == ["3:initial-outside", "6:enter", "16:dwell", "24:exit", "27:enter", "37:dwell"])
    }

    @Test func notifyChoosesWhatIsReported() {
        var driver = MonitorDriver(monitor: circleMonitor(notify: [.exit], dwellSeconds: nil))
        driver.feed([300, 300, 300, 50, 50, 50, 50, 300, 300, 300])
        #expect(driver.transitions == ["3:initial-outside", "10:exit"])
        #expect(driver.monitor.track(0).state == .outside)
    }

    @Test func farFencesSettleAndDropOut() {
        var driver = MonitorDriver(monitor: circleMonitor(extra: 50))
        #expect(driver.monitor.activeCount == 0 && driver.monitor.trackCount == 0, "51 fences, one background track")
        driver.feed([50, 50, 50, 50, 50])
        #expect(driver.monitor.activeCount == 1, "only the fence the fix is in stays active")
        #expect(driver.monitor.trackCount == 1, "the far fences share the background's track")
        #expect(driver.events.filter { $0.transition == .initial(.outside) }.count == 50)
        driver.feed([300, 300, 300, 300, 300, 300])
        #expect(driver.monitor.activeCount == 0)
        // A fence skipped for many fixes catches up: its missed fixes were outside votes.
        driver.feed(Array(repeating: 300, count: 40))
        driver.feed([50, 50, 50])
        #expect(driver.transitions.suffix(2) == ["8:exit", "54:enter"])
    }

    @Test(arguments: [(2, 3), (5, 5), (17, 32)])
    func otherWindows(k: Int, n: Int) {
        var settings = FenceSettings.band5
        settings.agreeingFixes = k
        settings.windowFixes = n
        var driver = MonitorDriver(monitor: circleMonitor(settings: settings))
        driver.feed(Array(repeating: 300, count: n))
        driver.feed(Array(repeating: 50, count: k))
        #expect(driver.transitions == ["\(k):initial-outside", "\(n + k):enter"])
    }
}
