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

    /// A fence nothing is known about yet.
    public init() {}
}
