import TrackCore

/// The tests' time origin: 1 000 s, a multiple of every default period, so repeating patterns
/// start their step 0 there.
let ledOrigin: Int64 = 1_000_000

/// A line's waveform: the level at the start and at each later edge, milliseconds after the
/// start, and the first edge at or after the window's end (nil: steady for good).
struct Waveform: Equatable, CustomStringConvertible {
    var levels: [Int]
    var times: [Int64]
    var next: Int64?

    var description: String {
        "went \(levels.map(String.init).joined(separator: ",")) at "
            + "\(times.map(String.init).joined(separator: ", ")) ms, next edge \(next.map(String.init) ?? "none")"
    }
}

/// The waveform of `line` from `ledOrigin + from` for `window` ms, stepping the frame
/// function only at the next-edge times it returns and at `wakeUps` (where the inputs change, as
/// the loop wakes for a button or a fix), with the inputs `inputs(t)` at each step.
func steppedWaveform(_ table: LEDTable = LEDTable(), line: LEDLine, from: Int64 = 0, window: Int64,
                     wakeUps: [Int64] = [], inputs: (Int64) -> LEDInputs) -> Waveform {
    var result = Waveform(levels: [], times: [], next: nil)
    var time = from
    while true {
        let frame = table.frame(for: inputs(time), at: .milliseconds(ledOrigin + time))
        let level = frame.levels[line] ? 1 : 0
        if result.levels.last != level {
            result.levels.append(level)
            result.times.append(time)
        }
        // The next edge of any line (this line may not change there), or an input change.
        let wake = wakeUps.first { $0 > time }
        guard let edge = frame.nextEdge else {
            guard let wake else { return result }
            time = wake
            continue
        }
        var edgeMilliseconds = milliseconds(edge)
        guard edgeMilliseconds > time else { return result }
        if let wake, wake < edgeMilliseconds { edgeMilliseconds = wake }
        if edgeMilliseconds >= from + window {
            result.next = nextEdge(of: line, table, after: time, inputs: inputs)
            return result
        }
        time = edgeMilliseconds
    }
}

/// The next change of `line` after `time` found by following next edges (other lines' edges
/// included), or nil.
private func nextEdge(of line: LEDLine, _ table: LEDTable, after time: Int64,
                      inputs: (Int64) -> LEDInputs) -> Int64? {
    let start = table.frame(for: inputs(time), at: .milliseconds(ledOrigin + time)).levels[line]
    var cursor = time
    for _ in 0..<100 {
        guard let edge = table.frame(for: inputs(cursor), at: .milliseconds(ledOrigin + cursor)).nextEdge
        else { return nil }
        cursor = milliseconds(edge)
        if table.frame(for: inputs(cursor), at: .milliseconds(ledOrigin + cursor)).levels[line] != start {
            return cursor
        }
    }
    return nil
}

/// The same waveform found by sampling every millisecond (no `next`).
func sampledWaveform(_ table: LEDTable = LEDTable(), line: LEDLine, from: Int64 = 0, window: Int64,
                     inputs: (Int64) -> LEDInputs) -> Waveform {
    var result = Waveform(levels: [], times: [], next: nil)
    for time in from..<(from + window) {
        let level = table.frame(for: inputs(time), at: .milliseconds(ledOrigin + time)).levels[line] ? 1 : 0
        if result.levels.last != level {
            result.levels.append(level)
            result.times.append(time)
        }
    }
    return result
}

/// `ledOrigin + milliseconds` as a time, for event start times.
func at(_ milliseconds: Int64) -> MonotonicTime { .milliseconds(ledOrigin + milliseconds) }

/// Milliseconds from `ledOrigin` to `time`, rounded up: an edge inside a millisecond shows at the
/// next whole one, where sampling every millisecond first sees it.
private func milliseconds(_ time: MonotonicTime) -> Int64 {
    (time.nanoseconds + 999_999) / 1_000_000 - ledOrigin
}
