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

/// The first 8 bytes of the kernel's boot id (`/proc/sys/kernel/random/boot_id`, a UUID in hex)
/// as a little-endian integer, e.g. "0123456789ab…" → 0xefcdab8967452301; 0 when unreadable.
func kernelBootID() -> UInt64 {
    guard let text = try? FileDescriptor.readWholeFile("/proc/sys/kernel/random/boot_id", limit: 128) else { return 0 }
    var value: UInt64 = 0
    var nibbles = 0
    for byte in text where nibbles < 16 {
        // The dashes of the UUID are skipped.
        guard let digit = HexDigit.value(byte) else { continue }
        // Byte i of the id (two nibbles, high first) goes to bits 8i…8i+7.
        let shift = UInt64(nibbles / 2 * 8 + (nibbles % 2 == 0 ? 4 : 0))
        value |= UInt64(digit) << shift
        nibbles += 1
    }
    return value
}
