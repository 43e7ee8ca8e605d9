/// GBS, satellite fault detection (receiver autonomous integrity monitoring):
/// `$GPGBS,082941.00,2.4,1.5,3.9,25,,-43.7,27.5*65`. Its expected errors are a second
/// accuracy source beside GST's.
public struct GBS: NMEASentenceDecoder, Equatable, Sendable {
    /// UTC time of the fix (GGA or GNS) the errors belong to.
    public var time: TimeOfDay?
    /// Expected error in latitude in centimetres, e.g. `2.4` → 240.
    public var latitudeErrorCentimetres: Int32?
    /// Expected error in longitude in centimetres.
    public var longitudeErrorCentimetres: Int32?
    /// Expected error in altitude in centimetres.
    public var altitudeErrorCentimetres: Int32?
    /// The satellite most likely failed (its ID as GSA and GSV give it), e.g. 25.
    public var failedSatellite: UInt16?
    /// Estimated bias on that satellite in centimetres, signed, e.g. `-43.7` → -4_370.
    public var biasCentimetres: Int32?
    /// Standard deviation of that bias estimate in centimetres.
    public var biasDeviationCentimetres: Int32?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count: address, time and the three errors.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        time = try s.time(1)
        latitudeErrorCentimetres = try s.centimetres(2)
        longitudeErrorCentimetres = try s.centimetres(3)
        altitudeErrorCentimetres = try s.centimetres(4)
        failedSatellite = try s.integer(5, in: 1...999).map { UInt16($0) }
        // Field 6, the probability of missed detection, is not used.
        biasCentimetres = try s.decimal(7, scale: 2, in: -1_000_000_000...1_000_000_000).map { Int32($0) }
        biasDeviationCentimetres = try s.centimetres(8)
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .gbs }

    /// The expected errors become the epoch's when the GBS is stamped with the epoch's second,
    /// as gpsd does (it compares hours, minutes and whole seconds); a GBS of another second is
    /// left out. A GBS never starts an epoch.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        guard let time, let current = epoch.epochTime,
              time.millisecondsSinceMidnight / 1000 == current.millisecondsSinceMidnight / 1000 else { return false }
        epoch.fix.expectedLatitudeErrorCentimetres = latitudeErrorCentimetres
        epoch.fix.expectedLongitudeErrorCentimetres = longitudeErrorCentimetres
        epoch.fix.expectedAltitudeErrorCentimetres = altitudeErrorCentimetres
        return false
    }
}
