/// GLL, geographic position: `$GPGLL,4916.45,N,12311.12,W,225444,A,A*5C`.
public struct GLL: NMEASentenceDecoder, Equatable, Sendable {
    /// Position.
    public var position: Coordinate?
    /// UTC time of the position (absent on some Garmin 65 units).
    public var time: TimeOfDay?
    /// `A` valid, `V` invalid.
    public var status: UInt8?
    /// FAA mode indicator (NMEA 2.3+).
    public var faaMode: UInt8?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        position = try s.position(latitudeAt: 1)
        time = try s.time(5)
        status = try s.character(6)
        faaMode = try s.character(7)
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .gll }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .gll(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        let done = epoch.startEpoch(at: time)
        epoch.merge(self)
        return done
    }
}
