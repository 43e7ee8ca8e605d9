import TrackCore

extension TrackCoreRun {
    /// Appends `record` to the chunk, sealing a full chunk first; a record that fits in no
    /// chunk fails the run.
    mutating func append(_ record: LogRecord, _ line: inout TextBuffer) {
        if encode(record) == .appended { return }
        seal(&line)
        if encode(record) != .appended {
            output.emit("log: a record fits in no chunk", using: &line)
            failed = true
        }
    }

    /// `record` into the chunk. The encoder is worked on as a local: a span of `chunk` and the
    /// encoder, both parts of `self`, cannot be used at once in a generic type.
    mutating func encode(_ record: LogRecord) -> LogAppendResult {
        var encoder = self.encoder
        var span = chunk.mutableSpan
        let result = encoder.append(record, to: &span)
        self.encoder = encoder
        return result
    }

    /// Seals the chunk into the log; true when it held records.
    @discardableResult
    mutating func seal(_ line: inout TextBuffer) -> Bool {
        var encoder = self.encoder
        var span = chunk.mutableSpan
        let length = encoder.sealChunk(&span)
        self.encoder = encoder
        guard length > 0 else { return false }
        guard logCount + length <= log.count else {
            output.emit("log: the log buffer is full", using: &line)
            failed = true
            return false
        }
        for index in 0..<length { log[logCount + index] = chunk[index] }
        logCount += length
        chunkCount += 1
        return true
    }

    /// The counts of the run, in the receiver's, the filter's and the sampling policy's own
    /// words, then the fixes, records and fence events, e.g. `fixes 71 recorded 67 …`.
    mutating func summarize(_ line: inout TextBuffer) {
        line.append("sentences ")
        receiver.counters.write(to: &line)
        output.emit(&line)
        line.append("filter ")
        filter.counters.write(to: &line)
        output.emit(&line)
        line.append("sampling ")
        sampling.counters.write(to: &line)
        output.emit(&line)
        line.append("fixes ")
        line.append(integer: Int64(fixNumber))
        line.append(" recorded ")
        line.append(integer: Int64(recorded))
        line.append(" fence-events ")
        line.append(integer: Int64(fenceEvents))
        line.append(" inside ")
        line.append(integer: Int64(monitor.insideCount))
        output.emit(&line)
    }

    /// The log's bytes in hex, 32 a line, after its length, chunk count and CRC-32C.
    mutating func dumpLog(_ line: inout TextBuffer) {
        line.append("log ")
        line.append(integer: Int64(logCount))
        line.append(" bytes ")
        line.append(integer: Int64(chunkCount))
        line.append(" chunks crc32c ")
        let crc = CRC32C.checksum(of: log.span, 0..<logCount)
        Self.appendHex(UInt64(crc), digits: 8, to: &line)
        output.emit(&line)
        var start = 0
        while start < logCount {
            line.append("  ")
            for index in start..<min(start + 32, logCount) { Self.appendHex(UInt64(log[index]), digits: 2, to: &line) }
            output.emit(&line)
            start += 32
        }
    }

    /// Decodes the log written: every record a line; fails the run unless the records are as
    /// many as were appended.
    mutating func readBack(_ line: inout TextBuffer) {
        var reader = LogChunkReader()
        // A local reference to the log (no copy): the span borrows it, not `self`.
        let written = log
        let bytes = written.span.extracting(0..<logCount)
        var offset = 0
        var records = 0
        do throws(LogError) {
            while offset < bytes.count {
                let header = try reader.open(bytes, at: offset)
                while let record = try reader.next(bytes) {
                    Self.write(record, to: &line)
                    output.emit(&line)
                    records += 1
                }
                offset = header.end
            }
        } catch {
            line.append("log read back: an error at byte ")
            line.append(integer: Int64(offset))
            output.emit(&line)
            failed = true
        }
        line.append("log read back ")
        line.append(integer: Int64(records))
        line.append(" records")
        if records != recorded + fenceEvents {
            line.append(", written ")
            line.append(integer: Int64(recorded + fenceEvents))
            failed = true
        }
        output.emit(&line)
    }

    /// One decoded record, e.g. `  fix 2024-06-15T07:30:16.000Z 485230760 90663270 alt 3394 …`.
    static func write(_ record: LogRecord, to line: inout TextBuffer) {
        switch record {
        case .fix(let fix):
            line.append("  fix ")
            fix.time.write(to: &line)
            position(fix.position, &line)
            optional(" alt-dm ", fix.altitudeDecimetres, &line)
            optional(" speed-cm/s ", fix.speedCentimetresPerSecond, &line)
            optional(" course-cdeg ", fix.courseCentidegrees, &line)
            optional(" accuracy-dm ", fix.accuracyDecimetres, &line)
            line.append(" mode ")
            line.append(integer: Int64(fix.mode.rawValue))
        case .fenceEvent(let time, let fence, let kind, let at):
            line.append("  fence-event ")
            time.write(to: &line)
            line.append(" fence ")
            line.append(integer: Int64(fence))
            line.append(" kind ")
            line.append(integer: Int64(kind.rawValue))
            position(at, &line)
        case .waypoint, .permissionChange, .bootMarker, .gap, .receiverAsleep:
            line.append("  other record ")
            record.time.write(to: &line)
        }
    }

    static func position(_ position: LogPosition, _ line: inout TextBuffer) {
        line.append(UInt8(ascii: " "))
        line.appendFixed(Int64(position.latitudeE7), decimals: 7)
        line.append(UInt8(ascii: ","))
        line.appendFixed(Int64(position.longitudeE7), decimals: 7)
    }

    static func optional(_ name: StaticString, _ value: Int32?, _ line: inout TextBuffer) {
        guard let value else { return }
        line.append(name)
        line.append(integer: Int64(value))
    }

    /// The filter's reason in a word or two, e.g. `inaccurate 70000 mm`.
    static func write(_ reason: FilterRejection, to line: inout TextBuffer) {
        switch reason {
        case .invalid: line.append("invalid")
        case .noPosition: line.append("no-position")
        case .noTime: line.append("no-time")
        case .stale: line.append("stale")
        case .tooFewSatellites(let count):
            line.append("too-few-satellites ")
            line.append(integer: Int64(count))
        case .inaccurate(let accuracy):
            line.append("inaccurate ")
            line.append(integer: accuracy)
            line.append(" mm")
        case .implausibleJump(let speed):
            line.append("implausible-jump ")
            line.append(integer: speed)
            line.append(" m/s")
        }
    }

    /// `value` as `digits` lower-case hex digits, e.g. (0x5a, 2) → `5a`.
    static func appendHex(_ value: UInt64, digits: Int, to line: inout TextBuffer) {
        var shift = 4 * (digits - 1)
        while shift >= 0 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0x0F
            line.append(nibble < 10 ? nibble + 48 : nibble + 87)
            shift -= 4
        }
    }
}
