import TestData
import Testing
import TrackCore

/// The shared real tracks as the daemon would log them: every fix, a chunk sealed 5 s of fix
/// time after its first fix, a keyframe every 300 s.
private struct LoggedTrack {
    var records: [LogRecord] = []
    var chunks: [[UInt8]] = []
    /// Index into `records` of each chunk's first record.
    var firstRecord: [Int] = []

    init(_ fixes: [Fix]) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var encoder = LogEncoder(sequence: 0)
        var chunkStart: Int64 = 0
        func seal() {
            var span = buffer.mutableSpan
            let length = encoder.sealChunk(&span)
            if length > 0 { chunks.append(Array(buffer[0..<length])) }
        }
        for fix in fixes {
            guard let time = fix.time, let position = fix.position else { continue }
            let record = LogRecord.fix(LogFix(
                time: time, position: LogPosition(position),
                altitudeDecimetres: fix.altitudeMSLMillimetres.map { $0 / 100 },
                speedCentimetresPerSecond: fix.speedMillimetresPerSecond.map { $0 / 10 },
                courseCentidegrees: fix.courseMillidegrees.map { $0 / 10 },
                accuracyDecimetres: fix.hdopCenti.map { $0 / 2 }, mode: fix.mode))
            let t = time.millisecondsSinceEpoch
            if !encoder.isEmpty, t &- chunkStart >= 5_000 || t < chunkStart { seal() }
            if encoder.isEmpty {
                chunkStart = t
                firstRecord.append(records.count)
            }
            var span = buffer.mutableSpan
            #expect(encoder.append(record, to: &span) == .appended)
            records.append(record)
        }
        seal()
    }
}

struct LogSharedTrackTests {
    @Test(.needsShared("tracks/csv"))
    func everyTrackRoundTripsAndSurvivesDamage() throws {
        let tracks = try SharedTracks.load()
        #expect(!tracks.isEmpty, "no track in ../shared/data/tracks/csv")
        var g = SplitMix64(seed: 0x7EA1)
        for (name, fixes) in tracks {
            // The first 1,500 fixes of each track (25 min at 1 Hz, several keyframes): enough to
            // meet every kind of step the track has, and quick in a debug build.
            let logged = LoggedTrack(Array(fixes.prefix(1_500)))
            let log = logged.chunks.flatMap { $0 }
            #expect(readLog(log) == LogReadout(records: logged.records), "\(name)")
            var ends: [Int] = []
            for chunk in logged.chunks { ends.append((ends.last ?? 0) + chunk.count) }
            for _ in 0..<4 {
                // Torn anywhere: exactly the records of the whole chunks before the cut.
                let cut = Int.random(in: 0..<log.count, using: &g)
                let whole = ends.filter { $0 <= cut }.count
                let kept = whole < logged.firstRecord.count ? logged.firstRecord[whole] : logged.records.count
                #expect(readLog(Array(log[0..<cut])).records == Array(logged.records[0..<kept]), "\(name) cut at \(cut)")
                // A flipped byte: never a record that was not written, in order.
                var damaged = log
                damaged[Int.random(in: 0..<log.count, using: &g)] ^= UInt8.random(in: 1...255, using: &g)
                let readout = readLog(damaged)
                #expect(!readout.errors.isEmpty, "\(name)")
                #expect(isSubsequence(readout.records, of: logged.records), "\(name)")
            }
        }
    }
}

/// True when `part` is `whole` with some records left out.
private func isSubsequence(_ part: [LogRecord], of whole: [LogRecord]) -> Bool {
    var index = whole.startIndex
    for record in part {
        guard let found = whole[index...].firstIndex(of: record) else { return false }
        index = found + 1
    }
    return true
}
