#if !TRACKD_LIBGPIOD2
import CLinux
import TrackCore

/// The GPIO backend over libgpiod v1 (1.6, Debian 12 and Raspberry Pi OS bookworm): the only
/// file that calls the v1 API, as Libgpiod2.swift is for v2 (Debian 13). Package.swift
/// compiles one of the two, after the libgpiod that pkg-config finds.
///
/// Holds the chips and lines it opened in small tables (filled at start-up); `releaseAll`
/// releases the lines and closes the chips. Requests use the consumer name `trackd`, which
/// `gpioinfo` shows next to the line.
public struct LibgpiodBackend: GPIOBackend {
    // libgpiod keeps the consumer pointer for the request's lifetime: a static string lives
    // as long as the program.
    private static let consumer: StaticString = "trackd"

    private var chips: [OpaquePointer] = []
    private var chipNames: [String] = []
    private var lines: [OpaquePointer] = []
    private var lineNames: [String] = []
    private var lineChips: [Int] = []
    private var lineUses: [LineUse] = []

    private enum LineUse { case none, output, input(FileDescriptor) }

    /// A backend with nothing open.
    public init() {}

    /// libgpiod's version, e.g. `1.6.3`.
    public static var libraryVersion: String { String(cString: gpiod_version_string()) }

    public mutating func openChip(_ selector: GPIOChipSelector) throws(GPIOError) -> GPIOChip {
        let opened: OpaquePointer? = switch selector {
        case .label(let label): label.withCString { gpiod_chip_open_by_label($0) }
        case .path(let path): path.withCString { gpiod_chip_open($0) }
        }
        guard let opened else {
            throw GPIOError.from(.current, operation: "open", line: nil, chip: selector.text)
        }
        chips.append(opened)
        chipNames.append(selector.text)
        return GPIOChip(index: chips.count - 1)
    }

    public mutating func findLine(named name: String, on chip: GPIOChip) throws(GPIOError) -> GPIOLine {
        let pointer = try chipPointer(chip)
        clinux_set_errno(0)
        guard let found = name.withCString({ gpiod_chip_find_line(pointer, $0) }) else {
            let error = Errno.current
            if error.rawValue == ENOENT || error.rawValue == 0 {
                throw .lineNotFound(line: name, chip: chipName(chip))
            }
            throw GPIOError.from(error, operation: "find line", line: name, chip: chipName(chip))
        }
        return add(found, name: name, chip: chip)
    }

    public mutating func line(offset: Int, on chip: GPIOChip) throws(GPIOError) -> GPIOLine {
        let name = String(joining: "offset ", String(offset))
        guard offset >= 0, offset <= Int(UInt32.max) else { throw .lineNotFound(line: name, chip: chipName(chip)) }
        let pointer = try chipPointer(chip)
        guard let found = gpiod_chip_get_line(pointer, UInt32(offset)) else {
            let error = Errno.current
            if error.rawValue == EINVAL { throw .lineNotFound(line: name, chip: chipName(chip)) }
            throw GPIOError.from(error, operation: "get line", line: name, chip: chipName(chip))
        }
        return add(found, name: name, chip: chip)
    }

    public mutating func requestOutput(_ line: GPIOLine, initial: GPIOLevel) throws(GPIOError) {
        let pointer = try linePointer(line)
        let result = Self.consumer.withUTF8Buffer { consumer in
            consumer.withMemoryRebound(to: CChar.self) {
                gpiod_line_request_output(pointer, $0.baseAddress, initial.isHigh ? 1 : 0)
            }
        }
        guard result == 0 else { throw failure("request output", line) }
        lineUses[line.index] = .output
    }

    public mutating func set(_ line: GPIOLine, to level: GPIOLevel) throws(GPIOError) {
        let pointer = try linePointer(line)
        guard case .output = lineUses[line.index] else { throw notRequested(line) }
        guard gpiod_line_set_value(pointer, level.isHigh ? 1 : 0) == 0 else { throw failure("set value", line) }
    }

