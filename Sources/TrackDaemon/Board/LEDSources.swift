import TrackCore
import TrackIO

/// What the LEDs show is made of: the receiver's state, the last good fix, the permission,
/// the storage, the fences and the events each LED acknowledges. `inputs(now:)` turns it into
/// the pattern engine's inputs, a pure function, so a test can drive the LED driver with any
/// state it likes.
struct LEDSources {
    var source = SourceStatus(path: "")
    var lastByteAt: MonotonicTime?
    var lastGoodFix: Fix?
    var lastGoodFixAt: MonotonicTime?
    var permission = Permission()
    var onTrip = false
    var gpio = GPIOStatus()
    var storageError = false
    var insideFence = false
    var lastFenceEventAt: MonotonicTime?
    var lastSyncAt: MonotonicTime?
    /// The receiver sleeps by plan (power save): its silence is shown as such.
    var receiverAsleep = false

    /// A receiver that sent nothing, or a fix not renewed, for this long counts as silent or
    /// without fix: 2.5 s, two and a half epochs of a 1 Hz receiver.
    static var staleMilliseconds: Int64 { 2_500 }

    /// Whether a trip detected from speed counts as "in use": only when the board has no
    /// in-use input (the input decides when there is one).
    var tripCounts: Bool { onTrip && !(gpio.isActive && gpio.hasInUseInput) }

    /// The LED inputs at `now`, and the first later instant at which they change by themselves
    /// (the receiver going quiet, a fix getting old), so the loop wakes for it. Allocates nothing.
    func inputs(now: MonotonicTime) -> (inputs: LEDInputs, changeAt: MonotonicTime?) {
        var changeAt: MonotonicTime?
        let stale = Self.staleMilliseconds * 1_000_000
        let receiverState: ReceiverLEDState
        if !source.isOpen, let error = source.lastError, isPortFailure(error) {
            receiverState = .portError
        } else if receiverAsleep {
            receiverState = .asleep
        } else if let lastByteAt, now.nanoseconds - lastByteAt.nanoseconds < stale {
            changeAt = lastByteAt.adding(nanoseconds: stale)
            if let fixAt = lastGoodFixAt, let fix = lastGoodFix, now.nanoseconds - fixAt.nanoseconds < stale,
               fix.mode == .twoD || fix.mode == .threeD {
                receiverState = fix.mode == .threeD ? .fix3D : .fix2D
                changeAt = earliest(changeAt, fixAt.adding(nanoseconds: stale))
            } else {
                receiverState = .noFix
            }
        } else {
            receiverState = .silent
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
        let inputs = LEDInputs(receiver: receiverState, permission: permissionState, storageError: storageError,
                               insideFence: insideFence, events: events)
        return (inputs, changeAt)
    }
}

/// True for the errors of a real port (open, configure, read, unplugged); a replay's end is not.
private func isPortFailure(_ error: SourceError) -> Bool {
    if case .endOfInput = error { return false }
    return true
}
