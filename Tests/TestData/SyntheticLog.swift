import TrackCore

/// Records made up for the log tests: what `trackctl log import` or the writer is given when
/// the test needs no real track.
public enum SyntheticLog {
    /// 2025-06-21T12:01:29Z.
    public static let t0: Int64 = 1_750_507_289_000

    /// A 1 Hz walk north-east from 48.1173°N 11.5167°E, `count` fixes from second `start`.
    public static func walk(_ count: Int, from start: Int = 0) -> [LogRecord] {
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
}
