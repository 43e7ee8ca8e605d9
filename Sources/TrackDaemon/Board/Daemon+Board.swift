import TrackCore
import TrackIO

/// The board in the loop: button presses become waypoints and private-mode toggles, and the
/// LEDs show what the services say, their timer set to the next edge. Allocates nothing.
extension Daemon where Source: ~Copyable {
    /// Inputs first (their presses change the state), then the LEDs.
    mutating func serviceBoard(now: MonotonicTime) {
        guard board.gpio.isActive else { return }
        board.readInputs(loop, button: Slot.button, inUse: Slot.inUse, now: now)
        while let press = board.nextPress(now: now) {
            switch press {
            case .shortPress: recordWaypoint(label: WaypointLabel(static: "button"), now: now)
            case .longPress: togglePrivate(now: now)
            }
        }
        commitPermission(now: now)
        let (inputs, changeAt) = ledSources.inputs(now: now)
        board.show(inputs, changeAt: changeAt, now: now, &loop, timer: TimerID.leds)
    }

    /// The long press: private mode ↔ the allowed state before it; refused while restricted
    /// (or with nothing to go back to), which status shows.
    mutating func togglePrivate(now: MonotonicTime) {
        do {
            try state.apply(.togglePrivate, now: now)
            board.gpio.lastRefusal = nil
            board.gpio.privacyToggledAt = now
        } catch {
            board.gpio.lastRefusal = error
        }
    }

    /// What the LEDs show comes from, taken from the services at `now`.
    var ledSources: LEDSources {
        mutating get {
            LEDSources(source: receiver.source.status, lastByteAt: receiver.lastByteAt, lastGoodFix: fixes.lastGoodFix,
                       lastGoodFixAt: fixes.lastGoodFixAt, permission: state.permission, onTrip: fixes.onTrip, gpio: board.gpio,
                       storageError: trackLog.storageError, insideFence: fences.inside > 0,
                       lastFenceEventAt: fences.lastEventAt, lastSyncAt: trackLog.status.lastSync)
        }
    }
}
