/// How fences are read and confirmed, from the `[fences]` section of the configuration.
///
/// Example: the defaults confirm a transition when 3 of the last 5 filtered fixes agree, and a
/// fix votes to leave the confirmed state only when its accuracy circle is 20 m clear of the edge.
public struct FenceSettings: Equatable, Sendable {
    /// Smallest circle radius accepted, metres (default 10).
    public var minimumRadiusMetres: Double = 10
    /// Largest circle radius accepted, metres (default 50,000).
    public var maximumRadiusMetres: Double = 50_000
    /// Votes that must agree among the last `windowFixes` (default 3), at most `windowFixes`.
    public var agreeingFixes: Int = 3
    /// Filtered fixes in the ring buffer, 1…32 (default 5).
    public var windowFixes: Int = 5
    /// Hysteresis band, metres (default 20): to change state, a fix must be this far beyond the
    /// edge on the other side, on top of its accuracy. 20 m is what kept every edge placed
    /// through the jitter cloud of a 20-minute stationary capture (±22 m, HDOP 0.8-3.5) from
    /// changing state; 15 m let one drift of 12 m through.
    public var hysteresisMetres: Double = 20

    /// The defaults.
    public init() {}

    /// The window as a bit mask, e.g. 5 fixes → 0b11111.
    var windowMask: UInt32 { windowFixes >= 32 ? UInt32.max : (UInt32(1) << UInt32(windowFixes)) - 1 }
}

/// Something a fence monitor reports: the first state a fence is found in, or a transition.
public enum FenceTransition: Equatable, Sendable {
    /// The state first decided after start: a state, not an enter or exit. A fence still
    /// undecided when the window has filled reports `.initial(.unknown)`, then `.initial` again
    /// with the state it is first confirmed in.
    case initial(FenceState)
    /// Came inside (confirmed by the window).
    case enter
    /// Went outside.
    case exit
    /// Stayed inside for the fence's dwell time.
    case dwell

    /// The word used in logs, commands' TRACKD_EVENT and `trackctl`: `initial-inside`, `enter`,
    /// `exit`, `dwell` ….
    public var name: StaticString {
        switch self {
        case .initial(.inside): "initial-inside"
        case .initial(.outside): "initial-outside"
        case .initial(.unknown): "initial-unknown"
        case .enter: "enter"
        case .exit: "exit"
        case .dwell: "dwell"
        }
    }

    /// The log's event kind for enter, exit and dwell; nil for initial states.
    public var logKind: FenceEventKind? {
        switch self {
        case .enter: .enter
        case .exit: .exit
        case .dwell: .dwell
        case .initial: nil
        }
    }
}

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

    /// A fence nothing is known about yet.
    public init() {}
}
