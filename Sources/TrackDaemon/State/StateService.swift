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
    /// Whether the journal was last told of a problem.
    var saidProblem = false

    /// The state read from `file` (a damaged one gives the safe default: not-determined, and
    /// says so), restricted when `restricted`.
    init(file: StateFile<Storage>, restricted: Bool, maxSpeedMillimetresPerSecond: Int64) {
        self.file = file
        let (stored, problem) = self.file.loadOrDefault()
        persisted = stored
        permission = Permission.atStartUp(stored: stored.permission, configRestricts: restricted)
        odometer = Odometer(totalMillimetres: stored.odometerMillimetres, maxSpeedMillimetresPerSecond: maxSpeedMillimetresPerSecond)
        self.problem = problem?.message
        // The builder says a damaged file at start-up.
        saidProblem = problem != nil
    }

    /// Applies a `trackctl privacy …` request or a long press; a refusal changes nothing.
    mutating func apply(_ request: PermissionRequest, now: MonotonicTime) throws(PermissionError) {
        if try permission.apply(request, now: now).changed { changed = true }
    }

    /// What status shows of the permission at `wake`, the odometer and the state file.
    func facts(_ wake: Wake) -> StatusModel.PrivacyFacts {
        StatusModel.PrivacyFacts(permission: permission, disclosure: wake.disclosure, mayLog: wake.mayLog,
                                 tripCounts: wake.tripCounts, stateProblem: problem,
                                 odometerMillimetres: odometer.totalMillimetres)
    }

    /// The permission's state, e.g. `.denied`.
    var permissionState: PermissionState { permission.state }

    /// The long press: private mode ↔ the allowed state before it; the refusal (restricted,
    /// nothing to go back to) when it changed nothing.
    mutating func toggle(now: MonotonicTime) -> PermissionError? {
        do {
            try apply(.togglePrivate, now: now)
            return nil
        } catch {
            return error
        }
    }

    /// Adds a recorded fix's `position` to the odometer (the length of the recorded track).
    mutating func addToOdometer(_ position: Coordinate, accuracyMillimetres: Int64, time: UTCTime) {
        _ = odometer.add(position, accuracyMillimetres: Int32(clamping: accuracyMillimetres),
                         timeMilliseconds: time.millisecondsSinceEpoch)
    }

    /// A reload: the odometer's plausibility limit, and `[privacy] restricted` when it changed.
    mutating func apply(_ plan: ReloadPlan) {
        odometer.maxSpeedMillimetresPerSecond = Int64(plan.config.filter.maxSpeedMillimetresPerSecond)
        if let restricted = plan.restricted { restrict(restricted) }
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
        guard (problem != nil) != saidProblem else { return }
        saidProblem = problem != nil
        var line = TextBuffer()
        line.append("state file: ")
        if let problem { line.append(string: problem) } else { line.append("saved again") }
        Journal.say(&line)
    }
}
