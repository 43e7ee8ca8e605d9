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
