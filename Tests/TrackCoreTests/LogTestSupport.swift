import Testing
import TrackCore

enum LogSamples {
    static let t0 = UTCTime(millisecondsSinceEpoch: 1_750_507_289_000)
    static let munich = LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000)

    static func fix(_ seconds: Int64, _ position: LogPosition = munich, altitude: Int32? = 5454,
                    speed: Int32? = 514, course: Int32? = 8_440, accuracy: Int32? = 32,
                    mode: FixMode = .threeD) -> LogRecord {
        .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: t0.millisecondsSinceEpoch + seconds * 1000),
                    position: position, altitudeDecimetres: altitude, speedCentimetresPerSecond: speed,
                    courseCentidegrees: course, accuracyDecimetres: accuracy, mode: mode))
    }

    /// A random record of any kind: mostly a plausible walk, sometimes extreme values.
    static func random(_ g: inout SplitMix64, after previous: inout LogFix) -> LogRecord {
        let extreme = Int.random(in: 0..<10, using: &g) == 0
        func int32() -> Int32 { extreme ? Int32.random(in: .min ... .max, using: &g) : Int32.random(in: -500...500, using: &g) }
        func optional(_ base: Int32?) -> Int32? {
            guard Bool.random(using: &g) else { return nil }
            return extreme ? int32() : (base ?? 0) &+ Int32.random(in: -20...20, using: &g)
        }
        let time = extreme ? UTCTime(millisecondsSinceEpoch: Int64.random(in: .min ... .max, using: &g))
            : UTCTime(millisecondsSinceEpoch: previous.time.millisecondsSinceEpoch + Int64.random(in: 0...2_000, using: &g))
        let position = extreme ? LogPosition(latitudeE7: int32(), longitudeE7: int32())
            : LogPosition(latitudeE7: previous.position.latitudeE7 &+ int32(),
                          longitudeE7: previous.position.longitudeE7 &+ int32())
        switch Int.random(in: 0..<12, using: &g) {
        case 0:
            var label = LogLabel()
            for _ in 0..<Int.random(in: 0...64, using: &g) { _ = label.append(UInt8.random(in: 0...255, using: &g)) }
            return .waypoint(time: time, position: position, label: label)
        case 1:
            return .fenceEvent(time: time, fenceID: UInt32.random(in: 0 ... .max, using: &g),
                               kind: [.enter, .exit, .dwell][Int.random(in: 0..<3, using: &g)], position: position)
        case 2:
            return .permissionChange(time: time, old: LogPermissionState(rawValue: UInt8.random(in: 0...4, using: &g))!,
                                     new: LogPermissionState(rawValue: UInt8.random(in: 0...4, using: &g))!)
        case 3: return .bootMarker(time: time, bootID: UInt64.random(in: 0 ... .max, using: &g))
        case 4:
            return .gap(from: time, to: UTCTime(millisecondsSinceEpoch: Int64.random(in: .min ... .max, using: &g)))
        default:
            let fix = LogFix(time: time, position: position, altitudeDecimetres: optional(previous.altitudeDecimetres),
                             speedCentimetresPerSecond: optional(previous.speedCentimetresPerSecond),
                             courseCentidegrees: optional(previous.courseCentidegrees),
                             accuracyDecimetres: optional(previous.accuracyDecimetres),
                             mode: FixMode(rawValue: UInt8.random(in: 0...3, using: &g))!)
            previous = fix
            return .fix(fix)
        }
    }
}

/// Encodes `records` into chunks of at most `bufferSize` bytes each, sealing every
/// `recordsPerChunk` records (a sync) and when full; returns each chunk's bytes in order.
func encodeChunks(_ records: [LogRecord], bufferSize: Int = 4096, sequence: UInt32 = 0,
                  recordsPerChunk: Int = .max, keyframeInterval: Int64 = 120_000) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var buffer = [UInt8](repeating: 0, count: bufferSize)
    var encoder = LogEncoder(sequence: sequence, keyframeIntervalMilliseconds: keyframeInterval)
    func seal() {
        var span = buffer.mutableSpan
        let length = encoder.sealChunk(&span)
        if length > 0 { chunks.append(Array(buffer[0..<length])) }
    }
    for record in records {
        if encoder.recordCount >= recordsPerChunk { seal() }
        var span = buffer.mutableSpan
        if encoder.append(record, to: &span) == .full {
            seal()
            var again = buffer.mutableSpan
            #expect(encoder.append(record, to: &again) == .appended)
        }
    }
    seal()
    return chunks
}

/// What reading a whole log gave: the records in order and every error met on the way.
struct LogReadout: Equatable {
    var records: [LogRecord] = []
    var errors: [LogError] = []
}

/// Reads `bytes` chunk by chunk as a log reader should: on an error, notes it and resumes at
/// the next keyframe magic after the failing offset.
func readLog(_ bytes: [UInt8]) -> LogReadout {
    var readout = LogReadout()
    var reader = LogChunkReader()
    var offset = 0
    while offset < bytes.count {
        do throws(LogError) {
            let header = try reader.open(bytes.span, at: offset)
            while let record = try reader.next(bytes.span) { readout.records.append(record) }
            offset = header.end
        } catch {
            readout.errors.append(error)
            guard let next = LogChunkFormat.nextKeyframe(in: bytes.span, from: offset + 1) else { break }
            offset = next
        }
    }
    return readout
}

/// Every record of the single chunk at `offset` (a keyframe), or the first error.
func decodeChunk(_ bytes: [UInt8], at offset: Int = 0) -> Result<[LogRecord], LogError> {
    do throws(LogError) {
        var reader = LogChunkReader()
        _ = try reader.open(bytes.span, at: offset)
        var records: [LogRecord] = []
        while let record = try reader.next(bytes.span) { records.append(record) }
        return .success(records)
    } catch {
        return .failure(error)
    }
}

/// A keyframe chunk around an arbitrary payload with a correct CRC, built from the documented
/// layout (not from the encoder), e.g. to reach the record decoder with garbage.
func handMadeKeyframe(payload: [UInt8], sequence: UInt32 = 7) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x54, 0x4C, 0x4B, 3]
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: sequence >> UInt32(shift))) }
    bytes += [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)]
    bytes += payload
    let crc = CRC32C.checksum(of: bytes.span, 0..<bytes.count)
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
    return bytes
}
