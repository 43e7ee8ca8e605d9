import Testing
import TrackCore

/// The button's debounce, short and long presses, and settings changed while it is held.
@Suite("Button and input debounce")
struct ButtonTests {
    /// Feeds raw edges (ms, pressed) to a 30 ms / 3 s button, polling at every edge and at
    /// every deadline up to `until` ms; returns the presses with their times in ms.
    static func run(_ edges: [(Int64, Bool)], until: Int64, button start: Button = Button(),
                    reconfigureAt: Int64? = nil) -> [String] {
        var button = start
        var events: [String] = []
        var pending = edges
        var now: Int64 = 0
        while now <= until {
            if let at = reconfigureAt, now >= at {
                // A reload: same timings, the press in progress must survive.
                button.configure(debounceMilliseconds: 30, longPressMilliseconds: 3_000)
            }
            while let edge = pending.first, edge.0 <= now {
                button.edge(pressed: edge.1, at: .milliseconds(edge.0))
                pending.removeFirst()
            }
            while let event = button.poll(now: .milliseconds(now)) {
                switch event {
                case .shortPress(let at): events.append("short@\(at.nanoseconds / 1_000_000)")
                case .longPress(let at): events.append("long@\(at.nanoseconds / 1_000_000)")
                }
            }
            var next = pending.first?.0 ?? Int64.max
            if let deadline = button.nextDeadline { next = min(next, deadline.nanoseconds / 1_000_000) }
            if let at = reconfigureAt, at > now { next = min(next, at) }
            guard next != Int64.max else { break }
            now = max(next, now + 1)
        }
        return events
    }

    @Test("presses and bounces", arguments: [
        // A clean short press: reported when the release has held 30 ms.
        ([(0, true), (200, false)], ["short@200"]),
        // Bounce on press and on release (chatter every 2–3 ms): still one short press, timed
        // from the last bounce of each.
        ([(0, true), (2, false), (5, true), (200, false), (203, true), (206, false)], ["short@206"]),
        // A glitch shorter than the debounce is no press at all.
        ([(0, true), (10, false)], []),
        // Held 3 s: a long press at the 3 s mark while still held; the release adds nothing.
        ([(0, true), (4_000, false)], ["long@3000"]),
        // Held just under 3 s: short.
        ([(0, true), (2_900, false)], ["short@2900"]),
        // Two presses.
        ([(0, true), (100, false), (500, true), (600, false)], ["short@100", "short@600"]),
        // Bounce in the middle of a long hold (a loose contact) restarts the hold only if it
        // lasts the debounce time: 5 ms does not.
        ([(0, true), (1_000, false), (1_005, true), (3_500, false)], ["long@3000"]),
        // A real release in the middle (40 ms) splits it into two short presses.
        ([(0, true), (1_000, false), (1_040, true), (2_000, false)], ["short@1000", "short@2000"]),
    ] as [([(Int64, Bool)], [String])])
    func presses(edges: [(Int64, Bool)], expected: [String]) {
        #expect(Self.run(edges, until: 10_000) == expected)
    }

    @Test("a long press survives a reload while the button is held")
    func heldThroughReload() {
        #expect(Self.run([(0, true), (5_000, false)], until: 10_000, reconfigureAt: 1_500) == ["long@3000"])
        #expect(Self.run([(0, true), (500, false)], until: 10_000, reconfigureAt: 200) == ["short@500"])
    }

    @Test("a reload that shortens the long press applies to the press in progress")
    func reloadShorterLongPress() {
        var button = Button()
        button.edge(pressed: true, at: .milliseconds(0))
        #expect(button.poll(now: .milliseconds(30)) == nil)
        #expect(button.isPressed)
        button.configure(debounceMilliseconds: 30, longPressMilliseconds: 1_000)
        #expect(button.nextDeadline == .milliseconds(1_000))
        #expect(button.poll(now: .milliseconds(1_000)) == .longPress(at: .milliseconds(1_000)))
        #expect(button.poll(now: .milliseconds(5_000)) == nil)
    }

    @Test("the in-use input: debounced level with its deadline")
    func inUseDebounce() {
        var input = InputDebouncer(debounceMilliseconds: 30)
        #expect(input.deadline == nil)
        input.edge(active: true, at: .milliseconds(100))
        #expect(input.deadline == .milliseconds(130))
        #expect(input.settle(now: .milliseconds(129)) == nil)
        input.edge(active: false, at: .milliseconds(110))
        #expect(input.deadline == nil)
        input.edge(active: true, at: .milliseconds(120))
        let change = input.settle(now: .milliseconds(150))
        #expect(change?.isActive == true)
        #expect(change?.since == .milliseconds(120))
        #expect(input.isActive)
        let started = InputDebouncer(debounceMilliseconds: 30, initial: true)
        #expect(started.isActive)
    }
}
