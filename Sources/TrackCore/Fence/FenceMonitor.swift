/// Every fence's state over the ring of recent filtered fixes: votes per fix (inside, outside,
/// unknown when the accuracy circle straddles the edge, with the hysteresis band), transitions
/// when `agreeingFixes` of the last `windowFixes` agree, dwell after the loitering delay.
///
/// A fence gets a track of its own the first time the index finds it near a fix; until then it
/// shares the background's, which votes far outside on every fix (so 10,000 fences no fix has
/// come near cost one track, not 10,000). Per fix it looks only at fences the index finds near
/// the fix and fences of its own that are not yet settled outside (inside, unknown, or with a
/// recent non-outside vote); a fence it skips has voted outside, which it catches up on the
/// next look. A polygon's track keeps how clear of its edges the last full look found the fix
/// (`FenceClearance`), so a fix inside a municipality of thousands of vertices looks at none of
/// them, or near its boundary at the window round the nearest. Nothing is allocated per fix:
/// the arrays are reserved at start-up for every fence and filled only as fixes come near
/// them, so memory a fence never needs is never touched.
/// Example: 10,000 fences, a fix near two of them → two distance computations, a handful of
/// index nodes, two tracks.
public struct FenceMonitor {
    /// The fences watched.
    public let fences: FenceSet
    /// The settings in force.
    public let settings: FenceSettings
    /// Tracks of the fences a fix has come near, in the order they first did.
    var tracks: [FenceTrack]
    /// The fence numbers of `tracks`, sorted, and the slot in `tracks` of each.
    var touchedFences: [Int32]
    var touchedSlots: [Int32]
    /// What every fence without a track of its own has seen.
    var background = FenceTrack()
    /// Filtered fixes seen.
    public private(set) var sequence: UInt32 = 0
    /// Fences currently inside.
    public private(set) var insideCount = 0
    /// True when the last fix voted neither inside nor outside a fence of its own: its
    /// accuracy circle, with the hysteresis band, touched the fence's edge (the receiver's
    /// power save keeps it awake then).
    public private(set) var lastFixNearEdge = false
    /// Slots in `tracks` looked at on every fix.
    var active: [Int32]
    /// Fences with a track of their own looked at on every fix.
    var activeCount: Int { active.count }
    /// Fences with a track of their own.
    public var trackCount: Int { tracks.count }

    /// A monitor over `fences`; every fence starts unknown. Reserves its arrays (about 100
    /// bytes per fence, touched only as fixes come near fences); `update` and `restart` then
    /// work in them. The monitor owns them: a copy that is updated gets arrays of its own.
    public init(fences: FenceSet, settings: FenceSettings) {
        self.fences = fences
        self.settings = settings
        tracks = []
        tracks.reserveCapacity(fences.count)
        touchedFences = []
        touchedFences.reserveCapacity(fences.count)
        touchedSlots = []
        touchedSlots.reserveCapacity(fences.count)
        active = []
        active.reserveCapacity(fences.count)
    }

    /// Fence `fence`'s state: its own track, or the background's.
    public func track(_ fence: Int) -> FenceTrack {
        guard let slot = slot(of: fence) else { return background }
        return tracks[slot]
    }

    /// The slot of `fence`'s own track, nil when it has none (binary search).
    func slot(of fence: Int) -> Int? {
        let (found, at) = position(of: fence)
        return found ? Int(touchedSlots[at]) : nil
    }

    /// Where `fence` is or would go in `touchedFences`.
    func position(of fence: Int) -> (found: Bool, at: Int) {
        var low = 0
        var high = touchedFences.count
        while low < high {
            let middle = (low + high) / 2
            if Int(touchedFences[middle]) < fence { low = middle + 1 } else { high = middle }
        }
        return (low < touchedFences.count && Int(touchedFences[low]) == fence, low)
    }

    /// `fence`'s own track, made from the background's when it has none yet (and looked at on
    /// every fix from now on). Allocates nothing: the arrays were reserved for every fence.
    mutating func ownSlot(of fence: Int) -> Int {
        let (found, at) = position(of: fence)
        if found { return Int(touchedSlots[at]) }
        let slot = tracks.count
        var track = background
        track.active = false
        track.fence = Int32(fence)
        tracks.append(track)
        touchedFences.insert(Int32(fence), at: at)
        touchedSlots.insert(Int32(slot), at: at)
        return slot
    }

