import TrackCore

/// TrackCore's fix path as a microcontroller would run it, with nothing but the core: receiver
/// bytes in 64-byte reads (a UART's FIFO), the NMEA receiver, the fix filter, the geofence
/// monitor over a compiled image, the sampling policy, the log encoder and the LED pattern
/// engine, one text line for everything each fix did. The same source runs on the boards
/// (MCU/Board, under qemu) and on the host (MCU/Host); scripts/mcu compares the lines.
///
/// The loop clock is the fix's number in seconds (fix 3 at 3,000 ms): the receiver's bytes
/// carry no loop time, and a fixed clock makes the LED frames the same in every build. Example
/// of the lines for one fix:
///
///     fix 21 {"class":"TPV","time":"2024-06-15T07:30:16.000Z","mode":3,…}
///       filter accepted 2200 mm
///       fence market-square enter
///       record distance
///       leds 0111 next 21100 ms
public struct TrackCoreRun<Output: HarnessOutput> {
    var output: Output
    var receiver = NMEAReceiver()
    var filter = FixFilter()
    var sampling = SamplingPolicy(settings: SamplingProfile.track.settings)
    let fences: FenceSet
    var monitor: FenceMonitor
    var leds = LEDTable()
    var events = LEDEvents()
    var fixNumber = 0
    var recorded = 0
    var fenceEvents = 0
    /// The log: sealed chunks one after the other, `logCount` bytes used.
    var log: [UInt8]
    var logCount = 0
    /// The chunk being built; sealed every `fixesPerSync` fixes (the daemon's sync interval).
    var chunk: [UInt8]
    var encoder = LogEncoder(sequence: 1, keyframeIntervalMilliseconds: 30_000)
    var chunkCount = 0
    /// Set when something went wrong (a record that did not fit, a log that reads back wrong).
    var failed = false

    static var fixesPerSync: Int { 5 }
    static var readBytes: Int { 64 }

    /// A run over `fences` (e.g. from `openImage`), its lines to `output`.
    public init(fences: FenceSet, output: Output) {
        self.output = output
        self.fences = fences
        monitor = FenceMonitor(fences: fences, settings: FenceSettings())
        log = [UInt8](repeating: 0, count: 16_384)
        chunk = [UInt8](repeating: 0, count: 2_048)
    }

    /// The fences compiled in `image` (8-byte aligned, kept alive by the caller), read where they
    /// lie; throws what is wrong with the image, e.g. `.badCRC`.
    public static func openImage(_ image: UnsafeRawBufferPointer) throws(FenceImageError) -> FenceSet {
        guard let base = image.baseAddress else { throw .tooShort(bytes: 0) }
        return FenceSet(image: try FenceImage(FenceStorage(base: base, count: image.count, release: {})))
    }

    /// The fences' ids, then the fix LED's no-fix blink from a pattern text, as a board file
    /// would set it, and a bad text refused with its reason (the parser's error path on the
    /// board too).
    mutating func start(_ line: inout TextBuffer) {
        line.append("fences ")
        line.append(integer: Int64(fences.count))
        for fence in 0..<fences.count {
            line.append(UInt8(ascii: " "))
            line.append(string: fences.id(of: fence))
        }
        output.emit(&line)
        do throws(LEDPatternError) {
            try leds.override(.fixNoFix, with: "on 250 off 250")
            output.emit("leds fix-no-fix = on 250 off 250", using: &line)
            try leds.override(.fix2D, with: "on 100 blink")
        } catch {
            line.append("leds fix-2d refused: ")
            line.append(string: error.description)
            output.emit(&line)
        }
    }

    /// Feeds the whole capture, then ends the input, seals the log, dumps it and reads it
    /// back, writing each output line through `line`. True when every record fitted and the log
    /// read back as written.
    ///
    /// The caller's line buffer (`TextBuffer.capacity`, 16 KiB) serves the whole run, passed
    /// down: a microcontroller's stack is small, and each function with one of its own would
    /// keep 16 KiB more in its frame.
    public mutating func run(capture: UnsafeRawBufferPointer, line: inout TextBuffer) -> Bool {
        line.removeAll()
        start(&line)
        var start = 0
        while start < capture.count {
            let end = min(start + Self.readBytes, capture.count)
            let read = UnsafeRawBufferPointer(rebasing: capture[start..<end])
            var offset = 0
            while let fix = receiver.next(read, from: &offset) { handle(fix, &line) }
            start = end
        }
        if let fix = receiver.finish() { handle(fix, &line) }
        seal(&line)
        summarize(&line)
        dumpLog(&line)
        readBack(&line)
        return !failed
    }

