/// A UTC time of day from a receiver, e.g. `123519.50` → 45_319_500 ms (12:35:19.500).
///
/// 0 ≤ value < 86_401_000 (a leap second may read 23:59:60).
public struct TimeOfDay: Equatable, Hashable, Sendable {
    /// Milliseconds since 00:00:00 UTC.
    public var millisecondsSinceMidnight: Int32

    /// A time of day from milliseconds since midnight.
    public init(millisecondsSinceMidnight: Int32) {
        self.millisecondsSinceMidnight = millisecondsSinceMidnight
    }
}

/// A calendar date in the proleptic Gregorian calendar, e.g. 2007-12-23.
public struct CalendarDate: Equatable, Hashable, Sendable {
    /// Full year, e.g. 2007.
    public var year: Int16
    /// Month 1…12.
    public var month: UInt8
    /// Day of month 1…31 (checked against the month's length).
    public var day: UInt8

    /// A date, or nil when the day does not exist (e.g. 2023-02-29) or the year is outside
    /// 1980…2200.
    public init?(year: Int, month: Int, day: Int) {
        guard (1980...2200).contains(year), (1...12).contains(month), day >= 1,
              day <= CalendarDate.daysIn(month: month, year: year) else { return nil }
        self.year = Int16(year)
        self.month = UInt8(month)
        self.day = UInt8(day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (negative before), by Howard Hinnant's days-from-civil algorithm.
    public var daysSinceEpoch: Int64 {
        let y = Int64(year) - (month <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `daysSinceEpoch` days after 1970-01-01 (inverse of `daysSinceEpoch`).
    public init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        year = Int16(truncatingIfNeeded: yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
        self.month = UInt8(truncatingIfNeeded: month)
        self.day = UInt8(truncatingIfNeeded: day)
    }
}

/// An instant in UTC as milliseconds since 1970-01-01T00:00:00Z, e.g. 2007-12-23T19:32:21Z is
/// 1_198_438_341_000. Leap seconds are not counted (POSIX time).
public struct UTCTime: Comparable, Hashable, Sendable {
    /// Milliseconds since the Unix epoch.
    public var millisecondsSinceEpoch: Int64

    /// An instant from milliseconds since the epoch.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// Combines a receiver's date and time of day.
    public init(date: CalendarDate, time: TimeOfDay) {
        millisecondsSinceEpoch = date.daysSinceEpoch * 86_400_000 + Int64(time.millisecondsSinceMidnight)
    }

    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// The calendar date of this instant.
    public var date: CalendarDate {
        CalendarDate(daysSinceEpoch: floorDivide(millisecondsSinceEpoch, 86_400_000))
    }

    /// Milliseconds since midnight of `date`.
    public var millisecondOfDay: Int64 {
        millisecondsSinceEpoch - floorDivide(millisecondsSinceEpoch, 86_400_000) * 86_400_000
    }
}

@inline(__always)
func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
