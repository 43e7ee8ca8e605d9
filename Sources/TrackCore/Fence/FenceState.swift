/// Where a position is with respect to a fence: clearly inside, clearly outside, or unknown
/// (its accuracy circle straddles the boundary, or no fix has decided it yet).
public enum FenceState: UInt8, Equatable, Sendable {
    /// Not decided.
    case unknown = 0
    /// Inside the fence.
    case inside = 1
    /// Outside the fence.
    case outside = 2

    /// The word `trackctl` prints: `inside`, `outside`, `unknown`.
    public var name: StaticString {
        switch self {
        case .unknown: "unknown"
        case .inside: "inside"
        case .outside: "outside"
        }
    }
}
