/// Every fence's state over the ring of recent filtered fixes: votes per fix (inside, outside,
/// unknown when the accuracy circle straddles the edge, with the hysteresis band), transitions
/// when `agreeingFixes` of the last `windowFixes` agree, dwell after the loitering delay.
///
/// Per fix it looks only at fences the index finds near the fix and fences that are not yet
/// settled outside (inside, unknown, or with a recent non-outside vote); a fence it skips has
/// voted outside, which it catches up on the next look. Nothing is allocated per fix: the
/// arrays are sized at start-up. Example: 10,000 fences, a fix near two of them → two
/// distance computations and a handful of index nodes.
public struct FenceMonitor {
    /// The fences watched.
    public let fences: FenceSet
    /// The settings in force.
    public let settings: FenceSettings
    /// The state of each fence, by fence index (one per fence, sized at start-up).
    public private(set) var tracks: [FenceTrack]
    /// Filtered fixes seen.
    public private(set) var sequence: UInt32 = 0
    /// Fences currently inside.
    public private(set) var insideCount = 0
    /// The fences looked at on every fix: the first `activeCount` slots hold their indices
    /// (one slot per fence, sized at start-up).
    var active: [Int32]
    /// Fences looked at on every fix.
    private(set) var activeCount: Int

    /// A monitor over `fences`; every fence starts unknown and is looked at until its window
    /// has filled. Allocates its two arrays (about 40 bytes per fence); `update` and `restart`
    /// then work in them. The monitor owns them: a copy that is updated gets arrays of its own.
    public init(fences: FenceSet, settings: FenceSettings) {
        self.fences = fences
        self.settings = settings
        var track = FenceTrack()
        track.active = true
        tracks = Array(repeating: track, count: fences.count)
        active = Array(repeating: 0, count: fences.count)
        for index in 0..<fences.count { active[index] = Int32(index) }
        activeCount = fences.count
    }

    /// Feeds one filtered fix: `position`, its accuracy (1σ radius, mm) and its UTC time (ms
    /// since the epoch). Calls `report` with (fence index, transition) for every initial state,
    /// enter, exit and dwell, in fence order within a kind of pass. Allocates nothing.
    public mutating func update(position: Coordinate, accuracyMillimetres: Int64, timeMilliseconds: Int64,
                                _ report: (Int, FenceTransition) -> Void) {
        sequence &+= 1
        let sequence = self.sequence
        let accuracy = Double(max(accuracyMillimetres, 0)) / 1000
        let limit = accuracy + settings.hysteresisMetres + 1
        let point = GeoVector(position)
        let fences = self.fences
        // Fences near the fix: vote with their distance.
        FenceBox.around(position.latitudeDegrees, position.longitudeDegrees, metres: limit) { box in
            fences.index.query(box) { fence in
                guard tracks[fence].lastSequence != sequence else { return }
                let distance = fences.signedDistance(of: fence, to: point, coordinate: position, limitMetres: limit)
                vote(fence, distance: distance, accuracyMetres: accuracy, time: timeMilliseconds, report)
                if !tracks[fence].active {
                    tracks[fence].active = true
                    active[activeCount] = Int32(fence)
                    activeCount += 1
                }
            }
        }
        // Unsettled fences the index did not find: the fix is far outside them.
        var slot = 0
        while slot < activeCount {
            let fence = Int(active[slot])
            if tracks[fence].lastSequence != sequence {
                vote(fence, distance: -.infinity, accuracyMetres: accuracy, time: timeMilliseconds, report)
            }
            let track = tracks[fence]
            if track.state == .outside && track.outsideVotes & settings.windowMask == settings.windowMask {
                tracks[fence].active = false
                activeCount -= 1
                active[slot] = active[activeCount]
            } else {
                slot += 1
            }
        }
    }

    /// Forgets every fence's state, as at start-up: when the permission stops the evaluation,
    /// so nothing decided before it (or a transition across the time it was off) is reported
    /// later; when it resumes, each fence reports its initial state again. Allocates nothing.
    public mutating func restart() {
        var track = FenceTrack()
        track.active = true
        for index in 0..<fences.count {
            tracks[index] = track
            active[index] = Int32(index)
        }
        activeCount = fences.count
        sequence = 0
        insideCount = 0
    }

    mutating func vote(_ fence: Int, distance: Double, accuracyMetres: Double, time: Int64,
                       _ report: (Int, FenceTransition) -> Void) {
        var track = tracks[fence]
        // Fixes since this fence's last vote were far outside it.
        let missed = sequence &- track.lastSequence &- 1
        let shift = min(missed + 1, 32)
        let fill: UInt32 = missed >= 32 ? UInt32.max : (UInt32(1) << missed) &- 1
        track.insideVotes = shift >= 32 ? 0 : track.insideVotes << shift
        track.outsideVotes = (shift >= 32 ? 0 : track.outsideVotes << shift) | fill << 1
        track.lastSequence = sequence
        // The hysteresis band: leaving a confirmed state needs the fix further past the edge.
        let enterMargin = accuracyMetres + (track.state == .outside ? settings.hysteresisMetres : 0)
        let exitMargin = accuracyMetres + (track.state == .inside ? settings.hysteresisMetres : 0)
        if distance > enterMargin { track.insideVotes |= 1 } else if distance < -exitMargin { track.outsideVotes |= 1 }
        let window = settings.windowMask
        let insides = (track.insideVotes & window).nonzeroBitCount
        let outsides = (track.outsideVotes & window).nonzeroBitCount
        var decided: FenceState?
        if insides >= settings.agreeingFixes && track.state != .inside { decided = .inside }
        if outsides >= settings.agreeingFixes && track.state != .outside { decided = .outside }
        if let decided {
            let previous = track.state
            track.state = decided
            track.sinceMilliseconds = time
            // Votes for the state just left no longer count: leaving again takes k new ones,
            // so a window split 3 : 2 cannot flip back on the next fix.
            if decided == .inside { track.outsideVotes = 0 } else { track.insideVotes = 0 }
            track.dwellReported = false
            if decided == .inside { insideCount += 1 }
            if previous == .inside { insideCount -= 1 }
            if previous == .unknown {
                // Never decided before (even if reported unknown): still the start-up state.
                track.reported = true
                report(fence, .initial(decided))
            } else {
                let notify = fences.notify(of: fence)
                if decided == .inside && notify.contains(.enter) { report(fence, .enter) }
                if decided == .outside && notify.contains(.exit) { report(fence, .exit) }
            }
        } else if !track.reported && sequence >= UInt32(settings.windowFixes) {
            track.reported = true
            track.sinceMilliseconds = time
            report(fence, .initial(.unknown))
        }
        if track.state == .inside && !track.dwellReported, let dwell = fences.dwellSeconds(of: fence),
           fences.notify(of: fence).contains(.dwell), let since = track.sinceMilliseconds,
           time - since >= Int64(dwell) * 1000 {
            track.dwellReported = true
            report(fence, .dwell)
        }
        tracks[fence] = track
    }
}
