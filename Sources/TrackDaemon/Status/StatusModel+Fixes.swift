import TrackCore
import TrackIO

extension StatusModel {
    /// What the fix pipeline knows: the last fixes and when they came, the filter's and the
    /// sampling's counters.
    struct FixFacts {
        /// The latest fix from the receiver (any mode) and when it came; when the last 2D or 3D
        /// one came.
        var lastFix: Fix?
        var lastFixAt: MonotonicTime?
        var lastFixedAt: MonotonicTime?
        /// When the filter last accepted a fix, and that fix's accuracy.
        var lastGoodFixAt: MonotonicTime?
        var lastGoodAccuracyMillimetres: Int64?
        var firstFixAfterMilliseconds: Int64?
        var lastRejection: FilterRejection?
        var filter: FilterCounters
        var profile: SamplingProfile
        var recorded: Int
        var lastTrigger: RecordTrigger?
        /// Accepted fixes the permission kept out of the log.
        var notAllowed: Int
    }
}

extension StatusModel.FixFacts {
    /// `fix       3D, 48.501000°N 9.050000°E, ±4.5 m, 9 satellites, 0.4s ago; first fix after
    /// 2.0s`: the position as the permission lets it out, or a word why not. The JSON: the
    /// disclosure and the fix (the TPV members), its age, accuracy and the time to first fix.
    func reportFix(to report: inout StatusReport, _ privacy: StatusModel.PrivacyFacts,
                                                     now: MonotonicTime) {
        let disclosure = privacy.disclosure
        report.line("fix")
        report.name("disclosure", disclosure == .precise ? "precise" : disclosure == .approximate ? "approximate" : "withheld",
                    shown: .json)
        if let raw = lastFix, let at = lastFixAt {
            let fix = raw.disclosed(disclosure)
            report.member("fix") { fix.writeJSON(to: &$0) }
            report.name(nil, modeName(fix.mode))
            if let position = fix.position, fix.mode.rawValue >= FixMode.twoD.rawValue {
                report.words { line in
                    line.append(", ")
                    appendPosition(&line, position, separator: " ")
                }
                report.words(disclosure == .approximate ? " (approximate)" : "")
            } else if raw.position != nil, fix.mode.rawValue >= FixMode.twoD.rawValue {
                report.name(nil, permissionName(privacy.permission.state), ", position withheld (", ")")
            }
            if let accuracy = lastGoodAccuracyMillimetres, disclosure == .precise {
                if lastGoodFixAt == at { report.fixed(nil, (accuracy + 50) / 100, decimals: 1, ", ±", " m") }
                report.fixed("accuracy", accuracy, decimals: 3, shown: .json)
            }
            if let used = fix.satellitesUsed { report.integer(nil, Int64(used), ", ", " satellites") }
            report.duration("fixAge", milliseconds: now.milliseconds(since: at), ", ", " ago")
        } else {
            report.words("none yet")
        }
        if let firstFixAfterMilliseconds {
            report.duration("timeToFirstFix", milliseconds: firstFixAfterMilliseconds, "; first fix after ")
        }
    }

    /// `filter    11 accepted, 2 rejected (last: inaccurate)` and the counters by reason.
    func reportFilter(to report: inout StatusReport) {
        report.line("filter")
        report.object("filter")
        report.count(nil, filter.accepted, "", " accepted, ")
        report.count(nil, filter.rejected, "", " rejected")
        if let lastRejection { report.name("lastRejection", rejectionName(lastRejection), " (last: ", ")") }
        report.indented()
        report.count("accepted", filter.accepted, "accepted=")
        report.count("invalid", filter.invalid, " invalid=")
        report.count("noPosition", filter.noPosition, " no-position=")
        report.count("noTime", filter.noTime, " no-time=")
        report.count("stale", filter.stale, " stale=")
        report.count("tooFewSatellites", filter.tooFewSatellites, " too-few-satellites=")
        report.count("inaccurate", filter.inaccurate, " inaccurate=")
        report.count("implausibleJump", filter.implausibleJump, " implausible-jump=")
        report.count("recoveries", filter.recoveries, " recoveries=")
        report.endObject()
    }

    /// `sampling  track profile: 11 recorded (last: distance); 1 waypoints (last "here")`.
    func reportSampling(to report: inout StatusReport, _ waypoints: StatusModel.WaypointFacts) {
        report.line("sampling")
        report.object("sampling")
        report.name("profile", profile.name, "", " profile: ")
        report.count("recorded", recorded, "", " recorded")
        if let lastTrigger { report.name("lastTrigger", lastTrigger.name, " (last: ", ")") }
        report.endObject()
        report.count("waypoints", waypoints.count, "; ", " waypoints")
        if waypoints.count > 0 {
            report.words { line in
                line.append(" (last \"")
                waypoints.lastLabel.write(to: &line)
                line.append("\")")
            }
        }
    }
}

extension StatusModel.PrivacyFacts {
    /// `privacy   always, precise; 3 fixes not logged` and the state file's trouble; JSON
    /// `"permission":{…}`.
    func report(to report: inout StatusReport, notAllowed: Int, now: MonotonicTime) {
        report.line("privacy")
        report.object("permission")
        reportPermission(to: &report, now: now)
        if notAllowed > 0 { report.count(nil, notAllowed, "; ", " fixes not logged") }
        report.count("notLogged", notAllowed, shown: .json)
        if let stateProblem {
            report.indented()
            report.string("stateProblem", stateProblem, "state file: ")
        }
        report.endObject()
    }

    /// `always, precise` / `not-determined, precise (nothing is logged)` / `always, precise for
    /// 29m10s more`: the words of the status line and of `trackctl privacy`'s answer.
    func reportPermission(to report: inout StatusReport, now: MonotonicTime) {
        report.name("state", permissionName(permission.state))
        let precise = permission.effectiveAccuracy(now: now) == .precise
        report.name("accuracy", precise ? "precise" : "approximate", shown: .json)
        report.words(precise ? ", precise" : ", approximate (1 km grid, no fences)")
        if let until = permission.preciseUntil, until > now {
            report.duration(nil, milliseconds: until.milliseconds(since: now), " for ", " more")
        }
        report.flag("logging", mayLog, ifFalse: permission.state == .whenInUse ? " (logging on trips only)" : " (nothing is logged)")
    }
}