    /// Feeds one filtered fix: `position`, its accuracy (1σ radius, mm) and its UTC time (ms
    /// since the epoch). Calls `report` with (fence index, transition) for every initial state,
    /// enter, exit and dwell: first those of fences near the fix, then the others in fence
    /// order. Allocates nothing.
    public mutating func update(position: Coordinate, accuracyMillimetres: Int64, timeMilliseconds: Int64,
                                _ report: (Int, FenceTransition) -> Void) {
        sequence &+= 1
        let sequence = self.sequence
        lastFixNearEdge = false
        let accuracy = Double(max(accuracyMillimetres, 0)) / 1000
        let limit = accuracy + settings.hysteresisMetres + 1
        let point = GeoVector(position)
        let fences = self.fences
        // Fences near the fix: vote with their distance.
        FenceBox.around(position.latitudeDegrees, position.longitudeDegrees, metres: limit) { box in
            voteNear(in: box, fences: fences, point: point, position: position, limit: limit, accuracy: accuracy,
                     time: timeMilliseconds, report)
        }
        // The background: far outside every fence without a track of its own. What it decides
        // holds for each of them, reported in fence order, with the fences of their own that
        // this fix did not come near voting in that order too.
        var decided: FenceTransition?
        var background = self.background
        vote(&background, -1, distance: -.infinity, accuracyMetres: accuracy, time: timeMilliseconds) { _, transition in
            decided = transition
        }
        self.background = background
        if let decided {
            for fence in 0..<fences.count {
                guard let slot = slot(of: fence) else {
                    report(fence, decided)
                    continue
                }
                if tracks[slot].active && tracks[slot].lastSequence != sequence {
                    vote(slot: slot, distance: -.infinity, accuracyMetres: accuracy, time: timeMilliseconds, report)
                }
            }
        }
        // Unsettled fences of their own the index did not find: the fix is far outside them.
        var index = 0
        while index < active.count {
            let slot = Int(active[index])
            if tracks[slot].lastSequence != sequence {
                vote(slot: slot, distance: -.infinity, accuracyMetres: accuracy, time: timeMilliseconds, report)
            }
            let track = tracks[slot]
            if track.state == .outside && track.outsideVotes & settings.windowMask == settings.windowMask {
                tracks[slot].active = false
                active[index] = active[active.count - 1]
                active.removeLast()
            } else {
                index += 1
            }
        }
    }

    /// The votes of the fences the index finds in `box`. Not inlined: the box around the fix
    /// calls it from six places, and each inlined copy held the index's walk (2 KB in all).
    @inline(never)
    mutating func voteNear(in box: FenceBox, fences: FenceSet, point: GeoVector, position: Coordinate, limit: Double,
                           accuracy: Double, time: Int64, _ report: (Int, FenceTransition) -> Void) {
        fences.index.query(box) { fence in
            voteNear(fence, point: point, position: position, limit: limit, accuracy: accuracy, time: time, report)
        }
    }

    /// The vote of `fence`, which the index found near the fix, with its distance. Not inlined:
    /// the box around the fix and the index's walk reach it from six places, and each inlined
    /// copy held the distance and both votes (5.5 KB of firmware in all).
    @inline(never)
    mutating func voteNear(_ fence: Int, point: GeoVector, position: Coordinate, limit: Double, accuracy: Double,
                           time: Int64, _ report: (Int, FenceTransition) -> Void) {
        let slot = ownSlot(of: fence)
        guard tracks[slot].lastSequence != sequence else { return }
        let distance = fences.signedDistance(of: fence, to: point, coordinate: position, limitMetres: limit,
                                             clearance: &tracks[slot].clearance)
        vote(slot: slot, distance: distance, accuracyMetres: accuracy, time: time, report)
        if !tracks[slot].active {
            tracks[slot].active = true
            active.append(Int32(slot))
        }
    }

    /// One vote into the track in `slot`. Not inlined, nor the vote below: `update` calls them
    /// from several places, each copy with the caller's `report` closure inlined into it.
    @inline(never)
    mutating func vote(slot: Int, distance: Double, accuracyMetres: Double, time: Int64,
                       _ report: (Int, FenceTransition) -> Void) {
        var track = tracks[slot]
        vote(&track, Int(track.fence), distance: distance, accuracyMetres: accuracyMetres, time: time, report)
        tracks[slot] = track
    }

    /// Forgets every fence's state, as at start-up: when the permission stops the evaluation,
    /// so nothing decided before it (or a transition across the time it was off) is reported
    /// later; when it resumes, each fence reports its initial state again. Allocates nothing.
    public mutating func restart() {
        tracks.removeAll(keepingCapacity: true)
        touchedFences.removeAll(keepingCapacity: true)
        touchedSlots.removeAll(keepingCapacity: true)
        active.removeAll(keepingCapacity: true)
        background = FenceTrack()
        sequence = 0
        insideCount = 0
        lastFixNearEdge = false
    }

    /// One vote into `track`, fence `fence`'s (−1: the background's, which never reads the
    /// fence's notify or dwell: far outside, it only ever decides its initial state).
    @inline(never)
    mutating func vote(_ track: inout FenceTrack, _ fence: Int, distance: Double, accuracyMetres: Double, time: Int64,
                       _ report: (Int, FenceTransition) -> Void) {
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
        if distance > enterMargin {
            track.insideVotes |= 1
        } else if distance < -exitMargin {
            track.outsideVotes |= 1
        } else if fence >= 0 {
            lastFixNearEdge = true
        }
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
            if decided == .inside && fence >= 0 { insideCount += 1 }
            if previous == .inside && fence >= 0 { insideCount -= 1 }
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
        if track.state == .inside && !track.dwellReported && fence >= 0, let dwell = fences.dwellSeconds(of: fence),
           fences.notify(of: fence).contains(.dwell), let since = track.sinceMilliseconds,
           time - since >= Int64(dwell) * 1000 {
            track.dwellReported = true
            report(fence, .dwell)
        }
    }
}
