import TrackCore
import TrackIO

/// The odometer's trips to the state file: at most every 30 s while it grows, and at exit.
/// The file never takes a smaller value (StateFile keeps the largest), so a power cut loses
/// at most 30 s of distance and never goes backwards.
extension Daemon where Source: ~Copyable {
    /// Saves when the odometer grew and 30 s passed since the last save; otherwise sets the
    /// timer for when it will be due.
    mutating func saveOdometerIfDue(now: MonotonicTime) {
        guard pipeline.status.odometer.totalMillimetres > persisted.odometerMillimetres else {
            timers.cancel(Self.odometerTimer)
            return
        }
        if StateFile<PosixStateFileStorage>.isOdometerSaveDue(lastSave: odometerSavedAt, now: now) {
            saveOdometer(now: now)
        } else if let last = odometerSavedAt {
            timers.schedule(Self.odometerTimer,
                            at: last.adding(milliseconds: StateFile<PosixStateFileStorage>.odometerSaveIntervalMilliseconds))
        }
    }

    /// Saves the state file with the odometer now (exit, or due).
    mutating func saveOdometer(now: MonotonicTime) {
        guard pipeline.status.odometer.totalMillimetres > persisted.odometerMillimetres else { return }
        odometerSavedAt = now
        savePermission(now: now)
    }
}
