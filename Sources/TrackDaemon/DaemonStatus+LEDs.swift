import TrackCore
import TrackIO

/// What the LEDs show, derived from the status: a pure function of the status and `now`.
extension DaemonStatus {
    /// Whether a trip detected from speed counts as "in use": only when the board has no
    /// in-use input (the input decides when there is one).
    var tripCounts: Bool { onTrip && !(gpio.isActive && gpio.hasInUseInput) }

    /// What a position may become when it leaves the daemon at `now` (status, where, waypoints,
    /// the log): the permission with the in-use input and the trip state.
    func disclosure(now: MonotonicTime) -> Disclosure {
        permission.disclosure(inUse: gpio.inUse, onTrip: tripCounts, now: now)
    }

    /// A receiver that sent nothing, or a fix not renewed, for this long counts as silent or
    /// without fix: 2.5 s, two and a half epochs of a 1 Hz receiver.
    static let ledStaleMilliseconds: Int64 = 2_500

    /// The LED inputs at `now`, and the first later instant at which they change by themselves
    /// (the receiver going quiet, a fix getting old), so the loop wakes for it. Allocates nothing.
    func ledInputs(now: MonotonicTime) -> (inputs: LEDInputs, changeAt: MonotonicTime?) {
        var changeAt: MonotonicTime?
        let stale = Self.ledStaleMilliseconds * 1_000_000
        let receiver: ReceiverLEDState
        if !source.isOpen, let error = source.lastError, isPortFailure(error) {
            receiver = .portError
        } else if let lastByteAt, now.nanoseconds - lastByteAt.nanoseconds < stale {
            changeAt = lastByteAt.adding(nanoseconds: stale)
            if let fixAt = lastGoodFixAt, let fix = lastGoodFix, now.nanoseconds - fixAt.nanoseconds < stale,
               fix.mode == .twoD || fix.mode == .threeD {
                receiver = fix.mode == .threeD ? .fix3D : .fix2D
                changeAt = earliest(changeAt, fixAt.adding(nanoseconds: stale))
            } else {
                receiver = .noFix
            }
        } else {
            receiver = .silent
        }
        let permissionState: PermissionLEDState
        switch permission.state {
        case .notDetermined: permissionState = .notDetermined
        case .restricted: permissionState = .restricted
        case .denied: permissionState = .denied
        case .whenInUse: permissionState = .whenInUse(inUse: gpio.inUse || tripCounts)
        case .always: permissionState = .always
        }
        let events = LEDEvents(waypointSaved: gpio.waypointSavedAt, privacyToggled: gpio.privacyToggledAt,
                               fenceCrossed: lastFenceEventAt, logSynced: lastSyncAt)
        let inputs = LEDInputs(receiver: receiver, permission: permissionState, storageError: storageError,
                               insideFence: insideFence, events: events)
        return (inputs, changeAt)
    }
}

/// True for the errors of a real port (open, configure, read, unplugged); a replay's end is not.
private func isPortFailure(_ error: SourceError) -> Bool {
    if case .endOfInput = error { return false }
    return true
}
