/// What a position may become before it leaves the core: the one rule every output follows
/// (the track log, `trackctl status` and `where`, waypoints from `mark` and the button, fence
/// events, and later the gpsd stream), e.g. `.approximate` in `always, approximate`.
///
/// | permission                                   | disclosure    |
/// |----------------------------------------------|---------------|
/// | not-determined, restricted, denied           | `.withheld`   |
/// | when-in-use, not in use and not on a trip    | `.withheld`   |
/// | always / when-in-use in use, approximate     | `.approximate`|
/// | always / when-in-use in use, precise         | `.precise`    |
public enum Disclosure: Equatable, Sendable {
    /// Tracking is not allowed: no position, altitude, speed, course or error leaves.
    case withheld
    /// Only the position snapped to `ApproximateGrid` leaves; no altitude, speed, course or
    /// error (each would narrow the cell down).
    case approximate
    /// Everything leaves as the receiver gave it.
    case precise

    /// True unless `.withheld`.
    public var allowsPosition: Bool { self != .withheld }
}

extension Permission {
    /// The disclosure in force at `now` with the in-use input and trip state given.
    public func disclosure(inUse: Bool, onTrip: Bool, now: MonotonicTime) -> Disclosure {
        guard mayLog(inUse: inUse, onTrip: onTrip, now: now) else { return .withheld }
        return effectiveAccuracy(now: now) == .precise ? .precise : .approximate
    }
}

extension Fix {
    /// This fix as `disclosure` lets it leave the core: unchanged when precise; when approximate
    /// the position snapped and altitude, speed, course and errors removed; when withheld all of
    /// those removed. Time, mode, satellites and DOPs stay: they say how the receiver is doing,
    /// not where it is.
    public func disclosed(_ disclosure: Disclosure) -> Fix {
        guard disclosure != .precise else { return self }
        var fix = self
        fix.position = disclosure == .approximate ? position.map(ApproximateGrid.snap) : nil
        fix.altitudeMSLMillimetres = nil
        fix.geoidSeparationMillimetres = nil
        fix.speedMillimetresPerSecond = nil
        fix.courseMillidegrees = nil
        fix.magneticVariationMillidegrees = nil
        fix.latitudeErrorCentimetres = nil
        fix.longitudeErrorCentimetres = nil
        fix.altitudeErrorCentimetres = nil
        fix.expectedLatitudeErrorCentimetres = nil
        fix.expectedLongitudeErrorCentimetres = nil
        fix.expectedAltitudeErrorCentimetres = nil
        return fix
    }
}
