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
