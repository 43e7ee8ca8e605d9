/// One satellite of a GSV sentence.
public struct SatelliteInView: Equatable, Sendable {
    /// Satellite ID as sent (GPS 1–32, SBAS 33–64, GLONASS 65–96, …).
    public var id: UInt16
    /// Elevation in degrees 0…90.
    public var elevationDegrees: Int8?
    /// Azimuth in degrees 0…359.
    public var azimuthDegrees: Int16?
    /// Signal to noise ratio in dB-Hz 0…99; nil when not tracked.
    public var snr: UInt8?

    /// A satellite entry.
    public init(id: UInt16, elevationDegrees: Int8?, azimuthDegrees: Int16?, snr: UInt8?) {
        self.id = id
        self.elevationDegrees = elevationDegrees
        self.azimuthDegrees = azimuthDegrees
        self.snr = snr
    }
}

/// GSV, satellites in view, one of a numbered set:
/// `$GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45*75`.
public struct GSV: NMEASentenceDecoder, Equatable, Sendable {
    /// Number of sentences in the set.
    public var total: UInt8
    /// This sentence's number, 1…total.
    public var number: UInt8
    /// Satellites in view for this talker (and signal).
    public var satellitesInView: UInt8?
    /// Up to four satellites (first `satelliteCount` entries).
    public var satellites: InlineArray<4, SatelliteInView>
    /// Number of valid entries in `satellites`.
    public var satelliteCount: Int
    /// NMEA 4.1 signal ID 0–15, when sent: one hex digit in NMEA 4.11 (the ST Teseo LIV4F
    /// sends `B` for a BeiDou signal: `$BDGSV,2,2,06,38,11,027,23,43,09,259,23,,,,,,,,,B`).
    public var signalID: UInt8?
    /// GNSS system ID (1 GPS … 6 NavIC), which Quectel sends after the signal ID:
    /// `$PQGSV,4,1,15,02,20,116,,03,,,,05,34,137,,07,06,045,,0,4`.
    public var systemID: UInt8?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        guard let total = try s.integer(1, in: 1...99) else { throw .malformedField(.gsv, field: 1) }
        guard let number = try s.integer(2, in: 1...99) else { throw .malformedField(.gsv, field: 2) }
        guard number <= total else { throw .outOfRange(.gsv, field: 2) }
        self.total = UInt8(total)
        self.number = UInt8(number)
        satellitesInView = try s.integer(3, in: 0...255).map { UInt8($0) }
        // After the count come groups of four fields; one extra field is the NMEA 4.1 signal ID.
        let groupFields = s.fieldCount - 4
        // One extra field is the NMEA 4.1 signal ID; two are Quectel's signal and system IDs.
        let extra = groupFields % 4
        signalID = extra == 1 || extra == 2 ? try Self.signal(&s, s.fieldCount - extra) : nil
        systemID = extra == 2 ? try s.integer(s.fieldCount - 1, in: 0...15).map { UInt8($0) } : nil
        satellites = InlineArray(repeating: SatelliteInView(id: 0, elevationDegrees: nil, azimuthDegrees: nil, snr: nil))
        satelliteCount = 0
        var index = 4
        while index + 3 < s.fieldCount && satelliteCount < 4 {
            defer { index += 4 }
            guard let id = try s.integer(index, in: 0...999) else { continue }
            satellites[satelliteCount] = SatelliteInView(
                id: UInt16(id),
                elevationDegrees: try s.whole(index + 1, in: -90...90).map { Int8($0) },
                azimuthDegrees: try s.whole(index + 2, in: 0...360).map { Int16($0) },
                snr: try s.integer(index + 3, in: 0...99).map { UInt8($0) })
            satelliteCount += 1
        }
    }

    /// Field `index` as a signal ID: one hex digit, or a number 0–15 (`"01"`).
    @inline(__always)
    static func signal(_ s: inout NMEASentence, _ index: Int) throws(NMEAError) -> UInt8? {
        let field = s.range(of: index)
        guard field.count == 1 else { return try s.integer(index, in: 0...15).map { UInt8($0) } }
        let byte = s.bytes.span[field.lowerBound]
        if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { return byte - UInt8(ascii: "0") }
        if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F") { return byte - UInt8(ascii: "A") + 10 }
        throw .malformedField(.gsv, field: index)
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .gsv }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .gsv(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        epoch.hasData = true
        epoch.sky.add(self, talker: talker)
        let slot = Int(talkerSlot(talker))
        if let satellitesInView { epoch.inViewByTalker[slot] = satellitesInView }
        var total = 0
        for index in 0..<8 { total += Int(epoch.inViewByTalker[index]) }
        epoch.fix.satellitesInView = UInt8(min(total, 255))
        return false
    }
}

extension GSV {
    public static func == (lhs: GSV, rhs: GSV) -> Bool {
        lhs.total == rhs.total && lhs.number == rhs.number && lhs.satellitesInView == rhs.satellitesInView
            && lhs.signalID == rhs.signalID && lhs.systemID == rhs.systemID
            && prefixEqual(lhs.satellites, lhs.satelliteCount, rhs.satellites, rhs.satelliteCount)
    }
}
