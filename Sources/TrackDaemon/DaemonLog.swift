import TrackCore
import TrackIO

extension LogWriterSettings {
    /// The writer settings of a `[log]` section, e.g. the defaults: /var/lib/trackd/log, 1 MiB
    /// segments, 24 h, 256 MiB quota, sync every 5 s, keyframe every 300 s.
    init(_ log: TrackdConfig.Log) {
        self.init(directory: log.directory, segmentByteLimit: Int(log.segmentSizeBytes),
                  segmentAgeLimitMilliseconds: log.segmentAgeMilliseconds, quotaBytes: Int(log.quotaBytes),
                  syncIntervalMilliseconds: log.syncIntervalMilliseconds,
                  keyframeIntervalMilliseconds: log.keyframeIntervalMilliseconds)
    }
}

extension LogFix {
    /// A recorded fix at the log's precision, rounded half away from zero: millimetres to
    /// decimetres, mm/s to cm/s, the course to a whole degree (kept in centidegrees), e.g.
    /// altitude 545_449 mm → 5_454, course 84_449 millidegrees → 8_400; nil without a position.
    ///
    /// The course is logged to the degree, as vehicle trackers store it (Teltonika's AVL
    /// records and the GT06 protocol carry whole degrees): a 1 Hz course over ground wanders by
    /// degrees from one fix to the next, and its hundredths cost 0.8 bytes per fix in the log
    /// (docs/benchmarks.md, "Track log density").
    init?(_ fix: borrowing Fix, accuracyMillimetres: Int64?, time: UTCTime) {
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

/// The first 8 bytes of the kernel's boot id (`/proc/sys/kernel/random/boot_id`, a UUID in hex)
/// as a little-endian integer, e.g. "0123456789ab…" → 0xefcdab8967452301; 0 when unreadable.
func kernelBootID() -> UInt64 {
    guard let text = try? FileDescriptor.readWholeFile("/proc/sys/kernel/random/boot_id", limit: 128) else { return 0 }
    var value: UInt64 = 0
    var nibbles = 0
    for byte in text where nibbles < 16 {
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: continue
        }
        // Byte i of the id (two nibbles, high first) goes to bits 8i…8i+7.
        let shift = UInt64(nibbles / 2 * 8 + (nibbles % 2 == 0 ? 4 : 0))
        value |= UInt64(digit) << shift
        nibbles += 1
    }
    return value
}

/// What the daemon does with the log writer, kept apart from the loop so the receiver path can
/// move the writer out and back without copying it (a copy would duplicate its buffers).
enum DaemonLog {
    /// Appends a recorded fix, after a gap record when the receiver was lost since the last one.
    static func record(_ fix: LogFix, into writer: inout LogWriter<PosixLogFiles>?, lostAt: inout UTCTime?,
                       now: MonotonicTime) {
        guard writer != nil else { return }
        if let from = lostAt {
            if from < fix.time { writer?.append(.gap(from: from, to: fix.time), now: now) }
            lostAt = nil
        }
        writer?.append(.fix(fix), now: now)
    }
}
