import TestData
import TrackCore

/// Records and encoded segments for the log store tests.
enum LogTestRecords {
    /// 2025-06-21T12:01:29Z, the first fix of `SyntheticLog.walk`.
    static let t0 = SyntheticLog.t0

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

    /// A version-3 keyframe chunk and the data chunk after it, as trackd wrote them before
    /// format version 4: the bytes 39…173 of the log `trackd --replay` wrote for the shared track
    /// run-fenix2 (../shared/data/tracks, turned into NMEA by `trackbench tracknmea`), the first
    /// fixes after its boot marker. `version3Fixes` is what the version-3 reader read from them.
    static let version3Chunks: [UInt8] = [
        0x89, 0x54, 0x4C, 0x4B, 0x03, 0x01, 0x00, 0x00, 0x00, 0x43, 0x00, 0xC0, 0x94, 0x92, 0x9D, 0xE6,
        0x53, 0xA8, 0xD4, 0xA3, 0xB2, 0x04, 0x8C, 0x9B, 0xD1, 0x36, 0x00, 0x00, 0x00, 0x00, 0xF2, 0xA3,
        0xFF, 0x90, 0xF5, 0x27, 0xEC, 0xFF, 0x17, 0x79, 0xF6, 0x20, 0xC3, 0x34, 0xC6, 0x64, 0x9F, 0x5C,
        0x2D, 0x4D, 0x67, 0x39, 0xCB, 0xA4, 0xE4, 0x36, 0xEE, 0x76, 0x05, 0xEA, 0x2F, 0x38, 0x32, 0xA2,
        0x86, 0x6B, 0x12, 0xD5, 0x89, 0xAA, 0x90, 0x9F, 0x38, 0xC9, 0x9D, 0x08, 0xB6, 0x13, 0x2B, 0x2F,
        0x4D, 0x24, 0x34, 0xD0, 0xD9, 0xEB, 0x13, 0xBE, 0x2A, 0x2F, 0x75, 0xB2, 0x49, 0x9F, 0xDA, 0x4C,
        0xEE, 0x0C, 0x4A, 0x59, 0x17, 0xEE, 0x18, 0xCE, 0x42, 0x08, 0x0B, 0x46, 0xED, 0xE8, 0xB7, 0x2E,
        0x04, 0xBC, 0xA8, 0x90, 0xBE, 0x0D, 0xE4, 0x99, 0xCB, 0x32, 0x5F, 0xD9, 0x04, 0x4B, 0xA2, 0x88,
        0x49, 0xF9, 0x09, 0x16, 0x32, 0x48, 0xF8,
    ]

    /// A closed version-4 segment: the two fixes of docs/log-format.md's example as version 4
    /// wrote them (a keyframe chunk, a data chunk ending in a whole CRC-32C) and the parity chunk
    /// of those 45 bytes.
    static let version4Chunks: [UInt8] = [
        0x89, 0x54, 0x4C, 0x4B, 0x04, 0x00, 0x00, 0x00, 0x00, 0x17, 0x00,
        0xD0, 0xE6, 0xEB, 0xA5, 0xF2, 0x65, 0xF6, 0xB3, 0xE9, 0xF7, 0x02, 0xD5, 0xEF, 0x8A, 0x03,
        0x00, 0x00, 0x00, 0x00,
        0x82, 0xA3, 0xDF, 0x4D, 0xC4, 0xB7, 0x0E, 0x94,
        0x18, 0x7B, 0x30, 0x22, 0x16, 0xDE, 0x0E,
        0x89, 0x54, 0x4C, 0x50, 0x04, 0x10, 0x2D,
        0x33, 0xEF, 0x3B, 0x15, 0xFD, 0x96, 0xCD, 0x94, 0xBA, 0x36, 0x16, 0x0E, 0xE8, 0xEB, 0x27, 0x51,
        0xA2, 0x76, 0x40, 0x5C,
    ]

    static let version4Fixes: [LogRecord] = [(1_750_507_289_000, 394_079_483, -3_234_795, 123), (1_750_507_290_000, 394_079_490, -3_234_790, 124)]
        .map { (time: Int64, latitude: Int32, longitude: Int32, altitude: Int32) in
            .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: time), position: LogPosition(latitudeE7: latitude, longitudeE7: longitude),
                        altitudeDecimetres: altitude, mode: .threeD))
        }

    static let version3Fixes: [LogRecord] = [
        (1_439_649_908_000, 589_591_828, 57_288_390, 550, 161, 25_209),
        (1_439_649_910_000, 589_591_738, 57_287_857, 1_424, 463, 25_225),
        (1_439_649_911_000, 589_591_530, 57_286_590, 1_424, 328, 27_049),
        (1_439_649_912_000, 589_591_743, 57_286_717, 1_424, 142, 28_827),
        (1_439_649_913_000, 589_591_610, 57_286_122, 560, 185, 26_707),
        (1_439_649_914_000, 589_591_727, 57_286_073, 562, 281, 34_836),
        (1_439_649_915_000, 589_592_103, 57_285_923, 562, 219, 29_369),
        (1_439_649_916_000, 589_591_885, 57_285_377, 562, 360, 24_793),
        (1_439_649_917_000, 589_591_862, 57_284_763, 560, 1_550, 19_025),
    ].map { (time: Int64, latitude: Int32, longitude: Int32, altitude: Int32, speed: Int32, course: Int32) in
        .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: time),
                    position: LogPosition(latitudeE7: latitude, longitudeE7: longitude), altitudeDecimetres: altitude,
                    speedCentimetresPerSecond: speed, courseCentidegrees: course, accuracyDecimetres: 16, mode: .threeD))
    }
}
