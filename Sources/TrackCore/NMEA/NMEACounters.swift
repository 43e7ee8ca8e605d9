/// What the receiver pipeline has seen since start; every dropped sentence is counted once.
public struct NMEACounters: Equatable, Sendable {
    /// Sentences that passed the checksum and decoded.
    public var accepted = 0
    /// Sentences whose checksum did not match.
    public var badChecksum = 0
    /// Lines longer than `NMEASentence.maximumLength`.
    public var overlong = 0
    /// Well-formed sentences of a type trackd does not decode.
    public var unknown = 0
    /// Proprietary `$P…` sentences (skipped, not errors).
    public var proprietary = 0
    /// Sentences with a field value out of range (minutes ≥ 60, latitude > 90°, …).
    public var outOfRange = 0
    /// Other rejects: missing checksum, bad bytes, cut-off sentences, malformed fields.
    public var malformed = 0
    /// Fixes emitted by the epoch assembler.
    public var fixes = 0

    /// Zeroed counters.
    public init() {}

    /// Counts a rejected sentence under its reason.
    public mutating func count(_ error: NMEAError) {
        switch error {
        case .badChecksum: badChecksum += 1
        case .overlong: overlong += 1
        case .outOfRange: outOfRange += 1
        case .missingChecksum, .malformedChecksum, .invalidByte, .truncated, .tooManyFields,
             .tooFewFields, .malformedField:
            malformed += 1
        }
    }

    /// Writes `accepted=… badChecksum=… …` on one line.
    public func write(to buffer: inout TextBuffer) {
        buffer.append("accepted=")
        buffer.append(integer: Int64(accepted))
        buffer.append(" bad-checksum=")
        buffer.append(integer: Int64(badChecksum))
        buffer.append(" overlong=")
        buffer.append(integer: Int64(overlong))
        buffer.append(" unknown=")
        buffer.append(integer: Int64(unknown))
        buffer.append(" proprietary=")
        buffer.append(integer: Int64(proprietary))
        buffer.append(" out-of-range=")
        buffer.append(integer: Int64(outOfRange))
        buffer.append(" malformed=")
        buffer.append(integer: Int64(malformed))
        buffer.append(" fixes=")
        buffer.append(integer: Int64(fixes))
    }
}
