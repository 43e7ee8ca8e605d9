/// The unit changes between the log's integers and what the uplink protocols carry, each
/// rounded half away from zero, e.g. 5_454 dm → 545 m, 514 cm/s → 19 km/h or 9.991 knots.
public enum UplinkUnits {
    /// `value / divisor` rounded half away from zero, e.g. (25, 10) → 3, (−25, 10) → −3.
    @inline(__always)
    static func rounded(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? (value + divisor / 2) / divisor : -((-value + divisor / 2) / divisor)
    }

    /// Whole metres, e.g. 5_454 dm → 545, −15 dm → −2.
    public static func metres(decimetres: Int32) -> Int64 { rounded(Int64(decimetres), 10) }

    /// An accuracy in whole metres, at least 1 (OwnTracks needs `acc` > 0), e.g. 32 dm → 3,
    /// 4 dm → 1.
    public static func accuracyMetres(decimetres: Int32) -> Int64 { max(1, rounded(Int64(decimetres), 10)) }

    /// Whole km/h, e.g. 514 cm/s (5.14 m/s) → 19 (18.5 rounded up).
    public static func kilometresPerHour(centimetresPerSecond: Int32) -> Int64 {
        rounded(Int64(centimetresPerSecond) * 36, 1_000)
    }

    /// Thousandths of a knot (1 kn = 1,852 m/h), e.g. 514 cm/s → 9_991 (9.991 kn).
    public static func milliknots(centimetresPerSecond: Int32) -> Int64 {
        rounded(Int64(centimetresPerSecond) * 36_000, 1_852)
    }

    /// Whole degrees 0…359, e.g. 8_440 → 84, 35_960 → 0 (359.6° rounds to 360°, which is 0°).
    public static func degrees(centidegrees: Int32) -> Int64 {
        let whole = rounded(Int64(centidegrees), 100) % 360
        return whole < 0 ? whole + 360 : whole
    }

    /// Whole seconds since the epoch (floor), e.g. 1_750_507_289_999 ms → 1_750_507_289.
    public static func seconds(_ time: UTCTime) -> Int64 {
        let milliseconds = time.millisecondsSinceEpoch
        return milliseconds >= 0 ? milliseconds / 1_000 : -((-milliseconds + 999) / 1_000)
    }
}
