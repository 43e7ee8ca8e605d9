import Foundation
@testable import TrackCore
import TestData
import Testing

/// The real recorded tracks beside the repository (`../shared/data/tracks/csv/*.csv`, see that
/// folder's README), read as fixes.
///
/// Each row becomes a fix: time, position, altitude (3D when present, else 2D) and speed as
/// recorded. The files carry no course, no DOP and no satellite count: the course is the
/// bearing from the previous row (as a receiver without Doppler derives it), a missing speed
/// is the distance from the previous row over the time, and the accuracy is the filter's
/// assumed HDOP. Rows are kept as recorded: repeated times, gaps and outliers included.
enum SharedTracks {
    static let directory: URL? = TestData.shared("tracks/csv")

    /// Every track as (name, fixes), by name.
    static func load() throws -> [(name: String, fixes: [Fix])] {
        guard let directory else { return [] }
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "csv" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return try files.map { url in
            (url.deletingPathExtension().lastPathComponent, fixes(csv: try String(contentsOf: url, encoding: .utf8)))
        }
    }

    /// Fixes from `time_utc,lat,lon,ele_m,speed_mps` rows.
    static func fixes(csv: String) -> [Fix] {
        var result: [Fix] = []
        for line in csv.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5, let time = utcTime(fields[0]),
                  let latitude = nanodegrees(fields[1]), let longitude = nanodegrees(fields[2]) else {
                Issue.record("unreadable row: \(line)")
                continue
            }
            var fix = Fix()
            fix.time = time
            fix.position = Coordinate(latitudeNanodegrees: latitude, longitudeNanodegrees: longitude)
            fix.altitudeMSLMillimetres = Double(fields[3]).map { Int32(($0 * 1000).rounded()) }
            fix.mode = fix.altitudeMSLMillimetres == nil ? .twoD : .threeD
            fix.speedMillimetresPerSecond = Double(fields[4]).map { Int32(($0 * 1000).rounded()) }
            if let previous = result.last, let from = previous.position, let to = fix.position,
               let start = previous.time, time.millisecondsSinceEpoch > start.millisecondsSinceEpoch {
                let step = geodesicDistanceAndBearing(from, to)
                if step.metres > 0 { fix.courseMillidegrees = Int32((step.degrees * 1000).rounded()) % 360_000 }
                if fix.speedMillimetresPerSecond == nil {
                    let seconds = Double(time.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 1000
                    fix.speedMillimetresPerSecond = Int32((step.metres / seconds * 1000).rounded())
                }
            }
            result.append(fix)
        }
        return result
    }

    /// `2010-02-01T12:31:38.545Z` or without the fraction.
    static func utcTime(_ text: String) -> UTCTime? {
        let digits = text.filter(\.isNumber).compactMap(\.wholeNumberValue)
        guard text.hasSuffix("Z"), digits.count == 14 || digits.count == 17 else { return nil }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
        let milliseconds = digits.count == 17 ? number(14..<17) : 0
        guard let date = CalendarDate(year: number(0..<4), month: number(4..<6), day: number(6..<8)) else { return nil }
        let ofDay = ((number(8..<10) * 60 + number(10..<12)) * 60 + number(12..<14)) * 1000 + milliseconds
        return UTCTime(date: date, time: TimeOfDay(millisecondsSinceMidnight: Int32(ofDay)))
    }

    /// Decimal degrees to nanodegrees without going through binary floating point.
    static func nanodegrees(_ text: String) -> Int64? {
        let negative = text.hasPrefix("-")
        let parts = text.dropFirst(negative ? 1 : 0).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int64(parts[0]) else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 9, fraction.allSatisfy(\.isNumber) else { return nil }
        let scaled = whole * 1_000_000_000 + (Int64(fraction.padding(toLength: 9, withPad: "0", startingAt: 0)) ?? 0)
        return negative ? -scaled : scaled
    }
}
