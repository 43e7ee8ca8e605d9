#if TRACKD_LIBGPIOD2
import CLinux
import TrackCore

/// The GPIO backend over libgpiod 2 (2.1 and 2.2, the `libgpiod3` package of Debian 13 and
/// Raspberry Pi OS trixie): the only file that calls the v2 API, as Libgpiod1.swift is for v1.
/// Package.swift compiles one of the two, after the libgpiod that pkg-config finds.
///
/// v2 has no "open by label" and no line objects: a chip is found by reading the label of each
/// `/dev/gpiochip*`, a line is an offset on its chip, and each line trackd uses is its own
/// request (an LED's, the button's), made from line settings. Example: `chip = pinctrl-rp1`,
/// `led-fix = GPIO17` on a Pi 5 opens the chip labelled `pinctrl-rp1` (`/dev/gpiochip0` since
/// kernel 6.6.45, `/dev/gpiochip4` before), finds offset 17 by the name `GPIO17` and requests
/// it as an output driven low. Requests use the consumer name `trackd` (`gpioinfo` shows it).
///
/// Everything is allocated at start-up: the button's edge event buffer too, so `readEvent`,
/// like `set`, is one system call on the request's descriptor and allocates nothing.
public struct LibgpiodBackend: GPIOBackend {
    private static let consumer: StaticString = "trackd"

    private struct Line {
        var chip: Int
        var offset: UInt32
        var name: String
        /// The line's request once made (nil before, and for a line only found).
        var request: OpaquePointer?
        /// An input's edge event buffer (room for one event); nil for an output.
        var events: OpaquePointer?
    }

    private var chips: [OpaquePointer] = []
    private var chipNames: [String] = []
    private var lines: [Line] = []

    /// A backend with nothing open.
    public init() {}

    /// libgpiod's version, e.g. `2.2.1`.
    public static var libraryVersion: String { String(cString: gpiod_api_version()) }

    public mutating func openChip(_ selector: GPIOChipSelector) throws(GPIOError) -> GPIOChip {
        let opened: OpaquePointer
        switch selector {
        case .path(let path):
            guard let chip = path.withCString({ gpiod_chip_open($0) }) else {
                throw GPIOError.from(.current, operation: "open", line: nil, chip: path)
            }
            opened = chip
        case .label(let label):
            opened = try Self.openChip(labelled: label)
        }
        chips.append(opened)
        chipNames.append(selector.text)
        return GPIOChip(index: chips.count - 1)
    }

    public mutating func findLine(named name: String, on chip: GPIOChip) throws(GPIOError) -> GPIOLine {
        let pointer = try chipPointer(chip)
        clinux_set_errno(0)
        let offset = name.withCString { gpiod_chip_get_line_offset_from_name(pointer, $0) }
        guard offset >= 0 else {
            let error = Errno.current
            if error.rawValue == ENOENT || error.rawValue == 0 {
                throw .lineNotFound(line: name, chip: chipNames[chip.index])
            }
            throw GPIOError.from(error, operation: "find line", line: name, chip: chipNames[chip.index])
        }
        return add(UInt32(offset), name: name, chip: chip)
    }

    public mutating func line(offset: Int, on chip: GPIOChip) throws(GPIOError) -> GPIOLine {
        let name = String(joining: "offset ", String(offset))
        let pointer = try chipPointer(chip)
        guard let info = gpiod_chip_get_info(pointer) else {
            throw GPIOError.from(.current, operation: "chip info", line: nil, chip: chipNames[chip.index])
        }
        let count = gpiod_chip_info_get_num_lines(info)
        gpiod_chip_info_free(info)
        guard offset >= 0, offset < count else { throw .lineNotFound(line: name, chip: chipNames[chip.index]) }
        return add(UInt32(offset), name: name, chip: chip)
    }

