/// One geofence as the fences file describes it: its id, what to report, and its shape.
/// The geometry itself lives in `FenceSet`, in flat arrays the per-fix path can scan.
///
/// Example: `{"type":"Feature","geometry":{"type":"Point","coordinates":[9.0663,48.5242]},
/// "properties":{"id":"home","radius":150,"notify":["enter","exit"]}}` is a circle of 150 m.
public struct Fence: Equatable, Sendable {
    /// The fence's id (`properties.id`, else the Feature's `id`, else its index as text), e.g.
    /// `home`; unique in the file.
    public var id: String
    /// A name for people, e.g. `Home`; nil when the file gives none.
    public var name: String?
    /// Which transitions produce events (default enter and exit, plus dwell when `dwell` is set).
    public var notify: FenceNotify
    /// The loitering delay in seconds after which a dwell event fires, nil for none, e.g. 300.
    public var dwellSeconds: Int?
    /// The command to run on each event, as argv (never a shell string), e.g.
    /// `["/usr/local/bin/notify", "--quiet"]`; empty for none.
    public var command: [String]
    /// Circle or polygon.
    public var kind: FenceKind

    /// A fence from its parts.
    public init(id: String, name: String? = nil, notify: FenceNotify = [.enter, .exit],
                dwellSeconds: Int? = nil, command: [String] = [], kind: FenceKind) {
        self.id = id
        self.name = name
        self.notify = notify
        self.dwellSeconds = dwellSeconds
        self.command = command
        self.kind = kind
    }
}

/// The shape of a fence, e.g. `.circle(radiusMetres: 150)`.
public enum FenceKind: Equatable, Sendable {
    /// A circle of this geodesic radius around a point.
    case circle(radiusMetres: Double)
    /// A polygon or multi-polygon with this many rings (outer rings and holes together).
    case polygon(rings: Int)
}

/// Which fence transitions are reported, e.g. `[.enter, .dwell]`.
public struct FenceNotify: OptionSet, Equatable, Sendable {
    /// Bits: 1 enter, 2 exit, 4 dwell.
    public var rawValue: UInt8
    /// A set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The position came inside.
    public static var enter: FenceNotify { FenceNotify(rawValue: 1) }
    /// The position left.
    public static var exit: FenceNotify { FenceNotify(rawValue: 2) }
    /// The position stayed inside for the dwell time.
    public static var dwell: FenceNotify { FenceNotify(rawValue: 4) }
}
