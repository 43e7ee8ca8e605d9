import TrackCore
import TrackIO

/// The stderr line that says a sync made records durable (`[log] announce-syncs = yes`), e.g.
/// `trackd: log synced: 42 records durable, last fix 2026-05-30T12:00:41.000Z`. The count is of
/// records made durable since trackd started; "last fix -" before any fix was synced. A power-cut
/// test takes every fix up to that time as a promise the log must keep.
enum SyncAnnouncement {
    /// Writes the line for `status`, newline included, into `line` (no heap: a stack buffer).
    static func write(_ status: LogWriterStatus, to line: inout TextBuffer) {
        line.append("trackd: log synced: ")
        line.append(integer: Int64(status.durableRecordCount))
        line.append(" records durable, last fix ")
        if let time = status.lastDurableFixTime {
            time.write(to: &line)
        } else {
            line.append(UInt8(ascii: "-"))
        }
        line.append(UInt8(ascii: "\n"))
    }
}

extension Daemon where Source: ~Copyable {
    /// Announces on stderr a sync made since the last announcement, when announcing is on
    /// (`announcedSyncCount` not nil). Called at the end of every wake-up and after the final
    /// sync, so syncs made by a full hold are announced as well as the timer's.
    mutating func announceSyncIfNew() {
        guard let announced = announcedSyncCount, let status = logWriter?.status,
              status.syncCount != announced else { return }
        announcedSyncCount = status.syncCount
        var line = TextBuffer()
        SyncAnnouncement.write(status, to: &line)
        line.withBytes { bytes in
            bytes.withUnsafeBytes { raw in try? FileDescriptor.standardError.writeAll(raw) }
        }
    }
}