    public mutating func requestOutput(_ line: GPIOLine, initial: GPIOLevel) throws(GPIOError) {
        let entry = try self.entry(line)
        guard let request = request(entry, output: initial, pullUp: false) else { throw failure("request output", line) }
        lines[line.index].request = request
    }

    public mutating func set(_ line: GPIOLine, to level: GPIOLevel) throws(GPIOError) {
        let entry = try self.entry(line)
        guard let request = entry.request, entry.events == nil else { throw notRequested(line) }
        guard gpiod_line_request_set_value(request, entry.offset, Self.value(level)) == 0 else {
            throw failure("set value", line)
        }
    }

    public mutating func requestInput(_ line: GPIOLine) throws(GPIOError) -> GPIOInputRequest {
        let entry = try self.entry(line)
        var pullUpApplied = true
        var request = request(entry, output: nil, pullUp: true)
        // A driver or kernel that cannot set the bias refuses the request with EINVAL or
        // EOPNOTSUPP; the button then needs an external pull-up, which wiring.md shows.
        if request == nil, clinux_errno() == EINVAL || clinux_errno() == EOPNOTSUPP {
            pullUpApplied = false
            request = self.request(entry, output: nil, pullUp: false)
        }
        guard let request else { throw failure("request both-edge events", line) }
        let fd = gpiod_line_request_get_fd(request)
        guard clinux_set_nonblocking(fd, 1) == 0, let events = gpiod_edge_event_buffer_new(1) else {
            let error = failure("prepare edge events", line)
            gpiod_line_request_release(request)
            throw error
        }
        lines[line.index].request = request
        lines[line.index].events = events
        return GPIOInputRequest(eventDescriptor: FileDescriptor(rawValue: fd), pullUpApplied: pullUpApplied)
    }

    public mutating func readEvent(_ line: GPIOLine) throws(GPIOError) -> GPIOEdgeEvent? {
        let entry = try self.entry(line)
        guard let request = entry.request, let buffer = entry.events else { throw notRequested(line) }
        // The descriptor is non-blocking: with nothing queued the read fails with EAGAIN.
        while gpiod_line_request_read_edge_events(request, buffer, 1) < 1 {
            let error = Errno.current
            if error == .wouldBlock { return nil }
            if error == .interrupted { continue }
            throw GPIOError.from(error, operation: "read event", line: entry.name, chip: chipNames[entry.chip])
        }
        guard let event = gpiod_edge_event_buffer_get_event(buffer, 0) else { return nil }
        let edge: GPIOEdge = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE ? .rising : .falling
        // CLOCK_MONOTONIC, the default event clock, as the loop's.
        let nanoseconds = Int64(truncatingIfNeeded: gpiod_edge_event_get_timestamp_ns(event))
        return GPIOEdgeEvent(edge: edge, timestampNanoseconds: nanoseconds)
    }

    public mutating func level(of line: GPIOLine) throws(GPIOError) -> GPIOLevel {
        let entry = try self.entry(line)
        guard let request = entry.request, entry.events != nil else { throw notRequested(line) }
        let value = gpiod_line_request_get_value(request, entry.offset)
        guard value != GPIOD_LINE_VALUE_ERROR else { throw failure("get value", line) }
        return GPIOLevel(value == GPIOD_LINE_VALUE_ACTIVE)
    }

    public mutating func releaseAll() {
        // Releasing a request closes its descriptor too.
        for line in lines {
            gpiod_line_request_release(line.request)
            gpiod_edge_event_buffer_free(line.events)
        }
        for chip in chips { gpiod_chip_close(chip) }
        chips = []
        chipNames = []
        lines = []
    }

    // MARK: Chips and requests

