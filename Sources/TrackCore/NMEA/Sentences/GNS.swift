/// GNS, multi-constellation fix data:
/// `$GPGNS,224749.00,3333.4268304,N,11153.3538273,W,D,19,0.6,406.110,-26.294,6.0,0138,S*6A`.
public struct GNS: NMEASentenceDecoder, Equatable, Sendable {
    /// UTC time of the fix.
    public var time: TimeOfDay?
    /// Position.
    public var position: Coordinate?
    /// The first mode character (GPS): A, D, E, F, M, N, P, R, S; nil when empty.
    public var mode: UInt8?
    /// Satellites used.
    public var satellitesUsed: UInt8?
    /// HDOP × 100.
    public var hdopCenti: Int32?
    /// Altitude above mean sea level in millimetres.
    public var altitudeMSLMillimetres: Int32?
    /// Geoid separation in millimetres.
    public var geoidSeparationMillimetres: Int32?
    /// Navigation status (NMEA 4.1+): S safe, C caution, U unsafe, V not valid.
    public var navigationStatus: UInt8?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        time = try s.time(1)
        position = try s.position(latitudeAt: 2)
        let modes = s.range(of: 6)
        mode = modes.isEmpty ? nil : s.bytes.span[modes.lowerBound]
        satellitesUsed = try s.integer(7, in: 0...255).map { UInt8($0) }
        hdopCenti = try s.decimal(8, scale: 2, in: 0...99_999).map { Int32($0) }
        altitudeMSLMillimetres = try s.decimal(9, scale: 3, in: -1_000_000_000...1_000_000_000).map { Int32($0) }
        geoidSeparationMillimetres = try s.decimal(10, scale: 3, in: -1_000_000...1_000_000).map { Int32($0) }
        navigationStatus = s.fieldCount > 13 ? try s.character(13) : nil
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .gns }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .gns(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        let done = epoch.startEpoch(at: time)
        epoch.merge(self)
        return done
    }
}
