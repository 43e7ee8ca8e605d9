import CLinux
import TrackCore

/// A GPIO backend for tests: chips and lines from a description, a waveform recorded per
/// output line at the time the test sets, and edges the test injects on input lines.
///
/// Example: set `now = .milliseconds(100)`, `set(led, to: .low)`, then `waveform(of: led)` ends
/// with `(100 ms, low)`. An input's event descriptor is a real pipe that turns readable when an
/// edge is injected, so a test can run the daemon's poll over it.
public struct FakeGPIOBackend: GPIOBackend {
    /// A fake chip: its label, its path and its line names (offset = index).
    public struct Chip: Equatable, Sendable {
        /// The chip's label, e.g. `pinctrl-bcm2835`.
        public var label: String
        /// The device path, e.g. `/dev/gpiochip0`.
        public var path: String
        /// Line names by offset, e.g. `["GPIO0", "GPIO1", …]`; an empty name is an unnamed line.
        public var lineNames: [String]
        /// Offsets another program holds: requesting them fails with `.lineBusy`.
        public var busyOffsets: [Int]

        /// A chip with these lines, none busy.
        public init(label: String, path: String, lineNames: [String], busyOffsets: [Int] = []) {
            self.label = label
            self.path = path
            self.lineNames = lineNames
            self.busyOffsets = busyOffsets
        }
    }

    /// One recorded change of an output line.
    public struct Transition: Equatable, Sendable {
        /// When, on the test's clock (`now` at the call).
        public var time: MonotonicTime
        /// The level from then on.
        public var level: GPIOLevel

        /// A change to `level` at `time`.
        public init(time: MonotonicTime, level: GPIOLevel) {
            self.time = time
            self.level = level
        }
    }

    private struct Line {
        var chip: Int
        var offset: Int
        var name: String
        var use = Use.none
        var waveform: [Transition] = []
        var writes = 0
        var pending: [GPIOEdgeEvent] = []
        var pipe: (read: Int32, write: Int32)?
        /// An input's level: high until an edge says otherwise (the pull-up holds it there).
        var inputLevel = GPIOLevel.high
        enum Use: Equatable { case none, output, input }
    }

    /// The chips this fake has.
    public var chips: [Chip]
    /// The time recorded with each `set`; tests move it.
    public var now = MonotonicTime(nanoseconds: 0)
    /// When set, requests fail with `.permissionDenied` (trackd's user not in the gpio group).
    public var deniesRequests = false
    /// Whether input requests report the pull-up applied (false: a kernel before 5.5).
    public var supportsBias = true
    /// False: only each output's current level is kept, not its history, so a long-running
    /// simulated board (the demo) does not grow; `waveform(of:)` then has one entry.
    public var keepsWaveform = true

    private var opened: [Int] = []
    private var lines: [Line] = []

    /// A fake with these chips, e.g. one `Chip(label: "pinctrl-bcm2835", …)`.
    public init(chips: [Chip]) { self.chips = chips }

    public mutating func openChip(_ selector: GPIOChipSelector) throws(GPIOError) -> GPIOChip {
        let found = chips.firstIndex { chip in
            switch selector {
            case .label(let label): return chip.label.bytesEqual(label)
            case .path(let path): return chip.path.bytesEqual(path)
            }
        }
        guard let found else { throw .noSuchChip(chip: selector.text) }
        opened.append(found)
        return GPIOChip(index: opened.count - 1)
    }

    public mutating func findLine(named name: String, on chip: GPIOChip) throws(GPIOError) -> GPIOLine {
        let description = try self.chip(chip)
        guard !name.isEmpty, let offset = description.lineNames.firstIndex(where: { $0.bytesEqual(name) }) else {
            throw .lineNotFound(line: name, chip: description.label)
        }
        lines.append(Line(chip: opened[chip.index], offset: offset, name: name))
        return GPIOLine(index: lines.count - 1)
    }

    public mutating func line(offset: Int, on chip: GPIOChip) throws(GPIOError) -> GPIOLine {
        let description = try self.chip(chip)
        let name = "offset \(offset)"
        guard description.lineNames.indices.contains(offset) else {
            throw .lineNotFound(line: name, chip: description.label)
        }
        lines.append(Line(chip: opened[chip.index], offset: offset, name: name))
        return GPIOLine(index: lines.count - 1)
    }

    public mutating func requestOutput(_ line: GPIOLine, initial: GPIOLevel) throws(GPIOError) {
        try claim(line)
        lines[line.index].use = .output
        lines[line.index].waveform = [Transition(time: now, level: initial)]
    }

    public mutating func set(_ line: GPIOLine, to level: GPIOLevel) throws(GPIOError) {
        try check(line, is: .output)
        lines[line.index].writes += 1
        if lines[line.index].waveform.last?.level != level {
            if keepsWaveform || lines[line.index].waveform.isEmpty {
                lines[line.index].waveform.append(Transition(time: now, level: level))
            } else {
                lines[line.index].waveform[0] = Transition(time: now, level: level)
            }
        }
    }

