import TrackCore
import TrackIO

/// The daemon's answers on the control socket. A request is one line:
///
/// * `status` / `status json`: the live view for `trackctl status`;
/// * `where` / `where plain`: the current position (`48.117300°N, 11.516700°E` / `48.117300,11.516700`);
/// * `mark LABEL`: a waypoint at the current fix (label up to 64 bytes, may be empty);
/// * `privacy …`: show or change the permission state (ControlProtocol+Privacy.swift);
/// * `leds`: the LED lines now (`● fix  ○ status  ○ fence  ○ log`);
/// * `button short|long`: presses the simulated board's button (ControlProtocol+Board.swift);
/// * `doctor`: the first broken link from port to filter, and what to do about it;
/// * `fence list`: every fence's state and since when.
///
/// Every reply starts with `ok` or `error KIND: message` and ends with an empty line.
enum ControlProtocol {
    static func answer(_ request: Span<UInt8>, status: inout DaemonStatus, now: MonotonicTime, reply: inout ReplyBuffer) {
        var command = Words(request)
        let verb = command.next()
        if matches(verb, request, "status") {
            let argument = command.next()
            if matches(argument, request, "json") {
                reply.append("ok\n")
                status.writeJSON(to: &reply, now: now)
            } else if argument == nil {
                reply.append("ok\n")
                status.writeText(to: &reply, now: now)
            } else {
                reply.append("error usage: status [json]\n")
            }
        } else if matches(verb, request, "where") {
            answerWhere(plain: matches(command.next(), request, "plain"), status: status, now: now, reply: &reply)
        } else if matches(verb, request, "mark") {
            answerMark(label: command.rest(), request: request, status: &status, now: now, reply: &reply)
        } else if matches(verb, request, "privacy") {
            answerPrivacy(&command, request: request, status: &status, now: now, reply: &reply)
        } else if matches(verb, request, "leds") {
            answerLEDs(status: status, reply: &reply)
        } else if matches(verb, request, "button") {
            answerButton(command.next(), request: request, status: &status, reply: &reply)
        } else if matches(verb, request, "doctor") {
            Doctor.diagnose(status, now: now, reply: &reply)
        } else if matches(verb, request, "fence") && matches(command.next(), request, "list") {
            status.writeFenceList(to: &reply)
        } else {
            reply.append("error usage: unknown request (status, where, mark, privacy, leds, button, doctor, fence list)\n")
        }
        reply.append("\n")
    }

    /// `48.117300°N, 11.516700°E, 0.4s ago` (`approximate, 1 km grid` added in approximate mode),
    /// or `48.117300,11.516700` when plain; refused without a current, disclosed fix.
    static func answerWhere(plain: Bool, status: DaemonStatus, now: MonotonicTime, reply: inout ReplyBuffer) {
        var line = TextBuffer()
        let current: DisclosedPosition
        do {
            current = try status.currentPosition(now: now)
        } catch {
            status.write(error, doing: "no position is shown", to: &line)
            emit(&line, &reply)
            return
        }
        line.append("ok\n")
        if plain {
            appendPosition(&line, current.position, separator: ",", plain: true)
        } else {
            appendPosition(&line, current.position, separator: ", ")
            if current.disclosure == .approximate { line.append(" (approximate, 1 km grid)") }
            line.append(", ")
            appendDuration(&line, milliseconds: current.ageMilliseconds)
            line.append(" ago")
        }
        emit(&line, &reply)
    }

    /// `waypoint 3 at 48.117300°N, 11.516700°E`; the loop records it right after this answer
    /// (`Daemon.recordWaypoint`, the button's path too), under the same rules as `where`.
    static func answerMark(label: Range<Int>, request: Span<UInt8>, status: inout DaemonStatus, now: MonotonicTime,
                           reply: inout ReplyBuffer) {
        guard label.count <= 64 else {
            reply.append("error usage: a label has at most 64 bytes\n")
            return
        }
        var line = TextBuffer()
        let current: DisclosedPosition
        do {
            current = try status.currentPosition(now: now)
        } catch {
            status.write(error, doing: "no waypoint is recorded", to: &line)
            emit(&line, &reply)
            return
        }
        status.pendingWaypoint = WaypointLabel(request.extracting(label))
        line.append("ok\nwaypoint ")
        line.append(integer: Int64(status.waypoints + 1))
        line.append(" at ")
        appendPosition(&line, current.position, separator: ", ")
        if current.disclosure == .approximate { line.append(" (approximate, 1 km grid)") }
        emit(&line, &reply)
    }

    static func matches(_ word: Range<Int>?, _ request: Span<UInt8>, _ literal: StaticString) -> Bool {
        guard let word, word.count == literal.utf8CodeUnitCount else { return false }
        let start = literal.utf8Start
        for offset in 0..<word.count where request[word.lowerBound + offset] != start[offset] { return false }
        return true
    }
}

/// Splits a request line at spaces without allocating. Words are looked for in the first
/// 64 bytes (verbs and options); a `mark` label may run to the end of the line.
struct Words {
    let count: Int
    let spaces: UInt64
    var position = 0

    init(_ request: Span<UInt8>) {
        count = request.count
        var spaces: UInt64 = 0
        for index in 0..<min(request.count, 64) where request[index] == UInt8(ascii: " ") {
            spaces |= 1 << UInt64(index)
        }
        self.spaces = spaces
    }

    func isSpace(_ index: Int) -> Bool { index < 64 && spaces & (1 << UInt64(index)) != 0 }

    mutating func next() -> Range<Int>? {
        while position < count && isSpace(position) { position += 1 }
        guard position < count else { return nil }
        let start = position
        while position < count && !isSpace(position) { position += 1 }
        return start..<position
    }

    /// Everything after the current word, less one separating space.
    mutating func rest() -> Range<Int> {
        if position < count && isSpace(position) { position += 1 }
        return position..<count
    }
}
