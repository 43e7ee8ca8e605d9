/// One fence's state as the monitor keeps it: the state, since when, the votes in the window.
public struct FenceTrack: Equatable, Sendable {
    /// The confirmed state.
    public internal(set) var state = FenceState.unknown
    /// UTC milliseconds since the epoch at which `state` was confirmed; nil before.
    public internal(set) var sinceMilliseconds: Int64?
    /// Vote bits, bit 0 the latest fix: inside votes and outside votes (neither: unknown).
    var insideVotes: UInt32 = 0
    var outsideVotes: UInt32 = 0
    /// The monitor's fix number at the last vote.
    var lastSequence: UInt32 = 0
    var reported = false
    var dwellReported = false
    var active = false
    /// The fence this track is of (−1: the background's).
    var fence: Int32 = -1
    /// How far the last fix whose distance was computed in full was from the boundary.
    var clearance = FenceClearance()

    /// A fence nothing is known about yet.
    public init() {}
}

/// What a track keeps of the last full look at a polygon's edges, so that the next fixes near
/// one of thousands of vertices look at a few dozen: the point then (east, north in the
/// fence's plane, metres), its side, a window of the ring's edges round the nearest one (`count`
/// edges from offset `start` among the `ringEdges` of the ring whose first vertex is
/// `ringFirst`, running round past it; none when the boundary was far), and
/// how far every edge outside the window was at least (metres; 0: nothing known). The plane's
/// distances obey the triangle inequality: a point `s` metres from the one then is at least
/// `metres − s` from every edge outside the window, and reached its side crossing only edges
/// of the window.
///
/// Example: a car 15 m from a municipality's boundary of 2,800 vertices: the 80 edges within
/// 600 m of it, and 600 m clear of the rest, so for the next 35 fixes at 15 m/s.
struct FenceClearance: Equatable, Sendable {
    var east = 0.0
    var north = 0.0
    var metres = 0.0
    var inside = false
    var ringFirst: UInt32 = 0
    var ringEdges: UInt32 = 0
    var start: UInt32 = 0
    var count: UInt32 = 0
}
