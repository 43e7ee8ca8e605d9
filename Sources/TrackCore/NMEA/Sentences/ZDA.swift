/// ZDA, time and date: `$GPZDA,201530.00,04,07,2002,00,00*60`.
public struct ZDA: NMEASentenceDecoder, Equatable, Sendable {
    /// UTC time.
    public var time: TimeOfDay?
    /// UTC date (four-digit year); nil when any of day, month, year is empty.
    public var date: CalendarDate?
    /// Local zone offset in minutes (hours × 60 + minutes, sign of the hours).
    public var zoneOffsetMinutes: Int16?

    /// Decodes in place (the readers are `mutating` only to read in place); `s` is only read,
    /// and has the table's minimum field count.
    public init(decoding s: inout NMEASentence) throws(NMEAError) {
        time = try s.time(1)
        let day = try s.integer(2, in: 1...31)
        let month = try s.integer(3, in: 1...12)
        let year = try s.integer(4, in: 0...9999)
        if let day, let month, let year {
            guard let date = CalendarDate(year: year, month: month, day: day) else {
                throw .outOfRange(.zda, field: 4)
            }
            self.date = date
        } else {
            date = nil
        }
        if let hours = try s.decimal(5, scale: 0, in: -13...13) {
            let minutes = try s.integer(6, in: 0...59) ?? 0
            // The sign belongs to the whole offset: `-00,30` is half an hour west.
            let hoursField = s.range(of: 5)
            let west = hours < 0 || s[hoursField.lowerBound] == UInt8(ascii: "-")
            let magnitude = hours.magnitude * 60 + UInt64(minutes)
            zoneOffsetMinutes = Int16(west ? -Int64(magnitude) : Int64(magnitude))
        } else {
            zoneOffsetMinutes = nil
        }
    }

    /// The sentence type of this decoder's table row.
    public static var type: SentenceType { .zda }

    /// This sentence as an `NMEAMessage`.
    public var message: NMEAMessage { .zda(self) }

    /// What the sentence adds to the epoch in progress; true when it completed the previous one.
    public func contribute(to epoch: inout EpochAssembler, talker: UInt16) -> Bool {
        if let date { epoch.date = date; epoch.lastTimeOfDay = time }
        let done = epoch.startEpoch(at: time)
        // A time-only epoch still tells the time (the u-blox LEA-4H starts with a lone ZDA).
        if time != nil { epoch.hasData = true }
        return done
    }
}
