/// The daemon's place name, looked up again only when it could have changed, as the phone
/// throttled its reverse geocoder: after moving `minimumMoveMetres` (default 200 m) from the
/// last lookup; in approximate mode only for the snapped grid cell's centre, once per cell,
/// in whole kilometres; never while tracking is not allowed (the name is dropped then).
///
/// Call `update` with every filtered fix; it allocates nothing and costs one geodesic (the
/// distance moved) when no lookup is due. Example, per fix:
///
///     places.withBytes { bytes in
///         namer.update(fix.position, approximate: false, allowed: true, table: table, bytes: bytes)
///     }
///     namer.name?.write(to: &line, bytes: bytes)           // "in Tübingen, Baden-Wurttemberg, DE"
///
/// Without a gazetteer (`table` nil), the name is the coordinate text of the last lookup.
public struct PlaceNamer: Equatable, Sendable {
    /// Metres to move from the last lookup before the next one (precise mode), e.g. 200.
    public var minimumMoveMetres: Double
    /// How far a place may be and still name a position, in metres (default 50 km).
    public var limitMetres: Double
    /// The current name; nil before the first allowed fix and while tracking is not allowed.
    public private(set) var name: PlaceName?
    /// Lookups made so far (for status and tests).
    public private(set) var lookupCount = 0
    /// Whether the last lookup was in approximate mode.
    var lastApproximate = false

    /// A namer with no name yet.
    public init(minimumMoveMetres: Double = 200, limitMetres: Double = PlaceName.defaultLimitMetres) {
        self.minimumMoveMetres = minimumMoveMetres
        self.limitMetres = limitMetres
    }

    /// Takes the newest position; returns true when it looked the name up again.
    ///
    /// `approximate`: the permission's approximate accuracy (positions snap to `ApproximateGrid`
    /// before anything is looked up). `allowed`: whether tracking is allowed now.
    @discardableResult
    public mutating func update(_ position: Coordinate, approximate: Bool, allowed: Bool,
                                table: PlaceTable?, bytes: Span<UInt8>) -> Bool {
        guard allowed else {
            name = nil
            return false
        }
        let target = approximate ? ApproximateGrid.snap(position) : position
        if let last = name, approximate == lastApproximate {
            if approximate {
                if last.position == target { return false }
            } else if last.position.distance(to: target) < minimumMoveMetres {
                return false
            }
        }
        lastApproximate = approximate
        lookupCount += 1
        if let table {
            name = PlaceName.lookUp(target, table: table, bytes: bytes, limitMetres: limitMetres,
                                    wholeKilometres: approximate)
        } else {
            name = PlaceName(position: target, wholeKilometres: approximate)
        }
        return true
    }

    /// Forgets the name, e.g. when the gazetteer is reloaded; the next fix looks up again.
    public mutating func reset() {
        name = nil
    }
}
