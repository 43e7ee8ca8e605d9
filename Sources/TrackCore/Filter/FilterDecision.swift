/// What `FixFilter.evaluate` decided about one fix.
public enum FilterDecision: Equatable, Sendable {
    /// The fix is usable; its horizontal accuracy (1σ) in mm, e.g. `.accepted(accuracyMillimetres: 7_500)`.
    case accepted(accuracyMillimetres: Int64)
    /// The fix is dropped, for this reason.
    case rejected(FilterRejection)

    /// The accuracy of an accepted fix in mm; nil when rejected.
    public var accuracyMillimetres: Int64? {
        if case .accepted(let accuracy) = self { return accuracy }
        return nil
    }
}

/// Why `FixFilter` dropped a fix; checked in this order, the first that applies is given.
public enum FilterRejection: Equatable, Sendable {
    /// Mode below 2D: no fix (RMC status V, GGA quality 0, GNS mode N) or nothing said.
    case invalid
    /// A 2D/3D fix without latitude and longitude.
    case noPosition
    /// No UTC time (no date yet from RMC or ZDA), so its age cannot be judged.
    case noTime
    /// Older than `maxAgeMilliseconds` behind the newest receiver time seen, or not after the
    /// last accepted fix's time (the receiver's time went backwards or repeated an epoch).
    case stale
    /// Fewer satellites in the solution than `minSatellites`, e.g. `.tooFewSatellites(3)`.
    case tooFewSatellites(UInt8)
    /// Horizontal accuracy (1σ) worse than `maxAccuracyMillimetres`, in mm,
    /// e.g. `.inaccurate(accuracyMillimetres: 70_000)` for HDOP 14 × 5 m.
    case inaccurate(accuracyMillimetres: Int64)
    /// Reaching this fix from the last accepted one needs more than `maxSpeedMillimetresPerSecond`
    /// after both accuracies are taken off the distance; the implied speed in m/s (rounded up),
    /// e.g. `.implausibleJump(metresPerSecond: 950)` for 1 km in 1 s at 25 m accuracy each.
    case implausibleJump(metresPerSecond: Int64)
}

/// Fixes seen by `FixFilter`, by outcome, for `trackctl status` and `trackctl doctor`.
public struct FilterCounters: Equatable, Sendable {
    /// Fixes accepted (recoveries included).
    public var accepted = 0
    /// Rejected as `.invalid`.
    public var invalid = 0
    /// Rejected as `.noPosition`.
    public var noPosition = 0
    /// Rejected as `.noTime`.
    public var noTime = 0
    /// Rejected as `.stale`.
    public var stale = 0
    /// Rejected as `.tooFewSatellites`.
    public var tooFewSatellites = 0
    /// Rejected as `.inaccurate`.
    public var inaccurate = 0
    /// Rejected as `.implausibleJump`.
    public var implausibleJump = 0
    /// Times the filter gave up its reference (last accepted fix, newest time) and started over
    /// from a run of fixes that agreed with each other.
    public var recoveries = 0

    /// Zeroed counters.
    public init() {}

    /// Fixes rejected for any reason.
    public var rejected: Int {
        invalid + noPosition + noTime + stale + tooFewSatellites + inaccurate + implausibleJump
    }

    /// Counts one rejection under its reason.
    public mutating func count(_ rejection: FilterRejection) {
        switch rejection {
        case .invalid: invalid += 1
        case .noPosition: noPosition += 1
        case .noTime: noTime += 1
        case .stale: stale += 1
        case .tooFewSatellites: tooFewSatellites += 1
        case .inaccurate: inaccurate += 1
        case .implausibleJump: implausibleJump += 1
        }
    }

    /// Writes `accepted=… invalid=… no-position=… …` on one line.
    public func write(to buffer: inout TextBuffer) {
        buffer.append("accepted=")
        buffer.append(integer: Int64(accepted))
        buffer.append(" invalid=")
        buffer.append(integer: Int64(invalid))
        buffer.append(" no-position=")
        buffer.append(integer: Int64(noPosition))
        buffer.append(" no-time=")
        buffer.append(integer: Int64(noTime))
        buffer.append(" stale=")
        buffer.append(integer: Int64(stale))
        buffer.append(" too-few-satellites=")
        buffer.append(integer: Int64(tooFewSatellites))
        buffer.append(" inaccurate=")
        buffer.append(integer: Int64(inaccurate))
        buffer.append(" implausible-jump=")
        buffer.append(integer: Int64(implausibleJump))
        buffer.append(" recoveries=")
        buffer.append(integer: Int64(recoveries))
    }
}
