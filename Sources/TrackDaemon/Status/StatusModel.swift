import TrackCore
import TrackIO

/// Everything `trackctl status`, `status --json` and `doctor` report, built on request from
/// the services' own facts (`Daemon.statusModel`): a snapshot of values, no engine in it and
/// nothing posted into it. Each section declares its facts once (`report(to:)`, through a
/// `StatusReport`) and the text and the JSON are both rendered from that declaration; doctor
/// reads the same values. A test can build one by hand. Building it allocates nothing.
struct StatusModel {
    /// The wake-up it describes and when trackd started.
    var now: MonotonicTime
    var startedAt: MonotonicTime
    var daemon = DaemonFacts()
    var receiver: ReceiverFacts
    var fixes: FixFacts
    var privacy: PrivacyFacts
    var waypoints = WaypointFacts()
    var log: LogFacts
    var gpio: GPIOStatus
    var fences: FenceFacts
    var places: PlaceFacts
    var time = TimeFacts()
    /// nil when the gpsd service is off.
    var gpsd: GpsdFacts? = nil

    /// Every section, in the order the text shows them.
    func report(to report: inout StatusReport) {
        daemon.report(to: &report, uptimeMilliseconds: now.milliseconds(since: startedAt), fencesLoadError: fences.loadError)
        receiver.report(to: &report, now: now)
        fixes.reportFix(to: &report, privacy, now: now)
        places.report(to: &report, privacy)
        time.report(to: &report)
        fixes.reportFilter(to: &report)
        privacy.report(to: &report, notAllowed: fixes.notAllowed, now: now)
        fixes.reportSampling(to: &report, waypoints)
        log.report(to: &report, now: now)
        gpio.report(to: &report)
        report.line("odometer")
        report.words { appendDistance(&$0, millimetres: privacy.odometerMillimetres) }
        report.fixed("odometer", privacy.odometerMillimetres, decimals: 3, shown: .json)
        fences.report(to: &report)
        GpsdFacts.report(gpsd, to: &report)
        daemon.reportControl(to: &report)
    }

    /// `trackctl status`: a line per section.
    func writeText(to reply: inout ReplyBuffer, now: MonotonicTime) {
        var text = StatusReport(.text, reply)
        report(to: &text)
        reply = text.finish()
    }

    /// `status json`: one JSON object on one line.
    func writeJSON(to reply: inout ReplyBuffer, now: MonotonicTime) {
        var json = StatusReport(.json, reply)
        report(to: &json)
        reply = json.finish()
    }

    /// The configuration, reloads and the control socket.
    struct DaemonFacts {
        var configPath = ""
        var reloads = 0
        var lastReloadError: String?
        /// Keys the last reload changed that take effect only at a restart, e.g. `controller.socket`.
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
        /// What receiver control knows and did (identity, commands, baud, sleep).
        var controller: ReceiverControl

        /// Accepted sentences per second over the last 5 s, in tenths.
        func sentencesPerSecondTenths(now: MonotonicTime) -> Int {
            activity.sentencesPerSecondTenths(overLast: Doctor.silenceMilliseconds, now: now)
        }
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
    var sentencesPerSecondTenths: Int { receiver.sentencesPerSecondTenths(now: now) }
}

extension StatusModel.DaemonFacts {
    /// `trackd    up 12.0s, config /etc/trackd/trackd.conf, reloaded 2x`, and beneath it a
    /// rejected reload, keys waiting for a restart and fences that did not load.
    func report(to report: inout StatusReport, uptimeMilliseconds: Int64,
                                                  fencesLoadError: String?) {
        report.line("trackd")
        report.duration("uptime", milliseconds: uptimeMilliseconds, "up ")
        report.string("config", configPath, ", config ")
        report.count("reloads", reloads, ", reloaded ", "x", shown: reloads > 0 ? .both : .json)
        if let lastReloadError {
            report.indented()
            report.string("lastReloadError", lastReloadError, "last reload rejected: ")
        }
        if let reloadNeedsRestart {
            report.indented()
            report.string("needsRestart", reloadNeedsRestart, "changed, applied when trackd restarts: ")
        }
        if let fencesLoadError {
            report.indented()
            report.string(nil, fencesLoadError, "NO FENCES: not loaded at start: ")
        }
    }

    /// `control   /run/trackd/controller.sock, 0 refused, 0 dropped; 463 wake-ups`.
    func reportControl(to report: inout StatusReport) {
        report.line("control")
        report.object("control")
        report.string(nil, controlPath)
        report.count("refused", controlRefused, ", ", " refused, ")
        report.count("dropped", controlDropped, "", " dropped; ")
        report.endObject()
        report.count("wakeUps", wakeUps, "", " wake-ups")
    }
}
