/// What the uplink does with one log record, e.g. `.send(location)` for a fix, `.skip` for a
/// boot marker, `.hold` while tracking is not allowed (the record waits, the cursor stays).
public enum UplinkOutcome<Message: Equatable & Sendable>: Equatable, Sendable {
    /// Send this.
    case send(Message)
    /// Nothing to send for this record: the cursor moves past it.
    case skip
    /// Send nothing now and do not move past it: tracking is not allowed at the moment.
    case hold
}

/// The OwnTracks messages of one record, in the order they go out: a location (on the
/// device's topic, retained when live), then a transition (on its `/event` topic, never
/// retained), e.g. both for a fence entered.
public struct OwnTracksMessages: Equatable, Sendable {
    public var location: OwnTracksLocation?
    public var transition: OwnTracksTransition?

    /// The messages.
    public init(location: OwnTracksLocation? = nil, transition: OwnTracksTransition? = nil) {
        self.location = location
        self.transition = transition
    }

    /// How many there are, 0…2.
    public var count: Int { (location == nil ? 0 : 1) + (transition == nil ? 0 : 1) }
}

/// Turns the track log's records into uplink messages under the privacy rule, the one place
/// that decides what a target receives. One mapper per stream of records (it remembers the
/// last fix's accuracy for the fence transitions after it). Example:
///
///     var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
///     switch mapper.ownTracks(record, disclosure: .precise) {
///     case .send(let messages): …   // OwnTracksJSON.writeLocation(messages.location!, …)
///     case .skip: …                 // cursor past the record
///     case .hold: …                 // wait: tracking is not allowed now
///     }
///
/// The privacy rule (docs/uplink.md): a record leaves only as the permission allows both when
/// it was logged and now.
/// * When it was logged: trackd logs nothing while tracking is withheld, logs positions snapped
///   to the 1 km grid with no altitude, speed, course or accuracy in approximate mode, and no
///   fence events then (fences are not evaluated). So every record in the log was allowed, in
///   the form it is in; a later denial does not withdraw it.
/// * Now (`disclosure`, the permission's at the time of sending): `.withheld` holds every
///   record (nothing leaves while tracking is not allowed, the backlog included; it goes once
///   allowed again); `.approximate` snaps every position to the grid and strips altitude,
///   speed and course, and skips fence transitions for good (they would tell when a boundary
///   was crossed); `.precise` sends what the log holds.
/// A fix with no accuracy (approximate when logged, or imported without one) says the grid's
/// `approximateAccuracyDecimetres`.
public struct UplinkMapper: Equatable, Sendable {
    /// The accuracy given to a snapped position: 1 km, the grid cell's half-diagonal (≈ 0.79
    /// km) rounded up, so the circle holds the cell.
    public static var approximateAccuracyDecimetres: Int32 { 10_000 }

    /// The accuracy for a fence transition before any fix was seen: the fix filter's limit
    /// (every fix the fences saw was at most that inaccurate), e.g. 650 dm for its 65 m.
    public var accuracyLimitDecimetres: Int32
    /// The last recorded fix's accuracy in this stream, nil before one.
    public private(set) var lastAccuracyDecimetres: Int32?

    /// A mapper for one stream of records.
    public init(accuracyLimitDecimetres: Int32) {
        self.accuracyLimitDecimetres = accuracyLimitDecimetres
    }

    /// The OwnTracks messages for `record`: a fix is a location with trigger `t`, a waypoint
    /// a location with trigger `u` and its label as `poi`, a fence enter or exit a location
    /// with trigger `c` and a transition (`enter` / `leave`); dwell, permission changes, boot
    /// markers, gaps and receiver sleeps are skipped.
    public mutating func ownTracks(_ record: LogRecord, disclosure: Disclosure) -> UplinkOutcome<OwnTracksMessages> {
        guard disclosure != .withheld else { return .hold }
        let approximate = disclosure == .approximate
        switch record {
        case .fix(let fix):
            lastAccuracyDecimetres = fix.accuracyDecimetres
            var location = OwnTracksLocation(time: fix.time, position: fix.position,
                                             accuracyDecimetres: fix.accuracyDecimetres ?? Self.approximateAccuracyDecimetres,
                                             altitudeDecimetres: fix.altitudeDecimetres,
                                             speedCentimetresPerSecond: fix.speedCentimetresPerSecond,
                                             courseCentidegrees: fix.courseCentidegrees, trigger: .timer)
            if approximate { Self.approximate(&location) }
            return .send(OwnTracksMessages(location: location))
        case .waypoint(let time, let position, let label):
            var location = OwnTracksLocation(time: time, position: position, accuracyDecimetres: transitionAccuracy,
                                             trigger: .manual, pointOfInterest: label)
            if approximate || Self.isGridCentre(position) { Self.approximate(&location) }
            return .send(OwnTracksMessages(location: location))
        case .fenceEvent(let time, let fenceID, let kind, let position):
            guard !approximate, !Self.isGridCentre(position), kind != .dwell else { return .skip }
            let accuracy = transitionAccuracy
            let location = OwnTracksLocation(time: time, position: position, accuracyDecimetres: accuracy, trigger: .region)
            let transition = OwnTracksTransition(time: time, position: position, accuracyDecimetres: accuracy,
                                                 event: kind == .enter ? .enter : .leave, fenceID: fenceID)
            return .send(OwnTracksMessages(location: location, transition: transition))
        case .permissionChange, .bootMarker, .gap, .receiverAsleep:
            return .skip
        }
    }

    /// The OsmAnd position for `record`: fixes only (Traccar works out its own geofences from
    /// the positions, and a waypoint has the time of a fix already sent: Traccar's duplicate
    /// filter would drop it or keep two positions for one time).
    public mutating func osmAnd(_ record: LogRecord, disclosure: Disclosure) -> UplinkOutcome<OsmAndPosition> {
        guard disclosure != .withheld else { return .hold }
        guard case .fix(let fix) = record else { return .skip }
        lastAccuracyDecimetres = fix.accuracyDecimetres
        guard disclosure == .precise else {
            return .send(OsmAndPosition(time: fix.time, position: Self.snap(fix.position),
                                        accuracyDecimetres: Self.approximateAccuracyDecimetres))
        }
        return .send(OsmAndPosition(time: fix.time, position: fix.position, speedCentimetresPerSecond: fix.speedCentimetresPerSecond,
                                    courseCentidegrees: fix.courseCentidegrees, altitudeDecimetres: fix.altitudeDecimetres,
                                    accuracyDecimetres: fix.accuracyDecimetres ?? Self.approximateAccuracyDecimetres))
    }

    /// The accuracy a waypoint or fence event reports: the last fix's, else the filter's limit.
    var transitionAccuracy: Int32 { lastAccuracyDecimetres ?? accuracyLimitDecimetres }

    /// `position` snapped to the approximate grid at the log's precision.
    public static func snap(_ position: LogPosition) -> LogPosition {
        LogPosition(ApproximateGrid.snap(position.coordinate))
    }

    /// True when `position` is the centre of its grid cell: logged in approximate mode (a
    /// precise position lands there exactly about once in 10^8 fixes, and is then sent as the
    /// cell it is in).
    public static func isGridCentre(_ position: LogPosition) -> Bool { snap(position) == position }

    private static func approximate(_ location: inout OwnTracksLocation) {
        location.position = snap(location.position)
        location.accuracyDecimetres = approximateAccuracyDecimetres
        location.altitudeDecimetres = nil
        location.speedCentimetresPerSecond = nil
        location.courseCentidegrees = nil
    }
}
