/// GST, pseudorange error statistics: `$GPGST,024603.00,3.2,6.6,4.7,47.3,5.8,5.6,22.0*58`.
/// The standard deviations give the fix filter a real accuracy instead of HDOP × UERE.
public struct GST: NMEASentenceDecoder, Equatable, Sendable {
    /// UTC time of the fix the statistics belong to.
    public var time: TimeOfDay?
    /// RMS of the range residuals in centimetres.
    public var rmsCentimetres: Int32?
    /// 1σ of the error ellipse's semi-major axis in centimetres.
    public var semiMajorCentimetres: Int32?
    /// 1σ of the semi-minor axis in centimetres.
    public var semiMinorCentimetres: Int32?
    /// Orientation of the semi-major axis, true north, in millidegrees.
    public var orientationMillidegrees: Int32?
    /// 1σ latitude error in centimetres.
    public var latitudeErrorCentimetres: Int32?
    /// 1σ longitude error in centimetres.
    public var longitudeErrorCentimetres: Int32?
    /// 1σ altitude error in centimetres.
    public var altitudeErrorCentimetres: Int32?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        time = try s.time(1)
        rmsCentimetres = try s.centimetres(2)
        semiMajorCentimetres = try s.centimetres(3)
        semiMinorCentimetres = try s.centimetres(4)
        orientationMillidegrees = try s.decimal(5, scale: 3, in: -360_000...360_000).map { Int32($0) }
        latitudeErrorCentimetres = try s.centimetres(6)
        longitudeErrorCentimetres = try s.centimetres(7)
        altitudeErrorCentimetres = try s.centimetres(8)
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .gst }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .gst(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        epoch.hasData = true
        epoch.fix.latitudeErrorCentimetres = latitudeErrorCentimetres
        epoch.fix.longitudeErrorCentimetres = longitudeErrorCentimetres
        epoch.fix.altitudeErrorCentimetres = altitudeErrorCentimetres
        return false
    }
}

extension NMEASentence {
    /// A non-negative length in metres at `index`, as centimetres (at most 10,000 km).
    mutating func centimetres(_ index: Int) throws(NMEAError) -> Int32? {
        try decimal(index, scale: 2, in: 0...1_000_000_000).map { Int32($0) }
    }
}
