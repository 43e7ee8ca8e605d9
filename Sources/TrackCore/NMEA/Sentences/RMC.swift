/// RMC, recommended minimum data:
/// `$GPRMC,225446.33,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E,A*68`.
public struct RMC: NMEASentenceDecoder, Equatable, Sendable {
    /// UTC time of the fix.
    public var time: TimeOfDay?
    /// `A` valid, `V` warning (no usable fix); nil when empty.
    public var status: UInt8?
    /// Position.
    public var position: Coordinate?
    /// Speed over ground in mm/s (sent in knots).
    public var speedMillimetresPerSecond: Int32?
    /// Course over ground, true, in millidegrees 0…360_000.
    public var courseMillidegrees: Int32?
    /// The date (two-digit year: 80–99 → 19xx, else 20xx).
    public var date: CalendarDate?
    /// Magnetic variation in millidegrees, east positive.
    public var magneticVariationMillidegrees: Int32?
    /// FAA mode indicator (NMEA 2.3+): A autonomous, D differential, E estimated, N not valid…
    public var faaMode: UInt8?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        time = try s.time(1)
        status = try s.character(2)
        position = try s.position(latitudeAt: 3)
        speedMillimetresPerSecond = try s.knots(7)
        courseMillidegrees = try s.course(8)
        date = try s.date(9)
        magneticVariationMillidegrees = Self.variation(&s)
        faaMode = try s.character(12)
    }

    /// Magnetic variation, east positive; nil when absent or unusable. It does not affect the
    /// fix, so receivers' sentinels here are tolerated rather than rejecting the sentence:
    /// the CAT MS352 sends `999.9,E` for "unknown", the Motorola T805 `0,A` (a mode letter
    /// where E/W belongs), many send `0.0,E`; below 0.1° counts as not known.
    static func variation(_ s: inout NMEASentence) -> Int32? {
        // Many receivers send `0.0,E` for "not known" rather than empty fields.
        guard let value = try? s.decimal(10, scale: 3, in: 0...180_000), value >= 100,
              let side = try? s.character(11) else { return nil }
        switch side {
        case UInt8(ascii: "E"): return Int32(value)
        case UInt8(ascii: "W"): return -Int32(value)
        default: return nil
        }
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .rmc }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .rmc(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        if status == UInt8(ascii: "A") || status == UInt8(ascii: "D"), let date {
            epoch.date = date
            epoch.lastTimeOfDay = time
        }
        let done = epoch.startEpoch(at: time)
        epoch.merge(self)
        return done
    }
}
