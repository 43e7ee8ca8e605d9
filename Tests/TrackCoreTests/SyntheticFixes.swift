import Foundation
import TrackCore

/// Synthetic fixes for the filter and sampling tests: positions given in metres north and east
/// of a fixed origin, times in seconds after a fixed instant.
enum Synthetic {
    /// 48.0°N 11.0°E.
    static let originLatitude = 48.0
    static let originLongitude = 11.0
    /// 2024-05-01T12:00:00Z.
    static let originMilliseconds: Int64 = 1_714_564_800_000

    /// The position `north`, `east` metres from the origin, on a local tangent plane with the
    /// WGS-84 radii of curvature at the mean latitude: the plane the filter measures on, so the
    /// expected distances and speeds in the tests come out exact.
    static func coordinate(north: Double, east: Double) -> Coordinate {
        let a = 6_378_137.0, e2 = 0.006_694_379_990_141_3
        var latitude = originLatitude
        var longitude = originLongitude
        for _ in 0..<4 {
            let mean = (originLatitude + latitude) / 2 * .pi / 180
            let w = 1 - e2 * sin(mean) * sin(mean)
            latitude = originLatitude + north / (a * (1 - e2) / pow(w, 1.5)) * 180 / .pi
            longitude = originLongitude + east / (a / w.squareRoot() * cos(mean)) * 180 / .pi
        }
        return Coordinate(
            latitudeNanodegrees: Int64((latitude * 1e9).rounded()),
            longitudeNanodegrees: Int64((longitude * 1e9).rounded()))
    }

    /// A fix `seconds` after the origin time; `nil` for `time`/`position` leaves them out.
    /// Accuracy inputs: `hdop` (e.g. 1.0 → 5 m with the default UERE) and GST 1σ errors in metres.
    static func fix(
        _ seconds: Double?,
        north: Double = 0, east: Double = 0, hasPosition: Bool = true,
        mode: FixMode = .threeD,
        hdop: Double? = 1.0,
        gstLatitude: Double? = nil, gstLongitude: Double? = nil,
        speed: Double? = nil, course: Double? = nil,
        satellites: UInt8? = 8
    ) -> Fix {
        var fix = Fix()
        fix.mode = mode
        if let seconds { fix.time = UTCTime(millisecondsSinceEpoch: originMilliseconds + Int64((seconds * 1000).rounded())) }
        if hasPosition { fix.position = coordinate(north: north, east: east) }
        fix.hdopCenti = hdop.map { Int32(($0 * 100).rounded()) }
        fix.latitudeErrorCentimetres = gstLatitude.map { Int32(($0 * 100).rounded()) }
        fix.longitudeErrorCentimetres = gstLongitude.map { Int32(($0 * 100).rounded()) }
        fix.speedMillimetresPerSecond = speed.map { Int32(($0 * 1000).rounded()) }
        fix.courseMillidegrees = course.map { Int32(($0 * 1000).rounded()) }
        fix.satellitesUsed = satellites
        return fix
    }

    /// The loop clock for a fix: its UTC time since the origin, as if read the moment it came.
    static func now(_ fix: Fix) -> MonotonicTime {
        .milliseconds((fix.time?.millisecondsSinceEpoch ?? originMilliseconds) - originMilliseconds + 10_000)
    }
}
