import TrackCore
import TrackIO

/// Why there is no position to show or mark, e.g. `.stale(ageMilliseconds: 480_000)`.
enum PositionRefusal: Error, Equatable {
    /// No fix has passed the filter since start.
    case noFix
    /// The permission withholds positions (the state says which).
    case notAllowed(PermissionState)
    /// The last good fix is older than `FixPipeline.currentFixMilliseconds`.
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

/// The control socket's error line for `refusal`, e.g. `error stale: the last fix is 8m00s
/// old: the receiver has no fix now (trackctl status says why)`; `doing` names what was
/// refused (`no position is shown`, `no waypoint is recorded`).
func writeRefusal(_ refusal: PositionRefusal, doing: StaticString, to line: inout TextBuffer) {
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
