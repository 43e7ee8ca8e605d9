import Testing
import TrackCore

/// The sleep record (format 6, docs/log-format.md): a keyframe of version 6 for it, every other
/// interval still version 5 byte for byte, and what trips and exports make of it.
@Suite("the sleep record")
struct LogSleepRecordTests {
    static func sleep(_ from: Int64, _ to: Int64) -> LogRecord {
        .receiverAsleep(from: UTCTime(millisecondsSinceEpoch: LogSamples.t0.millisecondsSinceEpoch + from * 1000),
                        to: UTCTime(millisecondsSinceEpoch: LogSamples.t0.millisecondsSinceEpoch + to * 1000))
    }

    /// The version byte of each keyframe chunk among `chunks` (nil for data chunks).
    static func versions(_ chunks: [[UInt8]]) -> [UInt8?] {
        chunks.map { $0.starts(with: [0x89, 0x54, 0x4C, 0x4B]) ? $0[4] : nil }
    }

    @Test("round trips alone, after fixes, in a data chunk after a keyframe", arguments: [
        sleep(10, 3_610), sleep(0, 0),
        LogRecord.receiverAsleep(from: UTCTime(millisecondsSinceEpoch: .max), to: UTCTime(millisecondsSinceEpoch: .min)),
    ])
    func roundTrip(_ record: LogRecord) throws {
        for records in [[record], [LogSamples.fix(-1), record, record, LogSamples.fix(3_700)]] {
            let chunks = encodeChunks(records)
            #expect(chunks.count == 1)
            #expect(try decodeChunk(chunks[0]).get() == records)
            #expect(Self.versions(chunks) == [6], "the keyframe holding it says 6")
            let split = encodeChunks([LogSamples.fix(-2)] + records, recordsPerChunk: 1)
            #expect(readLog(split.flatMap { $0 }) == LogReadout(records: [LogSamples.fix(-2)] + records))
        }
    }

    @Test("a sleep in a version-5 data chunk starts a version-6 keyframe; the next interval is 5 again")
    func startsAKeyframe() {
        let records = [LogSamples.fix(0), LogSamples.fix(1), LogSamples.fix(2), Self.sleep(2, 400),
                       LogSamples.fix(400), LogSamples.fix(401), LogSamples.fix(700)]
        // Syncs of two records: the sleep would have been the second record of a data chunk.
        let chunks = encodeChunks(records, recordsPerChunk: 2, keyframeInterval: 300_000)
        // fix 0 and 1 (keyframe, 5), fix 2 (data: the sleep did not go with it), the sleep and
        // fix 400 (keyframe, 6), fix 401 and 700 (a keyframe by time, 5 again).
        #expect(Self.versions(chunks) == [5, nil, 6, 5], "\(chunks.map(\.count))")
        #expect(readLog(chunks.flatMap { $0 }) == LogReadout(records: records))
    }

    @Test("a log without sleeps is the same bytes as before the record existed")
    func withoutSleepsUnchanged() {
        let chunks = encodeChunks((0..<40).map { LogSamples.fix($0) }, recordsPerChunk: 5)
        #expect(Self.versions(chunks).compactMap { $0 } == [5])
    }

    @Test("kind 5 in a version-5 context is an unknown kind, as a version-5 reader finds it")
    func kindFiveNeedsVersionSix() throws {
        let chunk = try #require(encodeChunks([Self.sleep(0, 60)]).first)
        var old = chunk
        old[4] = 5
        // The CRC covers the version byte: mend it, so only the kind is wrong.
        let crc = CRC32C.checksum(of: old.span, 0..<(old.count - 4))
        for index in 0..<4 { old[old.count - 4 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * index)) }
        guard case .failure(.unknownRecordKind(5, _)) = decodeChunk(old) else {
            Issue.record("\(decodeChunk(old))")
            return
        }
    }

    @Test("seeded soup of records with sleeps: every record back, in order")
    func soup() {
        var g = SplitMix64(seed: 39)
        var previous = LogFix(time: LogSamples.t0, position: LogSamples.munich, mode: .threeD)
        var records: [LogRecord] = []
        for _ in 0..<2_000 {
            if Int.random(in: 0..<25, using: &g) == 0 {
                let from = previous.time.millisecondsSinceEpoch
                records.append(.receiverAsleep(from: previous.time,
                                               to: UTCTime(millisecondsSinceEpoch: from + Int64.random(in: 0...600_000, using: &g))))
            } else {
                records.append(LogSamples.random(&g, after: &previous))
            }
        }
        let chunks = encodeChunks(records, recordsPerChunk: 7, keyframeInterval: 60_000)
        #expect(readLog(chunks.flatMap { $0 }) == LogReadout(records: records))
    }

    /// Stationary fixes at one place every `step` seconds over `range`.
    static func still(_ range: StrideTo<Int64>) -> [LogRecord] {
        range.map { LogSamples.fix($0, speed: 0) }
    }

    /// A drive east from `start`, 10 m/s, one fix a second.
    static func drive(from start: Int64, _ seconds: Int64, origin: LogPosition) -> [LogRecord] {
        (0..<seconds).map { second in
            LogSamples.fix(start + second, LogPosition(latitudeE7: origin.latitudeE7,
                                                       longitudeE7: origin.longitudeE7 + Int32(second) * 1_350), speed: 1_000)
        }
    }

    static func trips(_ records: [LogRecord]) -> [Trip] {
        var cutter = TripCutter(TripSettings())
        var trips: [Trip] = []
        for record in records { cutter.consume(record) { trips.append($0) } }
        cutter.finish { trips.append($0) }
        return trips
    }

    @Test("trips: a sleep is the stop it stands for, not a gap; the next trip departs from it")
    func tripsReadItAsAStop() throws {
        let munich = LogSamples.munich
        // A 2 min drive, 6 min standing (fixes then a 1 h sleep, a heartbeat fix), another drive.
        var records = Self.drive(from: 0, 120, origin: munich)
        let parked = LogPosition(latitudeE7: munich.latitudeE7, longitudeE7: munich.longitudeE7 + 119 * 1_350)
        records += (120..<160).map { LogSamples.fix($0, parked, speed: 0) }
        records.append(Self.sleep(159, 3_759))
        records.append(LogSamples.fix(3_759, parked, speed: 0))
        records += Self.drive(from: 3_760, 120, origin: parked)
        let trips = Self.trips(records)
        #expect(trips.count == 2)
        #expect(trips.first?.endReason == .stop, "the sleep ends the first trip at a stop: \(trips.map(\.endReason))")
        #expect(trips.last?.endReason == .end)
        // The same hour as a gap record cuts the log at a gap instead.
        let gapped = records.map { record -> LogRecord in
            if case .receiverAsleep(let from, let to) = record { return .gap(from: from, to: to) }
            return record
        }
        #expect(Self.trips(gapped).first?.endReason == .gap)
    }

    @Test("exports: a sleep keeps the track segment, a gap splits it")
    func exportsKeepTheSegment() throws {
        let records = [LogSamples.fix(0), LogSamples.fix(1), Self.sleep(1, 600), LogSamples.fix(600), LogSamples.fix(601)]
        func segments(_ records: [LogRecord]) -> Int {
            exportText(records, GPXWriter()).text.components(separatedBy: "<trkseg>").count - 1
        }
        #expect(segments(records) == 1)
        #expect(segments(records.map { if case .receiverAsleep(let a, let b) = $0 { .gap(from: a, to: b) } else { $0 } }) == 2)
    }
}
