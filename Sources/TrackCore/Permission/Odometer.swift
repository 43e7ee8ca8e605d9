/// The length of the logged track in millimetres, e.g. two fixes 1 km apart add 1 000 000.
///
/// Geodesic distances on WGS-84 between kept fixes. A fix closer to the last kept one than the
/// larger of their accuracies is jitter: it adds nothing and does not move the anchor, so a parked
/// tracker's wander never adds up. A fix whose time is not after the anchor's, or that would
/// mean moving faster than `maxSpeedMillimetresPerSecond` from it (another capture, a receiver's
/// clock jump, a bad fix the filter let through while recovering), adds nothing and becomes the
/// new anchor: a jump is never distance travelled. The total only grows (saturating), and
/// restarts from the state file. No allocation.
public struct Odometer: Equatable, Sendable {
    /// Jitter threshold when a fix carries no accuracy: 5 000 mm, a typical open-sky CEP.
    public static let defaultAccuracyMillimetres: Int32 = 5_000

    /// The distance so far in millimetres; never decreases.
    public private(set) var totalMillimetres: Int64
    /// The fastest movement counted, in mm/s (the filter's `max-speed`, 100 m/s by default).
    public var maxSpeedMillimetresPerSecond: Int64
    private var anchor: Coordinate?
    private var anchorAccuracyMillimetres: Int32 = 0
    private var anchorMilliseconds: Int64?

    /// An odometer starting at `totalMillimetres` (clamped to ≥ 0), e.g. the saved value.
    public init(totalMillimetres: Int64 = 0, maxSpeedMillimetresPerSecond: Int64 = 100_000) {
        self.totalMillimetres = max(0, totalMillimetres)
        self.maxSpeedMillimetresPerSecond = maxSpeedMillimetresPerSecond
    }

    /// Adds a logged fix at `position` with horizontal accuracy `accuracyMillimetres` (1σ or CEP,
    /// nil → 5 m) at UTC `timeMilliseconds` (nil: no time check); returns the millimetres added
    /// (0 for jitter, a jump and the first fix).
    public mutating func add(_ position: Coordinate, accuracyMillimetres: Int32?, timeMilliseconds: Int64? = nil) -> Int64 {
        let accuracy = max(0, accuracyMillimetres ?? Self.defaultAccuracyMillimetres)
        guard let anchor else {
            reanchor(position, accuracy, timeMilliseconds)
            return 0
        }
        let metres = anchor.distance(to: position)
        guard metres.isFinite, metres >= 0 else { return 0 }
        let threshold = Double(max(accuracy, anchorAccuracyMillimetres)) / 1000
        guard metres >= threshold, metres > 0 else { return 0 }
        if let time = timeMilliseconds, let since = anchorMilliseconds {
            let elapsed = time - since
            // Beyond what max-speed allows in the time between (less both accuracies): a jump.
            let reach = Double(maxSpeedMillimetresPerSecond) * Double(max(elapsed, 0)) / 1_000_000 + threshold
            guard elapsed > 0, metres <= reach else {
                reanchor(position, accuracy, time)
                return 0
            }
        }
        let added = metres < 9e15 ? Int64(metres * 1000) : Int64.max
        let (sum, overflow) = totalMillimetres.addingReportingOverflow(added)
        totalMillimetres = overflow ? Int64.max : sum
        reanchor(position, accuracy, timeMilliseconds)
        return added
    }

    /// Forgets the anchor, e.g. after a gap in the log, so the jump across it is not counted.
    public mutating func breakTrack() { anchor = nil }

    private mutating func reanchor(_ position: Coordinate, _ accuracy: Int32, _ time: Int64?) {
        anchor = position
        anchorAccuracyMillimetres = accuracy
        anchorMilliseconds = time
    }
}
