import TrackCore
import TrackIO

/// The control socket in the loop: each complete request is parsed into a `ControlRequest`,
/// applied here (a waypoint recorded, the permission changed, the simulated button pressed) and
/// answered from the services' own state. Nothing here allocates.
extension Daemon where Source: ~Copyable {
    mutating func serveControl(now: MonotonicTime) {
        guard control != nil else { return }
        control?.accept(loop, slots: Slot.control, now: now)
        for index in 0..<ControlServer.clientCapacity {
            guard let line = control?.request(index, loop, slots: Slot.control, now: now),
                  var reply = control?.reply else { continue }
            reply.removeAll()
            let request = line.withSpan { ControlRequest.parse($0) }
            answer(request, now: now, reply: &reply)
            control?.send(index, reply, now: now)
        }
        control?.expire(now: now)
        reloads.controlRefused = control?.server.refused ?? 0
        reloads.controlDropped = control?.server.dropped ?? 0
    }

    /// Applies `request` and writes its reply, ending with an empty line.
    mutating func answer(_ request: ControlRequest, now: MonotonicTime, reply: inout ReplyBuffer) {
        var line = TextBuffer()
        switch request {
        case .status(let json):
            reply.append("ok\n")
            let model = statusModel(now: now)
            if json { model.writeJSON(to: &reply, now: now) } else { model.writeText(to: &reply, now: now) }
        case .whereNow(let plain):
            answerWhere(plain: plain, now: now, line: &line)
            emit(&line, &reply)
        case .mark(let label):
            switch recordWaypoint(label: label, now: now) {
            case .failure(let refusal):
                writeRefusal(refusal, doing: "no waypoint is recorded", to: &line)
            case .success(let current):
                line.append("ok\nwaypoint ")
                line.append(integer: Int64(waypoints.count))
                line.append(" at ")
                appendPosition(&line, current.position, separator: ", ")
                if current.disclosure == .approximate { line.append(" (approximate, 1 km grid)") }
            }
            emit(&line, &reply)
        case .privacy(let change):
            answerPrivacy(change, now: now, line: &line)
            emit(&line, &reply)
        case .leds:
            let model = statusModel(now: now)
            if model.gpio.isActive {
                line.append("ok\n")
                appendLEDs(&line, board.gpio.leds)
            } else {
                line.append("error gpio: no LEDs (")
                model.writeBoardState(to: &line)
                line.append(")")
            }
            emit(&line, &reply)
        case .button(let press):
            if board.pressSimulated(press, now: now, &loop, releaseTimer: TimerID.simulatedRelease) {
                reply.append(press == .short ? "ok\nbutton pressed (short)\n" : "ok\nbutton held (long)\n")
            } else {
                reply.append("error gpio: only a simulated board's button can be pressed from here ([board] simulated = yes)\n")
            }
        case .doctor:
            Doctor.diagnose(statusModel(now: now), now: now, reply: &reply)
        case .fenceList:
            fences.writeList(to: &reply)
        case .refused(let message):
            reply.append(message)
        }
        reply.append("\n")
    }

    /// `48.117300°N, 11.516700°E, 0.4s ago` (`approximate, 1 km grid` added in approximate mode)
    /// and, when the gazetteer names it, the place on a second line (`in Tübingen,
    /// Baden-Wurttemberg, DE`), or `48.117300,11.516700` when plain; refused without a current,
    /// disclosed fix.
    mutating func answerWhere(plain: Bool, now: MonotonicTime, line: inout TextBuffer) {
        let current: DisclosedPosition
        do {
            current = try currentPosition(now: now)
        } catch {
            writeRefusal(error, doing: "no position is shown", to: &line)
            return
        }
        line.append("ok\n")
        if plain {
            appendPosition(&line, current.position, separator: ",", plain: true)
            return
        }
        appendPosition(&line, current.position, separator: ", ")
        if current.disclosure == .approximate { line.append(" (approximate, 1 km grid)") }
        line.append(", ")
        appendDuration(&line, milliseconds: current.ageMilliseconds)
        line.append(" ago")
        // The place on a line of its own, under the same disclosure as the position above it.
        if let words = places.shown(current.disclosure) {
            line.append(UInt8(ascii: "\n"))
            words.write(to: &line)
        }
    }

    /// Shows or changes the permission (the change is saved after this wake-up's requests).
    mutating func answerPrivacy(_ change: PermissionRequest?, now: MonotonicTime, line: inout TextBuffer) {
        if let change {
            do {
                try state.apply(change, now: now)
            } catch {
                line.append("error privacy: ")
                line.append(error.message)
                return
            }
        }
        line.append("ok\n")
        let mayLog = state.permission.mayLog(inUse: board.gpio.inUse, onTrip: tripCounts, now: now)
        StatusModel.writePrivacy(state.permission, mayLog: mayLog, to: &line, now: now)
    }

    /// The status model at `now`, from the services' own state.
    mutating func statusModel(now: MonotonicTime) -> StatusModel {
        var daemon = reloads
        daemon.wakeUps = loop.wakeUps
        let set = fences.monitor.fences
        let disclosure = disclosure(now: now)
        let lastEvent = fences.lastEvent.flatMap { event in
            event.fence < set.count ? (id: set.id(of: event.fence), transition: event.transition, time: event.time) : nil
        }
        // The id came from the fence image: its page need not stay resident.
        set.image.storage.releasePages()
        var model = StatusModel(
            now: now, startedAt: startedAt, daemon: daemon,
            receiver: StatusModel.ReceiverFacts(
                source: receiver.source.status, counters: receiver.core.counters, activity: receiver.activity,
                bytesRead: receiver.bytesRead, lastByteAt: receiver.lastByteAt),
            fixes: fixes,
            privacy: StatusModel.PrivacyFacts(
                permission: state.permission, disclosure: disclosure,
                mayLog: state.permission.mayLog(inUse: board.gpio.inUse, onTrip: tripCounts, now: now),
                tripCounts: tripCounts, stateProblem: state.problem, odometerMillimetres: state.odometer.totalMillimetres),
            waypoints: waypoints,
            log: StatusModel.LogFacts(
                directory: trackLog.settings.directory, status: trackLog.status, openError: trackLog.openError,
                quotaBytes: trackLog.quotaBytes, fileSystem: trackLog.fileSystem),
            gpio: board.gpio,
            fences: StatusModel.FenceFacts(
                count: set.count, file: fences.file, loadError: fences.loadError, inside: fences.inside,
                evaluated: fences.evaluated, events: fences.events, lastEvent: lastEvent, commands: fences.counters),
            places: StatusModel.PlaceFacts(
                enabled: places.settings.enabled, file: places.settings.file, problem: places.problem,
                shown: places.shown(disclosure), lookups: places.lookupCount, placeCount: places.table?.placeCount),
            time: StatusModel.TimeFacts(
                unit: time.unit, problem: time.problem, samples: time.samples,
                lastOffsetNanoseconds: time.lastOffsetNanoseconds))
        model.gpsd = gpsd?.facts()
        return model
    }

    /// The status model's log facts (the journal's advice uses them too).
    var logFacts: StatusModel.LogFacts {
        mutating get {
            StatusModel.LogFacts(directory: trackLog.settings.directory, status: trackLog.status, openError: trackLog.openError,
                                 quotaBytes: trackLog.quotaBytes, fileSystem: trackLog.fileSystem)
        }
    }
}
