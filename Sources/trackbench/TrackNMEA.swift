import Glibc
import TrackCore
import TrackIO

// `trackbench tracknmea FILE.csv`: a track of the shared layout (`time_utc,lat,lon,ele_m,
// speed_mps`) as the NMEA a receiver would have sent for it, one epoch per row, on standard
// output, so the real daemon can replay it (`trackd --replay FILE --speed 0`).
//
// Each epoch is RMC, GGA, GSA and GST with a `GN` talker, formatted as the u-blox NEO-M9N of the
// shared captures (ublox-neo-m9n-nmea.log) formats them: `hhmmss.ss`, five decimals of a minute
// (≈ 1.9 cm), speed in knots with three decimals, course with two, HDOP with two, GST errors with
// two significant digits. What the rows do not hold is made up, deterministically:
//
// * speed and course from the points: the mean of the velocities to the previous and to the next
//   point (each only when 0 < Δt ≤ 10 s), as a receiver's instantaneous velocity; the course is
//   left empty below 0.5 m/s, as the M9N leaves it when standing;
// * satellites used: a walk between 7 and 14, one step now and then (about once a minute);
//   HDOP 0.40 + 6 / satellites, PDOP 1.8 × HDOP, VDOP 1.5 × HDOP;
// * GST: latitude and longitude errors of 1.2 × HDOP m times a slow random walk of 0.6…2.5, each
//   moving by 1 % half the time, so the accuracy the daemon logs drifts like a real receiver's;
// * the geoid separation is a constant 47.0 m (it is not logged).
//
// Rows without elevation give 2D fixes (GSA mode 2, GGA altitude empty). The rows' own speed
// column is used only with `--recorded-speed` (then a row's speed, where it has one, replaces the
// one from the points: a device's Doppler or wheel speed, to see what the made-up speed costs).

/// A small deterministic generator (xorshift64*), so every run writes the same bytes.
struct BenchRandom {
    var state: UInt64

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A value in 0..<bound.
    mutating func below(_ bound: UInt64) -> UInt64 { next() % bound }
}

/// Velocity in metres per second, north and east.
struct Velocity {
    var north: Double
    var east: Double
}

func velocity(from a: LogFix, to b: LogFix) -> Velocity? {
    let seconds = Double(b.time.millisecondsSinceEpoch - a.time.millisecondsSinceEpoch) / 1000
    guard seconds > 0, seconds <= 10 else { return nil }
    let inverse = Geodesic.inverse(a.position.coordinate, b.position.coordinate)
    let azimuth = inverse.initialAzimuthDegrees * Double.pi / 180
    let speed = inverse.distanceMetres / seconds
    return Velocity(north: speed * cos(azimuth), east: speed * sin(azimuth))
}

func checksummed(_ body: String) -> String {
    var sum: UInt8 = 0
    for byte in body.utf8 { sum ^= byte }
    let hex = Array("0123456789ABCDEF".utf8)
    return "$" + body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self) + "\r\n"
}

