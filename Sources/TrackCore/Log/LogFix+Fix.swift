extension LogFix {
    /// A recorded fix at the log's precision, rounded half away from zero: millimetres to
    /// decimetres, mm/s to cm/s, the course to a whole degree (kept in centidegrees), e.g.
    /// altitude 545_449 mm → 5_454, course 84_449 millidegrees → 8_400; nil without a position.
    ///
    /// The course is logged to the degree, as vehicle trackers store it (Teltonika's AVL
    /// records and the GT06 protocol carry whole degrees): a 1 Hz course over ground wanders by
    /// degrees from one fix to the next, and its hundredths cost 0.8 bytes per fix in the log
    /// (docs/benchmarks.md, "Track log density").
    public init?(_ fix: borrowing Fix, accuracyMillimetres: Int64?, time: UTCTime) {
        guard let position = fix.position else { return nil }
        self.init(time: fix.time ?? time, position: LogPosition(position),
                  altitudeDecimetres: fix.altitudeMSLMillimetres.map { rounded(Int64($0), 100) },
                  speedCentimetresPerSecond: fix.speedMillimetresPerSecond.map { rounded(Int64($0), 10) },
                  courseCentidegrees: fix.courseMillidegrees.map { rounded(Int64($0), 1000) % 360 * 100 },
                  accuracyDecimetres: accuracyMillimetres.map { rounded($0, 100) }, mode: fix.mode)
    }
}

/// `value / divisor` rounded half away from zero, clamped to Int32.
private func rounded(_ value: Int64, _ divisor: Int64) -> Int32 {
    let half = divisor / 2
    return Int32(clamping: value >= 0 ? (value + half) / divisor : (value - half) / divisor)
}