    /// The first `/dev/gpiochip*` whose label is `label`. A chip that cannot be opened for
    /// want of permission makes a missing label `.permissionDenied` rather than `.noSuchChip`:
    /// the label may be that chip's. (gpiod_chip_open refuses what is not a GPIO chip.)
    private static func openChip(labelled label: String) throws(GPIOError) -> OpaquePointer {
        guard let directory = opendir("/dev") else {
            throw GPIOError.from(.current, operation: "list /dev", line: nil, chip: label)
        }
        defer { closedir(directory) }
        var denied = false
        while let entry = readdir(directory) {
            let name = String(cString: clinux_dirent_name(entry))
            guard name.bytesHavePrefix("gpiochip") else { continue }
            guard let chip = ("/dev/" + name).withCString({ gpiod_chip_open($0) }) else {
                denied = denied || clinux_errno() == EACCES || clinux_errno() == EPERM
                continue
            }
            if let info = gpiod_chip_get_info(chip) {
                let matches = String(cString: gpiod_chip_info_get_label(info)).bytesEqual(label)
                gpiod_chip_info_free(info)
                if matches { return chip }
            }
            gpiod_chip_close(chip)
        }
        if denied { throw .permissionDenied(line: nil, chip: label) }
        throw .noSuchChip(chip: label)
    }

    /// One line requested as an output driven at `output`, or (nil) as an input reporting both
    /// edges, with the internal pull-up when `pullUp`; nil with errno set on failure (glibc's
    /// free, which the cleanup calls, leaves errno alone).
    private func request(_ entry: Line, output: GPIOLevel?, pullUp: Bool) -> OpaquePointer? {
        let settings = gpiod_line_settings_new()
        let lineConfig = gpiod_line_config_new()
        let requestConfig = gpiod_request_config_new()
        defer {
            // gpiod_line_config_free must not be given NULL; the other two may.
            gpiod_request_config_free(requestConfig)
            if let lineConfig { gpiod_line_config_free(lineConfig) }
            gpiod_line_settings_free(settings)
        }
        guard let settings, let lineConfig, let requestConfig else { return nil }
        if let output {
            _ = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT)
            _ = gpiod_line_settings_set_output_value(settings, Self.value(output))
        } else {
            _ = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT)
            _ = gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH)
            if pullUp { _ = gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_PULL_UP) }
        }
        var offset = entry.offset
        guard gpiod_line_config_add_line_settings(lineConfig, &offset, 1, settings) == 0 else { return nil }
        Self.consumer.withUTF8Buffer { consumer in
            consumer.withMemoryRebound(to: CChar.self) {
                // libgpiod copies the consumer name into the request.
                gpiod_request_config_set_consumer(requestConfig, $0.baseAddress)
            }
        }
        return gpiod_chip_request_lines(chips[entry.chip], requestConfig, lineConfig)
    }

    /// The physical level as v2's value: lines are never requested active-low here.
    private static func value(_ level: GPIOLevel) -> gpiod_line_value {
        level.isHigh ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE
    }

    // MARK: Tables

    private mutating func add(_ offset: UInt32, name: String, chip: GPIOChip) -> GPIOLine {
        lines.append(Line(chip: chip.index, offset: offset, name: name))
        return GPIOLine(index: lines.count - 1)
    }

    private func chipPointer(_ chip: GPIOChip) throws(GPIOError) -> OpaquePointer {
        guard chips.indices.contains(chip.index) else { throw .noSuchChip(chip: String(joining: "#", String(chip.index))) }
        return chips[chip.index]
    }

    private func entry(_ line: GPIOLine) throws(GPIOError) -> Line {
        guard lines.indices.contains(line.index) else { throw .notRequested(line: String(joining: "#", String(line.index)), chip: "?") }
        return lines[line.index]
    }

    private func failure(_ operation: String, _ line: GPIOLine) -> GPIOError {
        GPIOError.from(.current, operation: operation, line: lines[line.index].name,
                       chip: chipNames[lines[line.index].chip])
    }

    private func notRequested(_ line: GPIOLine) -> GPIOError {
        .notRequested(line: lines[line.index].name, chip: chipNames[lines[line.index].chip])
    }
}
#endif