/// `value` (an integer count of 10^-decimals units) as a decimal string, e.g. (1234, 2) → "12.34".
func fixed(_ value: Int64, _ decimals: Int) -> String {
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let sign = value < 0 ? "-" : ""
    let whole = String(value.magnitude / UInt64(scale))
    guard decimals > 0 else { return sign + whole }
    var fraction = String(value.magnitude % UInt64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return sign + whole + "." + fraction
}

/// Two significant digits as the M9N prints its GST errors: 0.98, 1.0, 12.
func significant(_ metres: Double) -> String {
    if metres < 1 { return fixed(Int64((metres * 100).rounded()), 2) }
    if metres < 10 { return fixed(Int64((metres * 10).rounded()), 1) }
    return fixed(Int64(metres.rounded()), 0)
}

func padded(_ value: Int64, _ width: Int) -> String {
    var text = String(value)
    while text.count < width { text = "0" + text }
    return text
}

/// `ddmm.mmmmm` (or `dddmm.mmmmm`) of 1e-7 degrees, rounded to 1e-5 minute.
func angle(_ e7: Int32, degreeDigits: Int) -> String {
    let units = (Int64(e7.magnitude) * 60 + 50) / 100
    return padded(units / 6_000_000, degreeDigits) + padded(units % 6_000_000 / 100_000, 2) + "."
        + padded(units % 100_000, 5)
}

func runTrackNMEA(_ path: String, recordedSpeed: Bool = false) throws(Errno) {
    let fixes = try densityFixes(path)
    var random = BenchRandom(state: 0x9E37_79B9_7F4A_7C15)
    var satellites: Int64 = 11
    var latitudeFactor = 1.0
    var longitudeFactor = 1.0
    var out = ""
    out.reserveCapacity(fixes.count * 300)
    for index in fixes.indices {
        let fix = fixes[index]
        // Receivers print centiseconds: the time rounded to 10 ms.
        let time = UTCTime(millisecondsSinceEpoch: (fix.time.millisecondsSinceEpoch + 5) / 10 * 10)
        let day = time.millisecondOfDay
        let clock = padded(day / 3_600_000, 2) + padded(day / 60_000 % 60, 2) + padded(day / 1000 % 60, 2) + "."
            + padded(day % 1000 / 10, 2)
        let date = time.date
        let ddmmyy = padded(Int64(date.day), 2) + padded(Int64(date.month), 2) + padded(Int64(date.year) % 100, 2)
        let position = angle(fix.position.latitudeE7, degreeDigits: 2) + (fix.position.latitudeE7 < 0 ? ",S," : ",N,")
            + angle(fix.position.longitudeE7, degreeDigits: 3) + (fix.position.longitudeE7 < 0 ? ",W" : ",E")

        var velocities: [Velocity] = []
        if index > 0, let back = velocity(from: fixes[index - 1], to: fix) { velocities.append(back) }
        if index + 1 < fixes.count, let ahead = velocity(from: fix, to: fixes[index + 1]) { velocities.append(ahead) }
        var north = 0.0
        var east = 0.0
        for v in velocities {
            north += v.north / Double(velocities.count)
            east += v.east / Double(velocities.count)
        }
        var speed = (north * north + east * east).squareRoot()
        if recordedSpeed, let recorded = fix.speedCentimetresPerSecond { speed = Double(recorded) / 100 }
        let knots = fixed(Int64((speed * 3600 / 1852 * 1000).rounded()), 3)
        var course = ""
        if speed >= 0.5 {
            var degrees = atan2(east, north) * 180 / Double.pi
            if degrees < 0 { degrees += 360 }
            course = fixed(Int64((degrees * 100).rounded()) % 36_000, 2)
        }

        // About once a minute a satellite rises or sets.
        if random.below(60) == 0 { satellites = min(14, max(7, satellites + (random.below(2) == 0 ? -1 : 1))) }
        let hdop = 40 + 600 / satellites
        for factor in [0, 1] {
            let step = random.below(4)
            let change = step == 0 ? 0.99 : step == 1 ? 1.01 : 1.0
            if factor == 0 { latitudeFactor = min(2.5, max(0.6, latitudeFactor * change)) }
            else { longitudeFactor = min(2.5, max(0.6, longitudeFactor * change)) }
        }
        let hdopMetres = Double(hdop) / 100
        let latitudeError = 1.2 * hdopMetres * latitudeFactor
        let longitudeError = 1.2 * hdopMetres * longitudeFactor
        let has3D = fix.altitudeDecimetres != nil

        out += checksummed("GNRMC," + clock + ",A," + position + "," + knots + "," + course + "," + ddmmyy + ",,,A")
        let altitude = fix.altitudeDecimetres.map { fixed(Int64($0), 1) + ",M,47.0,M," } ?? ",,,,"
        out += checksummed("GNGGA," + clock + "," + position + ",1," + padded(satellites, 2) + "," + fixed(hdop, 2)
                           + "," + altitude + ",")
        var prns = ""
        for slot in 0..<12 { prns += "," + (slot < satellites ? padded(Int64(2 + slot * 2), 2) : "") }
        out += checksummed("GNGSA,A," + (has3D ? "3" : "2") + prns + "," + fixed(hdop * 18 / 10, 2) + ","
                           + fixed(hdop, 2) + "," + fixed(hdop * 15 / 10, 2))
        let rms = significant((latitudeError * latitudeError + longitudeError * longitudeError).squareRoot())
        out += checksummed("GNGST," + clock + "," + rms + "," + significant(max(latitudeError, longitudeError)) + ","
                           + significant(min(latitudeError, longitudeError)) + ",0," + significant(latitudeError) + ","
                           + significant(longitudeError) + "," + significant(latitudeError * 2.5))
        if out.utf8.count >= 1 << 16 {
            try FileDescriptor.standardOutput.writeAll(out)
            out.removeAll(keepingCapacity: true)
        }
    }
    try FileDescriptor.standardOutput.writeAll(out)
}
