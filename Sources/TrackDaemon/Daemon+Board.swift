import TrackCore
import TrackIO

/// The board in the loop: button presses become waypoints and private-mode toggles, and the
/// LED timer is set to the driver's next edge, so the loop wakes at edges only.
extension Daemon where Source: ~Copyable {
    /// Inputs first (their presses change the status), then the LEDs. Allocates nothing.
    mutating func serviceBoard(now: MonotonicTime) {
        guard pipeline.status.gpio.isActive else { return }
        driver.readEdges(buttonReady: poller.isReady(Self.buttonSlot), inUseReady: poller.isReady(Self.inUseSlot),
                         now: now, status: &pipeline.status.gpio)
        while let press = driver.nextPress(now: now) {
            switch press {
            case .shortPress:
                pipeline.status.gpio.shortPresses += 1
                recordWaypoint(label: WaypointLabel(static: "button"), now: now)
            case .longPress:
                pipeline.status.gpio.longPresses += 1
                togglePrivate(now: now)
            }
        }
        if let press = pipeline.status.gpio.simulatedPress {
            pipeline.status.gpio.simulatedPress = nil
            // A press while the simulated finger is still down would lose its release.
            if !timers.isPending(Self.simulatedReleaseTimer), let release = driver.pressSimulated(press, now: now) {
                timers.schedule(Self.simulatedReleaseTimer, at: release)
            }
        }
        if let next = driver.showLEDs(&pipeline.status, now: now) {
            timers.schedule(Self.ledTimer, at: next)
        } else {
            timers.cancel(Self.ledTimer)
        }
    }

    /// Records a waypoint at the current fix: the one path for the button and `trackctl mark`,
    /// under the rules of `DaemonStatus.currentPosition` (not allowed, stale or no fix: nothing
    /// is recorded, the refusal is counted and shown). led-status acknowledges a recorded one.
    @discardableResult
    mutating func recordWaypoint(label: WaypointLabel, now: MonotonicTime) -> Bool {
        let current: DisclosedPosition
        do {
            current = try pipeline.status.currentPosition(now: now)
        } catch {
            pipeline.status.waypointsRefused += 1
            pipeline.status.lastWaypointRefusal = error
            return false
        }
        pipeline.status.waypoints += 1
        pipeline.status.lastWaypointLabel = label
        pipeline.status.lastWaypointRefusal = nil
        pipeline.status.gpio.waypointSavedAt = now
        var logLabel = LogLabel()
        for index in 0..<min(label.count, LogLabel.capacity) { _ = logLabel.append(label.bytes[index]) }
        appendToLog(.waypoint(time: current.fix.time ?? pipeline.status.utcNow, position: LogPosition(current.position),
                              label: logLabel), now: now)
        return true
    }

    /// The long press: private mode ↔ the allowed state before it; refused while restricted
    /// (or with nothing to go back to), which status shows.
    mutating func togglePrivate(now: MonotonicTime) {
        do {
            let change = try pipeline.status.permission.apply(.togglePrivate, now: now)
            pipeline.status.gpio.lastRefusal = nil
            pipeline.status.gpio.privacyToggledAt = now
            if change.changed { savePermission(now: now) }
        } catch {
            pipeline.status.gpio.lastRefusal = error
        }
    }
}

extension WaypointLabel {
    /// A label from a literal, e.g. `button` for waypoints marked with the button.
    init(static text: StaticString) {
        self.init()
        text.withUTF8Buffer { bytes in
            for index in 0..<min(bytes.count, 64) { self.bytes[index] = bytes[index] }
            count = min(bytes.count, 64)
        }
    }
}