    /// One fix through the filter, the fences, the sampling, the log and the LEDs.
    mutating func handle(_ fix: borrowing Fix, _ line: inout TextBuffer) {
        let now = MonotonicTime.milliseconds(Int64(fixNumber) * 1_000)
        line.append("fix ")
        line.append(integer: Int64(fixNumber))
        line.append(UInt8(ascii: " "))
        fix.writeJSON(to: &line)
        output.emit(&line)
        var receiverState = ReceiverLEDState.noFix
        switch filter.evaluate(fix, now: now) {
        case .rejected(let reason):
            line.append("  filter rejected ")
            Self.write(reason, to: &line)
            output.emit(&line)
        case .accepted(let accuracy):
            receiverState = fix.mode == .threeD ? .fix3D : .fix2D
            line.append("  filter accepted ")
            line.append(integer: accuracy)
            line.append(" mm")
            output.emit(&line)
            if let position = fix.position, let time = fix.time {
                watchFences(position, accuracy: accuracy, time: time, now: now, &line)
                if let trigger = sampling.consider(fix, accuracyMillimetres: accuracy, now: now),
                   let record = LogFix(fix, accuracyMillimetres: accuracy, time: time) {
                    line.append("  record ")
                    line.append(trigger.name)
                    output.emit(&line)
                    append(.fix(record), &line)
                    recorded += 1
                }
            }
        }
        fixNumber += 1
        if fixNumber % Self.fixesPerSync == 0, seal(&line) { events.logSynced = now }
        showLEDs(receiverState, now: now, &line)
    }

    /// The fence monitor's transitions for one accepted fix, each a line and, for enter, exit
    /// and dwell, a record in the log.
    mutating func watchFences(_ position: Coordinate, accuracy: Int64, time: UTCTime, now: MonotonicTime,
                              _ line: inout TextBuffer) {
        var transitions: InlineArray<8, (fence: Int32, transition: FenceTransition)> =
            InlineArray(repeating: (-1, .enter))
        var count = 0
        monitor.update(position: position, accuracyMillimetres: accuracy,
                       timeMilliseconds: time.millisecondsSinceEpoch) { fence, transition in
            guard count < 8 else { return }
            transitions[count] = (Int32(fence), transition)
            count += 1
        }
        for index in 0..<count {
            let (fence, transition) = transitions[index]
            line.append("  fence ")
            line.append(string: fences.id(of: Int(fence)))
            line.append(UInt8(ascii: " "))
            line.append(transition.name)
            output.emit(&line)
            if let kind = transition.logKind {
                events.fenceCrossed = now
                fenceEvents += 1
                append(.fenceEvent(time: time, fenceID: UInt32(fence), kind: kind, position: LogPosition(position)), &line)
            }
        }
    }

    /// The four LEDs' levels (led-fix first, 1 lit) and the next edge, e.g. `leds 1100 next 5250 ms`.
    mutating func showLEDs(_ receiverState: ReceiverLEDState, now: MonotonicTime, _ line: inout TextBuffer) {
        let inputs = LEDInputs(receiver: receiverState, permission: .always,
                               insideFence: monitor.insideCount > 0, events: events)
        let frame = leds.frame(for: inputs, at: now)
        line.append("  leds ")
        for led in LEDLine.allCases { line.append(frame.levels[led] ? UInt8(ascii: "1") : UInt8(ascii: "0")) }
        line.append(" next ")
        if let edge = frame.nextEdge {
            line.append(integer: edge.nanoseconds / 1_000_000)
            line.append(" ms")
        } else {
            line.append("none")
        }
        output.emit(&line)
    }
}
