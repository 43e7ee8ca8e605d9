/// GLL, geographic position: `$GPGLL,4916.45,N,12311.12,W,225444,A,A*5C`.
public struct GLL: Equatable, Sendable {
    /// Position.
    public var position: Coordinate?
    /// UTC time of the position (absent on some Garmin 65 units).
    public var time: TimeOfDay?
    /// `A` valid, `V` invalid.
    public var status: UInt8?
    /// FAA mode indicator (NMEA 2.3+).
    public var faaMode: UInt8?

    /// Decodes a framed GLL sentence.
    public init(_ s: borrowing NMEASentence) throws(NMEAError) {
        var sentence = copy s
        try self.init(decoding: &sentence)
    }

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read.
    init(decoding s: inout NMEASentence) throws(NMEAError) {
        guard s.fieldCount >= 5 else { throw .tooFewFields(.gll, count: s.fieldCount) }
        position = try s.position(latitudeAt: 1)
        time = try s.time(5)
        status = try s.character(6)
        faaMode = try s.character(7)
    }
}
