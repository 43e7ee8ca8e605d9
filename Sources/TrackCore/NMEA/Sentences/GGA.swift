/// GGA, fix data: `$GPGGA,123519,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,*47`.
public struct GGA: NMEASentenceDecoder, Equatable, Sendable {
    /// UTC time of the fix.
    public var time: TimeOfDay?
    /// Position; nil when the receiver left it empty.
    public var position: Coordinate?
    /// Fix quality 0…8 (0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float,
    /// 6 estimated, 7 manual, 8 simulator).
    public var quality: UInt8?
    /// Satellites used in the solution.
    public var satellitesUsed: UInt8?
    /// Horizontal dilution of precision × 100, e.g. `0.9` → 90.
    public var hdopCenti: Int32?
    /// Altitude above mean sea level in millimetres, e.g. `545.4` → 545_400.
    public var altitudeMSLMillimetres: Int32?
    /// Geoid separation (ellipsoid above geoid) in millimetres, e.g. `46.9` → 46_900.
    public var geoidSeparationMillimetres: Int32?
    /// Age of differential corrections in milliseconds.
    public var dgpsAgeMilliseconds: Int32?
    /// Differential reference station 0…1023.
    public var dgpsStation: UInt16?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        time = try s.time(1)
        position = try s.position(latitudeAt: 2)
        quality = try s.integer(6, in: 0...9).map { UInt8($0) }
        satellitesUsed = try s.integer(7, in: 0...255).map { UInt8($0) }
        hdopCenti = try s.decimal(8, scale: 2, in: 0...99_999).map { Int32($0) }
        altitudeMSLMillimetres = try s.decimal(9, scale: 3, in: -1_000_000_000...1_000_000_000).map { Int32($0) }
        geoidSeparationMillimetres = try s.decimal(11, scale: 3, in: -1_000_000...1_000_000).map { Int32($0) }
        dgpsAgeMilliseconds = try s.decimal(13, scale: 3, in: 0...1_000_000_000).map { Int32($0) }
        dgpsStation = try s.integer(14, in: 0...9999).map { UInt16($0) }
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .gga }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .gga(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        let done = epoch.startEpoch(at: time)
        epoch.merge(self)
        return done
    }
}

extension NMEASentence {
    // Shared by several decoders; `mutating` only to read in place (see `NMEASentence+Fields.swift`).

    /// Latitude at `index` (with hemisphere at `index + 1`) and longitude at `index + 2`
    /// (hemisphere at `index + 3`); nil unless both are present.
    mutating func position(latitudeAt index: Int) throws(NMEAError) -> Coordinate? {
        let latitude = try angle(index, maximumDegrees: 90)
        let longitude = try angle(index + 2, maximumDegrees: 180)
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitudeNanodegrees: latitude, longitudeNanodegrees: longitude)
    }

    /// Speed in knots at `index` as millimetres per second, e.g. `"005.5"` → 2_829.
    mutating func knots(_ index: Int) throws(NMEAError) -> Int32? {
        guard let milliknots = try decimal(index, scale: 3, in: 0...2_000_000_000) else { return nil }
        return Int32((milliknots * 1852 + 1800) / 3600)
    }

    /// A course or bearing in degrees 0…360 at `index`, as millidegrees.
    mutating func course(_ index: Int) throws(NMEAError) -> Int32? {
        try decimal(index, scale: 3, in: 0...360_000).map { Int32($0) }
    }
}
