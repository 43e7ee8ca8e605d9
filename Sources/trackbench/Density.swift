import TrackCore
import TrackIO

// `trackbench density FILE.csv [SYNC_MS [KEYFRAME_MS]]`: one track of the shared layout
// (`time_utc,lat,lon,ele_m,speed_mps`) through the real log encoder, recording every fix and
// sealing a chunk whenever SYNC_MS (default 5,000: the daemon's sync interval) of fix time has
// passed since the chunk's first fix, with a keyframe every KEYFRAME_MS (default 300,000).
// Prints, for the same fixes:
//
//   fixes=N  log=B (bytes of all chunks, framing included)  chunks=K  keyframes=F
//   framing=H (of B: keyframe headers and values, CRCs; the rest is record code and padding)
//   fieldBits=a/b/c/d (bits per fix that latitude, longitude, altitude, speed cost: the log's
//   size less that of the same track with the field constant or absent)
//   varint=V (per-field zigzag varint deltas, no framing)  gpx=G (a GPX 1.1 document)
//   encodeNs=T (wall time of append and seal per fix, this machine)
//   lossless=1 when decoding every chunk gave back exactly the encoded fixes.

/// One CSV row at the log's precision; nil fields were empty.
func densityFix(_ line: ArraySlice<UInt8>) -> LogFix? {
    let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
    guard fields.count >= 3, let time = isoTime(fields[0]),
          let lat = scaledDecimal(fields[1], digits: 7), let lon = scaledDecimal(fields[2], digits: 7),
          let latE7 = Int32(exactly: lat), let lonE7 = Int32(exactly: lon) else { return nil }
    let ele = fields.count > 3 ? scaledDecimal(fields[3], digits: 1).flatMap { Int32(exactly: $0) } : nil
    let speed = fields.count > 4 ? scaledDecimal(fields[4], digits: 2).flatMap { Int32(exactly: $0) } : nil
    return LogFix(time: time, position: LogPosition(latitudeE7: latE7, longitudeE7: lonE7),
                  altitudeDecimetres: ele, speedCentimetresPerSecond: speed, mode: ele == nil ? .twoD : .threeD)
}

/// `-12.345678` with digits 7 → -123_456_780; rounds half away from zero past `digits`.
func scaledDecimal(_ field: ArraySlice<UInt8>, digits: Int) -> Int64? {
    var value: Int64 = 0
    var negative = false
    var fraction = -1
    var roundUp = false
    var sawDigit = false
    for byte in field {
        switch byte {
        case UInt8(ascii: "-") where !sawDigit && !negative: negative = true
        case UInt8(ascii: "."): guard fraction < 0 else { return nil }; fraction = 0
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            sawDigit = true
            if fraction >= digits {
                if fraction == digits { roundUp = byte >= UInt8(ascii: "5") }
                fraction += 1
                continue
            }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            if fraction >= 0 { fraction += 1 }
        default: return nil
        }
    }
    guard sawDigit else { return nil }
    for _ in min(max(fraction, 0), digits)..<digits { value *= 10 }
    if roundUp { value += 1 }
    return negative ? -value : value
}

