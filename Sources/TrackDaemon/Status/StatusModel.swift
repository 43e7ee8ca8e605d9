import TrackCore
import TrackIO

/// Everything `trackctl status`, `status --json` and `doctor` report, built on request from the
/// services' own state (`Daemon.statusModel(now:)`): a snapshot of values, no engine in it and
/// nothing posted into it. The renderers (`StatusModel+Text`, `+JSON`, `Doctor`) are pure
/// functions of it, so a test can build one by hand. Building it allocates nothing (strings are
/// shared, not copied).
struct StatusModel {
    /// The wake-up it describes and when trackd started.
    var now: MonotonicTime
    var startedAt: MonotonicTime
    var daemon = DaemonFacts()
    var receiver: ReceiverFacts
    var fixes: FixPipeline
    var privacy: PrivacyFacts
    var waypoints = WaypointFacts()
    var log: LogFacts
    var gpio: GPIOStatus
    var fences: FenceFacts
    /// nil when the gpsd service is off.
    var gpsd: GpsdFacts? = nil
    var places: PlaceFacts
    var time = TimeFacts()

    /// The configuration, reloads and the control socket.
    struct DaemonFacts {
        var configPath = ""
        var reloads = 0
        var lastReloadError: String?
        /// Keys the last reload changed that take effect only at a restart, e.g. `control.socket`.
        var reloadNeedsRestart: String?
        var controlPath = ""
        var controlRefused = 0
        var controlDropped = 0
        var wakeUps = 0
    }

    /// The source and what the NMEA core made of its bytes.
    struct ReceiverFacts {
        var source: SourceStatus
        var counters: NMEACounters
        var activity: RecentActivity
        var bytesRead: Int
        var lastByteAt: MonotonicTime?
    }

    /// The permission, what it lets out now, the odometer and the state file.
    struct PrivacyFacts {
        var permission: Permission
        var disclosure: Disclosure
        var mayLog: Bool
        /// Whether a trip detected from speed counts as "in use" (no in-use input on the board).
        var tripCounts: Bool
        var stateProblem: String?
        var odometerMillimetres: Int64
    }

    /// Waypoints recorded and refused since start.
    struct WaypointFacts {
        var count = 0
        var lastLabel = WaypointLabel()
        var refused = 0
        var lastRefusal: PositionRefusal?

        /// Counts a waypoint recorded with `label`, or refused.
        mutating func note(_ label: WaypointLabel, _ result: Result<DisclosedPosition, PositionRefusal>) {
            switch result {
            case .success:
                count += 1
                lastLabel = label
                lastRefusal = nil
            case .failure(let refusal):
                refused += 1
                lastRefusal = refusal
            }
        }
    }

    /// The track log.
    struct LogFacts {
        var directory: String
        var status: LogWriterStatus
        var openError: String?
        var quotaBytes: Int
        var fileSystem: FileSystemInfo?

        /// True while the log cannot be written.
        var storageError: Bool { status.storageError || openError != nil }
    }

    /// The fences and what they did.
    struct FenceFacts {
        var count: Int
        var file: String
        var loadError: String?
        var inside: Int
        var evaluated: Bool
        var events: Int
        /// The last event: the fence's id, what happened and when.
        var lastEvent: (id: String, transition: FenceTransition, time: UTCTime)?
        var commands: FenceCommandCounters
    }

    /// The gazetteer and the name of the position.
    struct PlaceFacts {
        /// False: `[places] enabled = no`.
        var enabled: Bool
        var file: String
        /// Why there is no gazetteer; nil when it is mapped (or names are off).
        var problem: String?
        /// The name as the disclosure in force lets it out; nil when none may be shown.
        var shown: PlaceWords?
        var lookups: Int
        var placeCount: Int?
    }

    /// Accepted sentences per second over the last 5 s, in tenths.
    var sentencesPerSecondTenths: Int {
        receiver.activity.sentencesPerSecondTenths(overLast: Doctor.silenceMilliseconds, now: now)
    }

    /// Milliseconds since start.
    var uptimeMilliseconds: Int64 { now.milliseconds(since: startedAt) }
}
