/// The permission state machine: state, accuracy, a temporary full accuracy and the state to
/// return to from private mode, e.g. `Permission()` is `notDetermined`, precise.
///
/// A value: `apply` returns the change for the log, or a typed refusal and leaves it untouched.
public struct Permission: Equatable, Sendable {
    /// The authorization state.
    public var state: PermissionState
    /// The accuracy chosen for good (`precise --for` does not change it).
    public var accuracy: PermissionAccuracy
    /// End of a temporary full accuracy on the loop's monotonic clock; nil when none. It runs
    /// while the receiver is silent (the receiver's time would stand still) and is not stored: a
    /// temporary grant ends when trackd stops, as a phone's ends with the app's session.
    public var preciseUntil: MonotonicTime?
    /// The allowed state a toggle out of private mode returns to; nil when there is none.
    public var stateBeforePrivate: PermissionState?

    /// The shortest `precise --for`: 1 s.
    public static let minimumPreciseMilliseconds: Int64 = 1_000
    /// The longest `precise --for`: 24 h, so a forgotten command cannot mean "for good".
    public static let maximumPreciseMilliseconds: Int64 = 86_400_000

    /// A permission from its parts; `Permission()` is the first-boot default.
    public init(
        state: PermissionState = .notDetermined, accuracy: PermissionAccuracy = .precise,
        preciseUntil: MonotonicTime? = nil, stateBeforePrivate: PermissionState? = nil
    ) {
        self.state = state
        self.accuracy = accuracy
        self.preciseUntil = preciseUntil
        self.stateBeforePrivate = stateBeforePrivate
    }

    /// The permission at start-up: `restricted` when the config forbids, whatever was stored;
    /// a stored `restricted` the config no longer asks for becomes `notDetermined`. A temporary
    /// full accuracy never survives a restart.
    public static func atStartUp(stored: Permission, configRestricts: Bool) -> Permission {
        if configRestricts { return Permission(state: .restricted, accuracy: stored.accuracy) }
        if stored.state == .restricted { return Permission(accuracy: stored.accuracy) }
        var permission = stored
        permission.preciseUntil = nil
        return permission
    }

    /// The accuracy in force at `now`: precise while a `precise --for` runs (until, exclusive).
    public func effectiveAccuracy(now: MonotonicTime) -> PermissionAccuracy {
        if let preciseUntil, now < preciseUntil, state.isAllowed { return .precise }
        return accuracy
    }

    /// Whether a fix at `now` may be logged: always in `always`; in `whenInUse` while `inUse`
    /// (the input) or `onTrip` (a `TripDetector`); never otherwise. Accuracy does not stop
    /// logging (approximate logs snapped positions); `now` is taken so both checks read one clock.
    public func mayLog(inUse: Bool, onTrip: Bool, now: MonotonicTime) -> Bool {
        switch state {
        case .always: true
        case .whenInUse: inUse || onTrip
        case .notDetermined, .restricted, .denied: false
        }
    }

    /// Whether fences may be evaluated at `now`: as `mayLog`, and never in approximate accuracy.
    public func mayEvaluateFences(inUse: Bool, onTrip: Bool, now: MonotonicTime) -> Bool {
        mayLog(inUse: inUse, onTrip: onTrip, now: now) && effectiveAccuracy(now: now) == .precise
    }

    /// Ends a temporary full accuracy once `now` reaches it; returns the change to log, if any.
    public mutating func expire(now: MonotonicTime) -> PermissionChange? {
        guard let preciseUntil, now >= preciseUntil else { return nil }
        let old = self
        self.preciseUntil = nil
        return PermissionChange(old: old, new: self)
    }

    /// Applies `request` at `now`, e.g. `.deny` from `always` → denied, remembering `always`.
    /// Returns the change (old == new when it changed nothing) or throws and changes nothing.
    public mutating func apply(_ request: PermissionRequest, now: MonotonicTime) throws(PermissionError) -> PermissionChange {
        guard state != .restricted else { throw .restricted }
        let old = self
        var new = self
        switch request {
        case .allowAlways: new.state = .always
        case .allowWhenInUse: new.state = .whenInUse
        case .deny: new.enterPrivate()
        case .approximate:
            new.accuracy = .approximate
            new.preciseUntil = nil
        case .preciseForGood:
            new.accuracy = .precise
            new.preciseUntil = nil
        case .precise(let milliseconds):
            guard state.isAllowed else { throw .preciseNeedsAllowedState(state) }
            guard accuracy == .approximate else { throw .alreadyPrecise }
            guard milliseconds >= Self.minimumPreciseMilliseconds, milliseconds <= Self.maximumPreciseMilliseconds
            else { throw .durationOutOfRange(milliseconds: milliseconds) }
            // Saturate: a clock gone wild must not trap the daemon.
            new.preciseUntil = now.adding(milliseconds: milliseconds)
        case .togglePrivate:
            if state == .denied {
                guard let previous = stateBeforePrivate else { throw .nothingToRestore }
                new.state = previous
            } else {
                new.enterPrivate()
            }
        }
        if new.state == .denied { new.preciseUntil = nil }
        self = new
        return PermissionChange(old: old, new: new)
    }

    /// Private mode, remembering an allowed state to come back to (a second `deny` keeps it).
    private mutating func enterPrivate() {
        if state.isAllowed { stateBeforePrivate = state }
        if state == .notDetermined { stateBeforePrivate = nil }
        state = .denied
    }
}

/// One accepted request or expiry: the permission before and after, e.g. for the log record.
public struct PermissionChange: Equatable, Sendable {
    /// Before.
    public var old: Permission
    /// After.
    public var new: Permission

    /// The pair.
    public init(old: Permission, new: Permission) {
        self.old = old
        self.new = new
    }

    /// True when the state, accuracy or expiry changed.
    public var changed: Bool { old != new }
}

extension Permission {
    /// The position that may leave the core at `now`: `coordinate` as is in precise accuracy,
    /// its `ApproximateGrid` cell centre in approximate, e.g. 48.1173°N → 48.115°N.
    public func snap(_ coordinate: Coordinate, now: MonotonicTime) -> Coordinate {
        effectiveAccuracy(now: now) == .precise ? coordinate : ApproximateGrid.snap(coordinate)
    }
}
