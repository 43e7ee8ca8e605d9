import TrackCore
import TrackIO

/// `privacy …` on the control socket: show or change the permission state.
///
/// `privacy` · `privacy allow always|when-in-use` · `privacy deny` · `privacy approximate` ·
/// `privacy precise [--for DURATION]` (DURATION like `30m`, `2h`, `90s`).
extension ControlProtocol {
    static func answerPrivacy(_ command: inout Words, request: Span<UInt8>, status: inout DaemonStatus, reply: inout ReplyBuffer) {
        let verb = command.next()
        let argument = command.next()
        let now = status.utcNow
        let change: PermissionRequest
        if verb == nil {
            reply.append("ok\n")
            var line = TextBuffer()
            status.writePrivacy(to: &line, now: now)
            emit(&line, &reply)
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
            guard let word = command.next(), let milliseconds = duration(request.extracting(word)) else {
                reply.append("error usage: precise --for DURATION, e.g. 30m, 2h or 90s\n")
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

    /// `90s`, `30m`, `2h` (or plain seconds) in milliseconds; nil when malformed.
    static func duration(_ text: Span<UInt8>) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        var unit: Int64 = 1000
        for index in text.indices {
            let byte = text[index]
            if byte >= 48 && byte <= 57 && unit == 1000 && digits < 9 {
                value = value * 10 + Int64(byte - 48)
                digits += 1
            } else if index == text.count - 1 && digits > 0 {
                switch byte {
                case UInt8(ascii: "s"): unit = 1000
                case UInt8(ascii: "m"): unit = 60_000
                case UInt8(ascii: "h"): unit = 3_600_000
                default: return nil
                }
            } else {
                return nil
            }
        }
        return digits > 0 ? value * unit : nil
    }
}

extension DaemonStatus {
    /// `always, precise` / `not-determined (nothing is logged)` / `when-in-use, approximate until …`.
    func writePrivacy(to line: inout TextBuffer, now: UTCTime) {
        line.append(permissionName(permission.state))
        line.append(", ")
        line.append(permission.effectiveAccuracy(now: now) == .precise ? "precise" : "approximate (1 km grid, no fences)")
        if let until = permission.preciseUntil, until > now {
            line.append(" until ")
            until.write(to: &line)
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