    public mutating func requestInput(_ line: GPIOLine) throws(GPIOError) -> GPIOInputRequest {
        try claim(line)
        var ends: (Int32, Int32) = (-1, -1)
        let result = withUnsafeMutableBytes(of: &ends) { raw in
            CLinux.pipe(raw.baseAddress?.assumingMemoryBound(to: Int32.self))
        }
        guard result == 0 else {
            throw .system(operation: "pipe", line: lines[line.index].name, chip: chipLabel(line), errno: .current)
        }
        _ = clinux_set_nonblocking(ends.0, 1)
        lines[line.index].use = .input
        lines[line.index].pipe = (ends.0, ends.1)
        return GPIOInputRequest(eventDescriptor: FileDescriptor(rawValue: ends.0), pullUpApplied: supportsBias)
    }

    public mutating func readEvent(_ line: GPIOLine) throws(GPIOError) -> GPIOEdgeEvent? {
        try check(line, is: .input)
        guard !lines[line.index].pending.isEmpty else { return nil }
        if let pipe = lines[line.index].pipe {
            var byte: UInt8 = 0
            _ = CLinux.read(pipe.read, &byte, 1)
        }
        return lines[line.index].pending.removeFirst()
    }

    public mutating func level(of line: GPIOLine) throws(GPIOError) -> GPIOLevel {
        try check(line, is: .input)
        return lines[line.index].inputLevel
    }

    public mutating func simulate(_ edge: GPIOEdge, on line: GPIOLine, at time: MonotonicTime) -> Bool {
        guard lines.indices.contains(line.index), lines[line.index].use == .input else { return false }
        inject(edge, on: line, at: time)
        return true
    }

    public mutating func releaseAll() {
        for line in lines {
            if let pipe = line.pipe {
                _ = CLinux.close(pipe.read)
                _ = CLinux.close(pipe.write)
            }
        }
        lines = []
        opened = []
    }

    // MARK: What tests look at and do

    /// The recorded waveform of an output line: its initial level at the request, then each change.
    public func waveform(of line: GPIOLine) -> [Transition] { lines[line.index].waveform }

    /// The current level of an output line, nil for a line not requested as one.
    public func outputLevel(of line: GPIOLine) -> GPIOLevel? {
        lines.indices.contains(line.index) && lines[line.index].use == .output ? lines[line.index].waveform.last?.level : nil
    }

    /// How many times `set` was called on `line`, changes or not (the engine should not write
    /// levels that did not change).
    public func writes(to line: GPIOLine) -> Int { lines[line.index].writes }

    /// Queues an edge on an input line at `time` and makes its event descriptor readable.
    public mutating func inject(_ edge: GPIOEdge, on line: GPIOLine, at time: MonotonicTime) {
        lines[line.index].pending.append(GPIOEdgeEvent(edge: edge, timestampNanoseconds: time.nanoseconds))
        lines[line.index].inputLevel = edge == .rising ? .high : .low
        if let pipe = lines[line.index].pipe {
            var byte: UInt8 = 1
            _ = CLinux.write(pipe.write, &byte, 1)
        }
    }

    /// The output or input lines currently requested, by chip label and offset.
    public var requestedLines: [(chip: String, offset: Int)] {
        lines.filter { $0.use != .none }.map { (chips[$0.chip].label, $0.offset) }
    }

    // MARK: Checks

    private func chip(_ chip: GPIOChip) throws(GPIOError) -> Chip {
        guard opened.indices.contains(chip.index) else { throw .noSuchChip(chip: "#\(chip.index)") }
        return chips[opened[chip.index]]
    }

    private func chipLabel(_ line: GPIOLine) -> String { chips[lines[line.index].chip].label }

    private func claim(_ line: GPIOLine) throws(GPIOError) {
        guard lines.indices.contains(line.index) else { throw .notRequested(line: "#\(line.index)", chip: "?") }
        let entry = lines[line.index]
        if deniesRequests { throw .permissionDenied(line: entry.name, chip: chipLabel(line)) }
        let taken = lines.contains { $0.use != .none && $0.chip == entry.chip && $0.offset == entry.offset }
        if taken || chips[entry.chip].busyOffsets.contains(entry.offset) {
            throw .lineBusy(line: entry.name, chip: chipLabel(line))
        }
    }

    private func check(_ line: GPIOLine, is use: Line.Use) throws(GPIOError) {
        guard lines.indices.contains(line.index) else { throw .notRequested(line: "#\(line.index)", chip: "?") }
        guard lines[line.index].use == use else {
            throw .notRequested(line: lines[line.index].name, chip: chipLabel(line))
        }
    }
}
