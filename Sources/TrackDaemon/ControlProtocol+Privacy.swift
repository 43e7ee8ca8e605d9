import TrackCore
import TrackIO

/// `privacy …` on the control socket: show or change the permission state.
///
/// `privacy` · `privacy allow always|when-in-use` · `privacy deny` · `privacy approximate` ·
/// `privacy precise [--for DURATION]` (DURATION one word with its unit: `90s`, `30m`, `2h`).
extension ControlProtocol {
    static func answerPrivacy(_ command: inout Words, request: Span<UInt8>, status: inout DaemonStatus, now: MonotonicTime,
                              reply: inout ReplyBuffer) {
        let verb = command.next()
        let argument = command.next()
        // Every form is at most two words, `precise --for D` three: anything more is a typo.
        let extra = matches(argument, request, "--for") ? nil : command.next()
        let change: PermissionRequest
        if verb == nil {
            reply.append("ok\n")
            var line = TextBuffer()
            status.writePrivacy(to: &line, now: now)
            emit(&line, &reply)
            return
        } else if extra != nil {
            reply.append("error usage: privacy [allow always|allow when-in-use|deny|approximate|precise [--for DURATION]]\n")
            return
        } else if matches(verb, request, "allow") && matches(argument, request, "always") {
            change = .allowAlways
        } else if matches(verb, request, "allow") && matches(argument, request, "when-in-use") {
            change = .allowWhenInUse
        } else if matches(verb, request, "deny") && argument == nil {
            change = .deny
        } else if matches(verb, request, "approximate") && argument == nil {
            change = .approximate
        } else if matches(verb, request, "precise") && argument == nil {
            change = .preciseForGood
        } else if matches(verb, request, "precise") && matches(argument, request, "--for") {
            // `--for 1 m` must not be read as one second: the unit belongs to the number's word.
            guard let word = command.next(), command.next() == nil,
                  let milliseconds = duration(request.extracting(word)) else {
                reply.append("error usage: precise --for DURATION: a number and its unit in one word, e.g. 90s, 30m or 2h\n")
                return
            }
            change = .precise(forMilliseconds: milliseconds)
        } else {
            reply.append("error usage: privacy [allow always|allow when-in-use|deny|approximate|precise [--for DURATION]]\n")
            return
        }
        do {
            let result = try status.permission.apply(change, now: now)
            if result.changed { status.permissionChanged = true }
            reply.append("ok\n")
            var line = TextBuffer()
            status.writePrivacy(to: &line, now: now)
            emit(&line, &reply)
        } catch {
            reply.append("error privacy: ")
            reply.append(error.message)
            reply.append("\n")
        }
    }

    /// `90s`, `30m`, `2h` in milliseconds; nil without a unit, with another unit or when
    /// malformed (`1 m` arrives as two words and is refused before this).
    static func duration(_ text: Span<UInt8>) -> Int64? {
        guard text.count >= 2 else { return nil }
        let unit: Int64
        switch text[text.count - 1] {
        case UInt8(ascii: "s"): unit = 1000
        case UInt8(ascii: "m"): unit = 60_000
        case UInt8(ascii: "h"): unit = 3_600_000
        default: return nil
        }
        var value: Int64 = 0
        for index in 0..<(text.count - 1) {
            let byte = text[index]
            guard byte >= 48 && byte <= 57 && index < 9 else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        return value * unit
    }
}

extension DaemonStatus {
    /// `always, precise` / `not-determined (nothing is logged)` / `when-in-use, approximate until …`.
    func writePrivacy(to line: inout TextBuffer, now: MonotonicTime) {
        line.append(permissionName(permission.state))
        line.append(", ")
        line.append(permission.effectiveAccuracy(now: now) == .precise ? "precise" : "approximate (1 km grid, no fences)")
        if let until = permission.preciseUntil, until > now {
            line.append(" for ")
            appendDuration(&line, milliseconds: until.milliseconds(since: now))
            line.append(" more")
        }
        if !permission.mayLog(inUse: gpio.inUse, onTrip: tripCounts, now: now) {
            line.append(permission.state == .whenInUse ? " (logging on trips only)" : " (nothing is logged)")
        }
    }

    /// The best UTC time the daemon has: the receiver's, else the system clock's.
    var utcNow: UTCTime { lastFix?.time ?? SystemClock.realtime() }
}

/// The state's name as `trackctl` spells it.
func permissionName(_ state: PermissionState) -> StaticString {
    switch state {
    case .notDetermined: "not-determined"
    case .restricted: "restricted"
    case .denied: "denied"
    case .whenInUse: "when-in-use"
    case .always: "always"
    }
}
