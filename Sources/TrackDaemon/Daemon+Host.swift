import TrackCore
import TrackIO

/// The daemon as the control service's host, and the status built from every service's facts.
extension Daemon: ControlHost where Source: ~Copyable {
    mutating func statusModel(_ wake: Wake) -> StatusModel {
        var daemon = process.facts
        // From the service's last wake-up: it is out of its place while it serves a request.
        (daemon.controlPath, daemon.controlRefused, daemon.controlDropped) = controlFacts
        daemon.wakeUps = loop.wakeUps
        return StatusModel(
            now: wake.now, startedAt: startedAt, daemon: daemon, receiver: receiver.facts, fixes: fixes.facts,
            privacy: state.facts(wake), waypoints: waypoints, log: trackLog.facts, gpio: board.status,
            fences: fences.facts(), places: places.facts(wake.disclosure), time: time.facts, gpsd: gpsd.facts)
    }

    mutating func currentPosition(_ wake: Wake) -> Result<DisclosedPosition, PositionRefusal> {
        fixes.currentPosition(wake, permission: state.permissionState)
    }

    mutating func placeWords(_ disclosure: Disclosure) -> PlaceWords? { places.shown(disclosure) }

    mutating func markWaypoint(_ label: WaypointLabel, _ wake: Wake) -> Result<(DisclosedPosition, number: Int), PositionRefusal> {
        recordWaypoint(label: label, wake).map { ($0, waypoints.count) }
    }

    mutating func changePrivacy(_ request: PermissionRequest, now: MonotonicTime) throws(PermissionError) {
        try state.apply(request, now: now)
    }

    mutating func pressButton(_ press: GPIOStatus.SimulatedPress, now: MonotonicTime) -> Bool {
        board.pressSimulated(press, now: now, &loop, releaseTimer: TimerID.simulatedRelease)
    }

    mutating func writeFenceList(to reply: inout ReplyBuffer) { fences.writeList(to: &reply) }

    mutating func answerReceiver(_ request: ReceiverRequest, now: MonotonicTime, reply: inout ReplyBuffer) {
        receiver.answer(request, now: now, reply: &reply)
    }

    /// The control socket's wake-up: the service is handed the daemon as its host.
    mutating func serveControl(now: MonotonicTime) {
        let ready = control?.readiness(loop, slots: Slot.control) ?? 0
        guard var service = control.take() else { return }
        service.serve(ready, host: &self, now: now)
        controlFacts = (service.path, service.refused, service.dropped)
        control = consume service
    }
}
