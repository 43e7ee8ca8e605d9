import TrackCore
import TrackIO

/// What one wake-up decides once and hands to every service: its time, the system clock read
/// with it, and what the permission lets out then. The daemon builds it at the start of each
/// wake-up (`Daemon.wake(_:)`) and again only when something it was made of changed: a fix
/// that started or ended a trip, a permission changed by a request, the button or a timer.
///
/// E.g. at 61 s, tracking `always` and precise: `disclosure` `.precise`, `fencesAllowed` true
/// (when fences are loaded), `mayLog` true, `utc` the receiver's time of the last fix once one
/// was logged since start.
struct Wake {
    /// The wake-up's one reading of the monotonic clock.
    var now: MonotonicTime
    /// The system clock read with `now` (CLOCK_REALTIME, ns since 1970).
    var realtimeNanoseconds: Int64
    /// What a position may become when it leaves the daemon: the log, status, `where`,
    /// waypoints, gpsd's clients, place names.
    var disclosure: Disclosure
    /// Whether fences may see the precise position (the permission allows it; never in
    /// approximate mode).
    var fencesAllowed: Bool
    /// Whether fixes may be logged.
    var mayLog: Bool
    /// Whether a trip detected from speed counts as "in use": only when the board has no
    /// in-use input (the input decides when there is one).
    var tripCounts: Bool
    /// The UTC time of records that are not fixes: the system clock's until this boot logged
    /// its first fix, the receiver's from then on (the log's rule: docs/log-format.md), so
    /// readers know which times a board without a real-time clock may have got wrong.
    var utc: UTCTime

    /// The wake-up at `now` for `permission` with the in-use input and trip state given;
    /// `recordTime` is the receiver's time once a fix was logged since start (else the system
    /// clock's is used). Allocates nothing.
    init(now: MonotonicTime, realtimeNanoseconds: Int64, permission: Permission, inUse: Bool, hasInUseInput: Bool,
         onTrip: Bool, recordTime: UTCTime?) {
        self.now = now
        self.realtimeNanoseconds = realtimeNanoseconds
        tripCounts = onTrip && !hasInUseInput
        disclosure = permission.disclosure(inUse: inUse, onTrip: tripCounts, now: now)
        fencesAllowed = permission.mayEvaluateFences(inUse: inUse, onTrip: tripCounts, now: now)
        mayLog = permission.mayLog(inUse: inUse, onTrip: tripCounts, now: now)
        utc = recordTime ?? UTCTime(millisecondsSinceEpoch: realtimeNanoseconds / 1_000_000)
    }
}