    public mutating func requestInput(_ line: GPIOLine) throws(GPIOError) -> GPIOInputRequest {
        let pointer = try linePointer(line)
        var pullUpApplied = true
        var result = request(pointer, flags: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP))
        // Kernels before 5.5 know no bias flags and refuse the request with EINVAL; the button
        // then needs an external pull-up, which wiring.md shows.
        if result != 0, clinux_errno() == EINVAL || clinux_errno() == EOPNOTSUPP {
            pullUpApplied = false
            result = request(pointer, flags: 0)
        }
        guard result == 0 else { throw failure("request both-edge events", line) }
        let fd = gpiod_line_event_get_fd(pointer)
        guard fd >= 0, clinux_set_nonblocking(fd, 1) == 0 else {
            let error = failure("get event descriptor", line)
            gpiod_line_release(pointer)
            throw error
        }
        let descriptor = FileDescriptor(rawValue: fd)
        lineUses[line.index] = .input(descriptor)
        return GPIOInputRequest(eventDescriptor: descriptor, pullUpApplied: pullUpApplied)
    }

    public mutating func readEvent(_ line: GPIOLine) throws(GPIOError) -> GPIOEdgeEvent? {
        _ = try linePointer(line)
        guard case .input(let descriptor) = lineUses[line.index] else { throw notRequested(line) }
        var event = gpiod_line_event()
        while gpiod_line_event_read_fd(descriptor.rawValue, &event) != 0 {
            let error = Errno.current
            if error == .wouldBlock { return nil }
            if error == .interrupted { continue }
            throw GPIOError.from(error, operation: "read event", line: lineNames[line.index],
                                 chip: chipNames[lineChips[line.index]])
        }
        let edge: GPIOEdge = Int(event.event_type) == GPIOD_LINE_EVENT_RISING_EDGE ? .rising : .falling
        let nanoseconds = Int64(event.ts.tv_sec) * 1_000_000_000 + Int64(event.ts.tv_nsec)
        return GPIOEdgeEvent(edge: edge, timestampNanoseconds: nanoseconds)
    }

    public mutating func level(of line: GPIOLine) throws(GPIOError) -> GPIOLevel {
        let pointer = try linePointer(line)
        let value = gpiod_line_get_value(pointer)
        guard value >= 0 else { throw failure("get value", line) }
        return GPIOLevel(value != 0)
    }

    public mutating func releaseAll() {
        // gpiod_line_release closes an input's event descriptor too.
        for index in lines.indices {
            if case .none = lineUses[index] { continue }
            gpiod_line_release(lines[index])
        }
        for chip in chips { gpiod_chip_close(chip) }
        chips = []
        chipNames = []
        lines = []
        lineNames = []
        lineChips = []
        lineUses = []
    }

    // MARK: Tables

    private func request(_ line: OpaquePointer, flags: Int32) -> Int32 {
        Self.consumer.withUTF8Buffer { consumer in
            consumer.withMemoryRebound(to: CChar.self) {
                gpiod_line_request_both_edges_events_flags(line, $0.baseAddress, flags)
            }
        }
    }

    private mutating func add(_ line: OpaquePointer, name: String, chip: GPIOChip) -> GPIOLine {
        lines.append(line)
        lineNames.append(name)
        lineChips.append(chip.index)
        lineUses.append(.none)
        return GPIOLine(index: lines.count - 1)
    }

    private func chipPointer(_ chip: GPIOChip) throws(GPIOError) -> OpaquePointer {
        guard chips.indices.contains(chip.index) else { throw .noSuchChip(chip: String(joining: "#", String(chip.index))) }
        return chips[chip.index]
    }

    private func chipName(_ chip: GPIOChip) -> String {
        chipNames.indices.contains(chip.index) ? chipNames[chip.index] : String(joining: "#", String(chip.index))
    }

    private func linePointer(_ line: GPIOLine) throws(GPIOError) -> OpaquePointer {
        guard lines.indices.contains(line.index) else {
            throw .notRequested(line: String(joining: "#", String(line.index)), chip: "?")
        }
        return lines[line.index]
    }

    private func failure(_ operation: String, _ line: GPIOLine) -> GPIOError {
        GPIOError.from(.current, operation: operation, line: lineNames[line.index],
                       chip: chipNames[lineChips[line.index]])
    }

    private func notRequested(_ line: GPIOLine) -> GPIOError {
        .notRequested(line: lineNames[line.index], chip: chipNames[lineChips[line.index]])
    }
}
#endif
