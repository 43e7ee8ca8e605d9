extension LEDTable {
    /// What the four LEDs show at `now` for `inputs`, and the next instant a line changes.
    ///
    /// A pure function: the same inputs and `now` always give the same frame, so the loop calls
    /// it on every wake-up and sleeps until `nextEdge`. Repeating patterns are in phase with the
    /// clock; one-shots play from their event's time; on each line the highest priority wins
    /// (a tie goes to the later start). Example, the defaults: a 2D fix at 1 200 ms → led-fix
    /// lit (the second flash of `on 100 off 100 on 100 off 700`), next edge at 1 300 ms.
    /// Only the lines lit in `lines` are worked out (the others stay dark and name no edge), so
    /// a board with fewer LEDs wakes the loop for its own edges only. Allocates nothing.
    public func frame(for inputs: LEDInputs, at now: MonotonicTime, lines: LEDLevels = LEDLevels(bits: 0x0F)) -> LEDFrame {
        var levels = LEDLevels()
        var next: Int64?
        for line in LEDLine.allCases where lines[line] {
            let layers = self.layers(of: line, for: inputs)
            let (isOn, edge) = layers.levelAndNextEdge(at: now.nanoseconds)
            levels[line] = isOn
            if let edge, next.map({ edge < $0 }) ?? true { next = edge }
        }
        return LEDFrame(levels: levels, nextEdge: next.map { MonotonicTime(nanoseconds: $0) })
    }

    /// The patterns that may show on `line`: the state's pattern first, then overlays.
    func layers(of line: LEDLine, for inputs: LEDInputs) -> LEDLayers {
        switch line {
        case .fix:
            let name: LEDPatternName
            switch inputs.receiver {
            case .silent: name = .fixSilent
            case .noFix: name = .fixNoFix
            case .fix2D: name = .fix2D
            case .fix3D: name = .fix3D
            case .portError: name = .fixPortError
            case .asleep: name = .fixAsleep
            }
            return LEDLayers(base: self[name])
        case .status:
            let name: LEDPatternName
            switch inputs.permission {
            case .notDetermined: name = .statusNotDetermined
            case .restricted: name = .statusRestricted
            case .denied: name = .statusDenied
            case .whenInUse(let inUse): name = inUse ? .statusInUse : .statusIdle
            case .always: name = .statusAlways
            }
            var layers = LEDLayers(base: self[name])
            if inputs.storageError { layers.add(self[.storageError], start: nil) }
            layers.add(self[.waypointSaved], start: inputs.events.waypointSaved)
            layers.add(self[.privacyToggled], start: inputs.events.privacyToggled)
            return layers
        case .fence:
            var layers = LEDLayers(base: self[inputs.insideFence ? .fenceInside : .fenceOutside])
            layers.add(self[.fenceCrossed], start: inputs.events.fenceCrossed)
            return layers
        case .log:
            var layers = LEDLayers(base: self[.logIdle])
            layers.add(self[.logSynced], start: inputs.events.logSynced)
            return layers
        }
    }
}

/// Up to four patterns competing for one line, each with its start (nanoseconds; repeating
/// patterns start at the clock's origin). Fixed size.
struct LEDLayers {
    private var patterns: InlineArray<4, LEDPattern>
    private var starts: InlineArray<4, Int64>
    private var count = 1

    /// The layers with only the line's state pattern.
    init(base: LEDPattern) {
        patterns = InlineArray(repeating: base)
        starts = InlineArray(repeating: 0)
    }

    /// Adds `pattern`, a one-shot from `start` or (start nil) a repeating overlay. A one-shot
    /// that never happened (start nil) is not added.
    mutating func add(_ pattern: LEDPattern, start: MonotonicTime?) {
        if pattern.mode == .once && start == nil { return }
        precondition(count < 4, "more than four LED layers on one line")
        patterns[count] = pattern
        starts[count] = pattern.mode == .once ? (start?.nanoseconds ?? 0) : 0
        count += 1
    }

    /// Whether layer `index` plays at `time`: repeating always, a one-shot within its period.
    private func isActive(_ index: Int, at time: Int64) -> Bool {
        let pattern = patterns[index]
        if pattern.mode == .repeating { return true }
        return time >= starts[index] && time - starts[index] < pattern.periodNanoseconds
    }

    /// The layer that shows at `time`: highest priority, then latest start.
    private func winner(at time: Int64) -> Int {
        var best = 0
        for index in 1..<count where isActive(index, at: time) {
            let candidate = patterns[index], current = patterns[best]
            if candidate.priority > current.priority
                || (candidate.priority == current.priority && starts[index] >= starts[best]) {
                best = index
            }
        }
        return best
    }

    /// Level of the line at `time`, and the nanoseconds until the showing step ends.
    private func position(at time: Int64) -> (winner: Int, isOn: Bool, remaining: Int64) {
        let index = winner(at: time)
        let pattern = patterns[index]
        let period = pattern.periodNanoseconds
        var elapsed = (time - starts[index]) % period
        if elapsed < 0 { elapsed += period }
        let (isOn, remaining) = pattern.position(elapsedNanoseconds: elapsed)
        return (index, isOn, remaining)
    }

    /// The first instant after `time` at which the showing pattern may change: its step ends,
    /// or a one-shot starts or ends. Nil when the line is steady for good.
    private func nextBoundary(after time: Int64, winner: Int, remaining: Int64) -> Int64? {
        var next: Int64? = patterns[winner].isSteady ? nil : time + remaining
        for index in 1..<count where patterns[index].mode == .once {
            let start = starts[index], end = start + patterns[index].periodNanoseconds
            let boundary = time < start ? start : (time < end ? end : nil)
            if let boundary, next.map({ boundary < $0 }) ?? true { next = boundary }
        }
        return next
    }

    /// The level at `time`, and the first later instant the level differs (nil: never).
    ///
    /// Walks step boundaries until the level changes. A change comes within the steps of the
    /// layers (at most 4 × 8 boundaries and one period wrap each); the walk stops after 64
    /// and returns that boundary, an early wake-up that is harmless.
    func levelAndNextEdge(at time: Int64) -> (isOn: Bool, nextEdge: Int64?) {
        let now = position(at: time)
        var cursor = time, current = now
        for _ in 0..<64 {
            guard let boundary = nextBoundary(after: cursor, winner: current.winner,
                                              remaining: current.remaining) else {
                return (now.isOn, nil)
            }
            cursor = boundary
            current = position(at: cursor)
            if current.isOn != now.isOn { return (now.isOn, cursor) }
        }
        return (now.isOn, cursor)
    }
}
