import TrackCore

/// Records and encoded segments for the log store tests.
enum LogTestRecords {
    /// 2025-06-21T12:01:29Z.
    static let t0: Int64 = 1_750_507_289_000

    /// A 1 Hz walk north-east from 48.1173°N 11.5167°E, `count` fixes from second `start`.
    static func walk(_ count: Int, from start: Int = 0) -> [LogRecord] {
        (start..<(start + count)).map { index -> LogRecord in
            let time = UTCTime(millisecondsSinceEpoch: t0 + Int64(index) * 1000)
            let latitude: Int32 = 481_173_000 + Int32(index) * 90
            let longitude: Int32 = 115_167_000 + Int32(index % 17) * 130
            let altitude: Int32 = 5_454 + Int32(index % 5)
            let speed: Int32 = 140 + Int32(index % 3)
            return .fix(LogFix(time: time, position: LogPosition(latitudeE7: latitude, longitudeE7: longitude),
                               altitudeDecimetres: altitude, speedCentimetresPerSecond: speed, mode: .threeD))
        }
    }

    /// The bytes of a segment holding `records`: chunks of `perChunk` records, the first a
    /// keyframe with `sequence`, then a keyframe every `keyframeSeconds`. Also returns each
    /// chunk's start offset.
    static func segment(_ records: [LogRecord], sequence: UInt32 = 0, perChunk: Int = 5,
                        keyframeSeconds: Int64 = 60) -> (bytes: [UInt8], chunkOffsets: [Int]) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var encoder = LogEncoder(sequence: sequence, keyframeIntervalMilliseconds: keyframeSeconds * 1000)
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        for (index, record) in records.enumerated() {
            if encoder.recordCount >= perChunk {
                seal(&encoder, &buffer, into: &bytes, &offsets)
            }
            var span = buffer.mutableSpan
            _ = encoder.append(record, to: &span)
            if index == records.count - 1 { seal(&encoder, &buffer, into: &bytes, &offsets) }
        }
        return (bytes, offsets)
    }

    /// Seals the encoder's chunk and appends it (and its offset) to `bytes`.
    static func seal(_ encoder: inout LogEncoder, _ buffer: inout [UInt8], into bytes: inout [UInt8],
                     _ offsets: inout [Int]) {
        var span = buffer.mutableSpan
        let length = encoder.sealChunk(&span)
        guard length > 0 else { return }
        offsets.append(bytes.count)
        bytes.append(contentsOf: buffer[0..<length])
    }
}
