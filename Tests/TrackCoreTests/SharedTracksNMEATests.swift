import Foundation
@testable import TrackCore
import TestData
import Testing

/// The real tracks replayed as a receiver would send them: each row becomes an RMC and a GGA
/// (five decimals of minutes, decimetres, thousandths of a knot), through the real framer,
/// decoders and epoch assembler, then the filter and every profile. The decisions must be
/// those made on the rows themselves, up to what NMEA's precision rounds away.
@Suite("Shared tracks replayed as NMEA")
struct SharedTracksNMEATests {
    @Test(.needsShared("tracks/csv"))
    func replayAsNMEA() throws {
        var summary = ["track: rows / epochs out / accepted direct, via NMEA / track profile direct, via NMEA"]
        for (name, rows) in try SharedTracks.load() {
            var text = ""
            for fix in rows { text += Self.sentences(fix) }
            var receiver = NMEAReceiver()
            var decoded: [Fix] = []
            Array(text.utf8).withUnsafeBytes { bytes in receiver.consume(bytes) { decoded.append(copy $0) } }
            receiver.finish { decoded.append(copy $0) }
            #expect(receiver.counters.accepted == rows.count * 2, "\(name): every sentence accepted")
            #expect(receiver.counters.malformed + receiver.counters.badChecksum + receiver.counters.outOfRange == 0)
            // Rows with a repeated time are one epoch; every other row is its own.
            var distinctTimes = 0
            var lastTime: UTCTime?
            for row in rows where row.time != lastTime {
                distinctTimes += 1
                lastTime = row.time
            }
            #expect(decoded.count == distinctTimes, "\(name): one fix per epoch")
            // Positions survive at NMEA's precision: 1e-5 minute is 1.7e-7°. Rows sharing a time
            // (car-m241-rome has up to five) are one epoch, which keeps one of their positions.
            var rowsByTime: [Int64: [Coordinate]] = [:]
            for row in rows {
                if let time = row.time, let position = row.position {
                    rowsByTime[time.millisecondsSinceEpoch, default: []].append(position)
                }
            }
            for fix in decoded {
                guard let time = fix.time, let position = fix.position,
                      let candidates = rowsByTime[time.millisecondsSinceEpoch] else {
                    Issue.record("\(name): a fix without a row of its time")
                    continue
                }
                #expect(candidates.contains {
                    abs($0.latitudeNanodegrees - position.latitudeNanodegrees) <= 170
                        && abs($0.longitudeNanodegrees - position.longitudeNanodegrees) <= 170
                }, "\(name) at \(time.millisecondsSinceEpoch)")
            }
            let direct = Self.decisions(rows)
            let viaNMEA = Self.decisions(decoded)
            // Repeated-time rows are stale duplicates to the filter; as NMEA they merge first.
            #expect(viaNMEA.accepted <= direct.accepted)
            #expect(viaNMEA.accepted >= direct.accepted - (rows.count - distinctTimes))
            let tolerance = max(3, direct.recorded / 100)
            #expect(abs(viaNMEA.recorded - direct.recorded) <= tolerance, "\(name): \(viaNMEA.recorded) vs \(direct.recorded)")
            summary.append("\(name): \(rows.count) / \(decoded.count) / \(direct.accepted), \(viaNMEA.accepted) / \(direct.recorded), \(viaNMEA.recorded)")
        }
        print(summary.joined(separator: "\n"))
    }

    static func decisions(_ fixes: [Fix]) -> (accepted: Int, recorded: Int) {
        var filter = FixFilter()
        var sampling = SamplingPolicy(settings: SamplingProfile.track.settings)
        var accepted = 0
        var recorded = 0
        for (second, fix) in fixes.enumerated() {
            let now = MonotonicTime.seconds(Int64(second))
            guard case .accepted(let accuracy) = filter.evaluate(fix, now: now) else { continue }
            accepted += 1
            if sampling.consider(fix, accuracyMillimetres: accuracy, now: now) != nil { recorded += 1 }
        }
        return (accepted, recorded)
    }

    /// RMC and GGA for one row, as a u-blox receiver at its default precision would send them.
    static func sentences(_ fix: Fix) -> String {
        guard let time = fix.time, let position = fix.position else { return "" }
        let date = time.date
        let ms = time.millisecondOfDay
        let hhmmss = String(format: "%02d%02d%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        let ddmmyy = String(format: "%02d%02d%02d", date.day, date.month, Int(date.year) % 100)
        let latitude = angle(position.latitudeNanodegrees, degreeDigits: 2, positive: "N", negative: "S")
        let longitude = angle(position.longitudeNanodegrees, degreeDigits: 3, positive: "E", negative: "W")
        let knots = fix.speedMillimetresPerSecond.map { String(format: "%.3f", Double($0) / 1000 / 0.514444) } ?? ""
        let course = fix.courseMillidegrees.map { String(format: "%.2f", Double($0) / 1000) } ?? ""
        let altitude = fix.altitudeMSLMillimetres.map { String(format: "%.1f", Double($0) / 1000) } ?? ""
        return nmea("GPRMC,\(hhmmss),A,\(latitude),\(longitude),\(knots),\(course),\(ddmmyy),,,A") + "\r\n"
            + nmea("GPGGA,\(hhmmss),\(latitude),\(longitude),1,08,1.0,\(altitude),M,47.0,M,,") + "\r\n"
    }

    /// `4807.03800,N` from nanodegrees, five decimals of minutes.
    static func angle(_ nanodegrees: Int64, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = nanodegrees.magnitude
        let degrees = magnitude / 1_000_000_000
        // Minutes in 1e-5: nanodegrees × 60 / 10⁴, rounded.
        var minutes = ((magnitude % 1_000_000_000) * 60 + 5_000) / 10_000
        var wholeDegrees = degrees
        if minutes >= 6_000_000 { minutes -= 6_000_000; wholeDegrees += 1 }
        let text = String(format: "%0\(degreeDigits)d%02d.%05d", wholeDegrees, minutes / 100_000, minutes % 100_000)
        return text + "," + (nanodegrees < 0 ? negative : positive)
    }
}
