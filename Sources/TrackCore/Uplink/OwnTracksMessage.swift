/// Why an OwnTracks location was sent, its `t` member (the booklet's `docs/tech/json.md`), e.g.
/// `.timer` ("t") for a fix the sampling policy recorded.
public enum OwnTracksTrigger: UInt8, Equatable, Sendable {
    /// `t`: a timed report while moving; trackd's recorded fixes.
    case timer = 0x74
    /// `u`: published by the user's hand; trackd's waypoints (the button, `trackctl mark`).
    case manual = 0x75
    /// `c`: a circular region's enter or leave; trackd's fence transitions (polygons too).
    case region = 0x63
}

/// A region transition's `event`: `enter` or `leave`.
public enum OwnTracksEvent: Equatable, Sendable {
    case enter
    case leave
}

/// One `_type: location` message in trackd's units, before it is written, e.g. a recorded fix
/// at 48.1173°N 11.5167°E, ±3.2 m, 545.4 m, 5.14 m/s, 84°, trigger `t`.
///
/// Absent is nil and is left out of the JSON; the booklet's "left out when zero" is how the
/// apps say "absent" (their platforms give 0 for unknown), while trackd has absent as absent:
/// a measured 0 (standing still, due north, sea level) is written. `acc` is always written and
/// at least 1 m.
public struct OwnTracksLocation: Equatable, Sendable {
    /// The fix's (receiver's) time; `tst` is its whole seconds.
    public var time: UTCTime
    public var position: LogPosition
    /// Horizontal accuracy, e.g. 32 dm → `"acc":3`.
    public var accuracyDecimetres: Int32
    public var altitudeDecimetres: Int32?
    public var speedCentimetresPerSecond: Int32?
    public var courseCentidegrees: Int32?
    public var trigger: OwnTracksTrigger
    /// A waypoint's label as the booklet's `poi` (point of interest), nil or empty for none.
    public var pointOfInterest: LogLabel?

    /// A location message.
    public init(time: UTCTime, position: LogPosition, accuracyDecimetres: Int32, altitudeDecimetres: Int32? = nil,
                speedCentimetresPerSecond: Int32? = nil, courseCentidegrees: Int32? = nil,
                trigger: OwnTracksTrigger, pointOfInterest: LogLabel? = nil) {
        self.time = time
        self.position = position
        self.accuracyDecimetres = accuracyDecimetres
        self.altitudeDecimetres = altitudeDecimetres
        self.speedCentimetresPerSecond = speedCentimetresPerSecond
        self.courseCentidegrees = courseCentidegrees
        self.trigger = trigger
        self.pointOfInterest = pointOfInterest
    }
}

/// One `_type: transition` message: a fence entered or left, at the position and time of the
/// fix that confirmed it, e.g. fence 3 entered at 12:00:05Z. Its `desc` and `rid` (the fence's
/// name and id) are the caller's, who knows the fences.
public struct OwnTracksTransition: Equatable, Sendable {
    public var time: UTCTime
    public var position: LogPosition
    /// Accuracy of the position: the last recorded fix's (a fence event carries none).
    public var accuracyDecimetres: Int32
    public var event: OwnTracksEvent
    /// The fence's index in the fence file, as the log holds it.
    public var fenceID: UInt32

    /// A transition message.
    public init(time: UTCTime, position: LogPosition, accuracyDecimetres: Int32, event: OwnTracksEvent, fenceID: UInt32) {
        self.time = time
        self.position = position
        self.accuracyDecimetres = accuracyDecimetres
        self.event = event
        self.fenceID = fenceID
    }
}