/// `2025-06-21T12:01:29Z` or `…29.5Z` → UTC milliseconds.
func isoTime(_ field: ArraySlice<UInt8>) -> UTCTime? {
    let b = Array(field)
    func number(_ from: Int, _ count: Int) -> Int? {
        guard from + count <= b.count else { return nil }
        var value = 0
        for byte in b[from..<(from + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
    guard b.count >= 20, b.last == UInt8(ascii: "Z"), let year = number(0, 4), let month = number(5, 2),
          let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
          let date = CalendarDate(year: year, month: month, day: day) else { return nil }
    var millisecond = 0
    if b.count > 20, b[19] == UInt8(ascii: ".") {
        guard let fraction = scaledDecimal(b[19..<(b.count - 1)], digits: 3) else { return nil }
        millisecond = Int(fraction)
    }
    let ms = ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
    return UTCTime(date: date, time: TimeOfDay(millisecondsSinceMidnight: Int32(ms)))
}

/// Bytes of the per-field zigzag varint delta of `value` from `last` (absent fields cost 0).
func varintDelta(_ value: Int64?, _ last: inout Int64) -> Int {
    guard let value else { return 0 }
    defer { last = value }
    return Varint.byteCount(Varint.zigzag(value &- last))
}

/// Bytes of a GPX 1.1 track point as common writers indent it, speed in an extension.
func gpxPointBytes(_ fix: LogFix) -> Int {
    var text = TextBuffer()
    text.append("      <trkpt lat=\"")
    text.appendFixed(Int64(fix.position.latitudeE7), decimals: 7)
    text.append("\" lon=\"")
    text.appendFixed(Int64(fix.position.longitudeE7), decimals: 7)
    text.append("\">\n")
    if let ele = fix.altitudeDecimetres {
        text.append("        <ele>")
        text.appendFixed(Int64(ele), decimals: 1)
        text.append("</ele>\n")
    }
    text.append("        <time>")
    fix.time.write(to: &text)
    text.append("</time>\n")
    if let speed = fix.speedCentimetresPerSecond {
        text.append("        <extensions><speed>")
        text.appendFixed(Int64(speed), decimals: 2)
        text.append("</speed></extensions>\n")
    }
    text.append("      </trkpt>\n")
    return text.count
}

let gpxHeader: StaticString = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="trackd" xmlns="http://www.topografix.com/GPX/1/1">
      <trk>
        <trkseg>

    """
let gpxFooter: StaticString = "    </trkseg>\n  </trk>\n</gpx>\n"

/// The fixes of a track CSV in the shared layout (header line skipped).
func densityFixes(_ path: String) throws(Errno) -> [LogFix] {
    var file: [UInt8] = []
    try forEachChunk(ofFileAt: path) { chunk in file.append(contentsOf: chunk) }
    return file.split(separator: UInt8(ascii: "\n")).dropFirst().compactMap { line in
        densityFix(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
    }
}

func runDensity(_ path: String, syncMilliseconds: Int64, keyframeMilliseconds: Int64) throws(Errno) {
    let fixes = try densityFixes(path)
    let log = DensityLog(fixes, syncMilliseconds: syncMilliseconds, keyframeMilliseconds: keyframeMilliseconds)
    // What each field costs: the same track with that field made perfectly predictable (a
    // constant) or absent, so chunk boundaries and keyframes stay where they were.
    func bitsPerFix(_ change: (inout LogFix) -> Void) -> String {
        let changed = fixes.map { fix in
            var copy = fix
            change(&copy)
            return copy
        }
        let other = DensityLog(changed, syncMilliseconds: syncMilliseconds, keyframeMilliseconds: keyframeMilliseconds)
        let bits = fixes.isEmpty ? 0 : (log.bytes.count - other.bytes.count) * 80 / fixes.count
        return "\(bits / 10).\(bits % 10)"
    }
    let first = fixes.first?.position ?? LogPosition(latitudeE7: 0, longitudeE7: 0)
    let fields = [
        bitsPerFix { $0.position.latitudeE7 = first.latitudeE7 }, bitsPerFix { $0.position.longitudeE7 = first.longitudeE7 },
        bitsPerFix { $0.altitudeDecimetres = nil }, bitsPerFix { $0.speedCentimetresPerSecond = nil },
    ].joined(separator: "/")
    var varint = 0
    var last: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
    var gpx = gpxHeader.utf8CodeUnitCount + gpxFooter.utf8CodeUnitCount
    for fix in fixes {
        varint += varintDelta(fix.time.millisecondsSinceEpoch, &last.0) + varintDelta(Int64(fix.position.latitudeE7), &last.1)
            + varintDelta(Int64(fix.position.longitudeE7), &last.2)
            + varintDelta(fix.altitudeDecimetres.map { Int64($0) }, &last.3)
            + varintDelta(fix.speedCentimetresPerSecond.map { Int64($0) }, &last.4)
        gpx += gpxPointBytes(fix)
    }
    let perFix = fixes.isEmpty ? 0 : log.nanoseconds / Int64(fixes.count)
    print("fixes=\(fixes.count) log=\(log.bytes.count) chunks=\(log.chunks) keyframes=\(log.keyframes) framing=\(log.framing) fieldBits=\(fields) varint=\(varint) gpx=\(gpx) encodeNs=\(perFix) lossless=\(decodesTo(log.bytes, fixes) ? 1 : 0)")
}

