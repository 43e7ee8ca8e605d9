import TrackCore
import TrackIO

/// What survives power cuts: the permission and the odometer, in the state file (written
/// atomically: temp file, fsync, rename, fsync of the directory). The permission is saved when
/// it changes, the odometer at most every 30 s while it grows and at exit; a failed save is
/// shown (status, doctor, the journal) and the next change tries again. No allocation per fix.
struct StateService<Storage: StateFileStorage> {
    var permission: Permission
    var odometer: Odometer
    var file: StateFile<Storage>
    /// What the file holds now.
    var persisted: PersistedState
    /// Why the file could not be read at start or written since, nil when all is well.
    var problem: String?
    /// When the odometer was last saved.
    var odometerSavedAt: MonotonicTime?
    /// Set when the permission changed and the file is not yet saved.
    var changed = false

    /// The state read from `file` (a damaged one gives the safe default: not-determined, and
    /// says so), restricted when `restricted`.
    init(file: StateFile<Storage>, restricted: Bool, maxSpeedMillimetresPerSecond: Int64) {
        self.file = file
        let (stored, problem) = self.file.loadOrDefault()
        persisted = stored
        permission = Permission.atStartUp(stored: stored.permission, configRestricts: restricted)
        odometer = Odometer(totalMillimetres: stored.odometerMillimetres, maxSpeedMillimetresPerSecond: maxSpeedMillimetresPerSecond)
        self.problem = problem?.message
    }

    /// Applies a `trackctl privacy …` request or a long press; a refusal changes nothing.
    mutating func apply(_ request: PermissionRequest, now: MonotonicTime) throws(PermissionError) {
        if try permission.apply(request, now: now).changed { changed = true }
    }

    /// `[privacy] restricted` changed by a reload: on, tracking is forbidden at once; off, the
    /// tracker is not-determined again (nothing is logged until someone allows it).
    mutating func restrict(_ restricted: Bool) {
        permission = restricted ? Permission(state: .restricted, accuracy: permission.accuracy)
            : Permission(accuracy: permission.accuracy)
        changed = true
    }

    /// Ends a `precise --for` whose time has come (monotonic clock, fixes or not) and keeps the
    /// loop's timer at its end.
    mutating func expirePrecise(now: MonotonicTime, _ loop: inout EventLoop, timer: Int) {
        if permission.expire(now: now) != nil { changed = true }
        if let until = permission.preciseUntil { loop.schedule(timer, at: until) } else { loop.cancel(timer) }
    }

    /// Saves the file if the permission changed; returns the states before and after for the
    /// log's permission record when the state (not only the accuracy) changed.
    mutating func commit() -> (old: PermissionState, new: PermissionState)? {
        guard changed else { return nil }
        changed = false
        let old = persisted.permission.state
        save()
        return old != permission.state ? (old, permission.state) : nil
    }

    /// Saves when the odometer grew and 30 s passed since the last save; otherwise keeps the
    /// timer for when it will be due.
    mutating func saveOdometerIfDue(now: MonotonicTime, _ loop: inout EventLoop, timer: Int) {
        guard odometer.totalMillimetres > persisted.odometerMillimetres else {
            loop.cancel(timer)
            return
        }
        if StateFile<Storage>.isOdometerSaveDue(lastSave: odometerSavedAt, now: now) {
            saveOdometer(now: now)
        } else if let last = odometerSavedAt {
            loop.schedule(timer, at: last.adding(milliseconds: StateFile<Storage>.odometerSaveIntervalMilliseconds))
        }
    }

    /// Saves the odometer now if it grew (due, or at exit).
    mutating func saveOdometer(now: MonotonicTime) {
        guard odometer.totalMillimetres > persisted.odometerMillimetres else { return }
        odometerSavedAt = now
        save()
    }

    private mutating func save() {
        persisted.permission = permission
        persisted.odometerMillimetres = odometer.totalMillimetres
        persisted.saveCount &+= 1
        do {
            try file.save(persisted)
            problem = nil
        } catch {
            problem = error.message
        }
    }
}
