/// VTG, course and speed over ground: `$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A*25`.
/// The pre-NMEA-2.3 form without unit letters (`$GPVTG,054.7,034.4,005.5,010.2`) is accepted too.
public struct VTG: NMEASentenceDecoder, Equatable, Sendable {
    /// Course over ground, true, in millidegrees.
    public var courseTrueMillidegrees: Int32?
    /// Course over ground, magnetic, in millidegrees.
    public var courseMagneticMillidegrees: Int32?
    /// Speed over ground in mm/s (from knots, or km/h when knots are absent).
    public var speedMillimetresPerSecond: Int32?
    /// FAA mode indicator (NMEA 2.3+); `N` means the data are not valid.
    public var faaMode: UInt8?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        if s.fieldCount == 5 {
            // Old form: course true, course magnetic, knots, km/h with no unit letters.
            courseTrueMillidegrees = try s.course(1)
            courseMagneticMillidegrees = try s.course(2)
            speedMillimetresPerSecond = try s.knots(3)
            faaMode = nil
            return
        }
        courseTrueMillidegrees = try s.course(1)
        courseMagneticMillidegrees = try s.course(3)
        if let knots = try s.knots(5) {
            speedMillimetresPerSecond = knots
        } else if let metresPerHour = try s.decimal(7, scale: 3, in: 0...4_000_000_000) {
            speedMillimetresPerSecond = Int32((metresPerHour * 10 + 18) / 36)
        } else {
            speedMillimetresPerSecond = nil
        }
        faaMode = try s.character(9)
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .vtg }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .vtg(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        guard faaMode != UInt8(ascii: "N") else { return false }
        epoch.hasData = true
        if let courseTrueMillidegrees { epoch.fix.courseMillidegrees = courseTrueMillidegrees }
        if let speedMillimetresPerSecond { epoch.fix.speedMillimetresPerSecond = speedMillimetresPerSecond }
        return false
    }
}
