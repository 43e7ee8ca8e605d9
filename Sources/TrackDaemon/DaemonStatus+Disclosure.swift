import TrackCore
import TrackIO

/// Why there is no position to show or mark, e.g. `.stale(ageMilliseconds: 480_000)`.
enum PositionRefusal: Error, Equatable {
    /// No fix has passed the filter since start.
    case noFix
    /// The permission withholds positions (the state says which).
    case notAllowed(PermissionState)
    /// The last good fix is older than `DaemonStatus.currentFixMilliseconds`.
    case stale(ageMilliseconds: Int64)
}

/// The current position as it may leave the daemon, and how old it is.
struct DisclosedPosition {
    /// The last good fix after `Fix.disclosed`: a position is always there.
    var fix: Fix
    var position: Coordinate
    var disclosure: Disclosure
    var ageMilliseconds: Int64
}

extension DaemonStatus {
    /// A good fix is current for 10 s: ten epochs of a 1 Hz receiver, two of a 0.2 Hz one.
    /// `where` and `mark` refuse an older one instead of passing it off as the present.
    static let currentFixMilliseconds: Int64 = 10_000

    /// The position `where`, `mark` and the button may use at `now`: the last good fix, if
    /// recent and if the permission lets a position out (snapped in approximate mode).
    func currentPosition(now: MonotonicTime) throws(PositionRefusal) -> DisclosedPosition {
        guard let fix = lastGoodFix, fix.position != nil, let at = lastGoodFixAt else { throw .noFix }
        let disclosure = disclosure(now: now)
        guard disclosure.allowsPosition else { throw .notAllowed(permission.state) }
        let age = now.milliseconds(since: at)
        guard age <= Self.currentFixMilliseconds else { throw .stale(ageMilliseconds: age) }
        let shown = fix.disclosed(disclosure)
        guard let position = shown.position else { throw .noFix }
        return DisclosedPosition(fix: shown, position: position, disclosure: disclosure, ageMilliseconds: age)
    }

    /// The control socket's error line for `refusal`, e.g. `error stale: the last fix is 8m00s
    /// old: the receiver has no fix now (trackctl status says why)`; `doing` names what was
    /// refused (`no position is shown`, `no waypoint is recorded`).
    func write(_ refusal: PositionRefusal, doing: StaticString, to line: inout TextBuffer) {
        switch refusal {
        case .noFix:
            line.append("error no-fix: no position yet: ")
            line.append(doing)
        case .notAllowed(let state):
            line.append("error not-allowed: tracking is ")
            line.append(permissionName(state))
            if state == .whenInUse { line.append(" and the tracker is not in use") }
            line.append(": ")
            line.append(doing)
            line.append(" (trackctl privacy)")
        case .stale(let age):
            line.append("error stale: the last fix is ")
            appendDuration(&line, milliseconds: age)
            line.append(" old and the receiver has no fix now: ")
            line.append(doing)
            line.append(" (trackctl status says why)")
        }
    }
}
