import TrackCore
import TrackIO

// `trackbench density FILE.csv [SYNC_MS [KEYFRAME_MS]]`: one track of the shared layout
// (`time_utc,lat,lon,ele_m,speed_mps`) through the real log encoder, recording every fix and
// sealing a chunk whenever SYNC_MS (default 5,000: the daemon's sync interval) of fix time has
// passed since the chunk's first fix, with a keyframe every KEYFRAME_MS (default 300,000).
// Prints, for the same fixes:
//
//   fixes=N  log=B (bytes of all chunks, framing included)  chunks=K  keyframes=F
//   framing=H (of B: keyframe headers and values, CRCs and checks; the rest is record code and padding)
//   fieldBits=a/b/c/d (bits per fix that latitude, longitude, altitude, speed cost: the log's
//   size less that of the same track with the field constant or absent)
//   varint=V (per-field zigzag varint deltas, no framing)  gpx=G (a GPX 1.1 document)
//   and for a log directory: written=W (its files' bytes) parity=P (of them, parity chunks), and
//   what other parity schemes would add to the re-encoded chunks (DensityLog.parityAlternatives)
//   encodeNs=T (wall time of append and seal per fix, this machine)
//   lossless=1 when decoding every chunk gave back exactly the encoded fixes.

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

/// The fixes of a track CSV in the shared layout, read by the same parser as `trackctl log
/// import`; a bad line is reported with its number and fails the run.
func densityFixes(_ path: String) throws(Errno) -> [LogFix] {
    // A log directory (e.g. one trackd wrote): its fix records, as the daemon logged them.
    if !path.hasSuffix(".csv") {
        guard var reader = try? LogReader(directory: path) else { throw Errno.invalidArgument }
        var fixes: [LogFix] = []
        while let record = reader.next() {
            if case .fix(let fix) = record { fixes.append(fix) }
        }
        return fixes
    }
    var file: [UInt8] = []
    try forEachChunk(ofFileAt: path) { chunk in file.append(contentsOf: chunk) }
    do {
        return try TrackCSV.parse(file)
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: \(path):\(error.line): \(error.reason)\n")
        throw Errno.invalidArgument
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
        bitsPerFix { $0.courseCentidegrees = nil }, bitsPerFix { $0.accuracyDecimetres = nil },
    ].joined(separator: "/")
    var varint = 0
    var last: (Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0)
    var gpx = gpxHeader.utf8CodeUnitCount + gpxFooter.utf8CodeUnitCount
    for fix in fixes {
        varint += varintDelta(fix.time.millisecondsSinceEpoch, &last.0) + varintDelta(Int64(fix.position.latitudeE7), &last.1)
            + varintDelta(Int64(fix.position.longitudeE7), &last.2)
            + varintDelta(fix.altitudeDecimetres.map { Int64($0) }, &last.3)
            + varintDelta(fix.speedCentimetresPerSecond.map { Int64($0) }, &last.4)
            + varintDelta(fix.courseCentidegrees.map { Int64($0) }, &last.5)
            + varintDelta(fix.accuracyDecimetres.map { Int64($0) }, &last.6)
        gpx += gpxPointBytes(fix)
    }
    let perFix = fixes.isEmpty ? 0 : log.nanoseconds / Int64(fixes.count)
    var line = "fixes=\(fixes.count) log=\(log.bytes.count) chunks=\(log.chunks) keyframes=\(log.keyframes) framing=\(log.framing) fieldBits=\(fields) varint=\(varint) gpx=\(gpx) encodeNs=\(perFix) lossless=\(decodesTo(log.bytes, fixes) ? 1 : 0)"
    if !path.hasSuffix(".csv") { line += " " + (try writtenBytes(path)) + " " + log.parityAlternatives }
    print(line)
}

/// For a log directory: `written=B` (bytes of its segment files) and `parity=P` (of them, the
/// parity chunks').
func writtenBytes(_ directory: String) throws(Errno) -> String {
    var files = PosixLogFiles()
    guard let numbers = try? LogReader<PosixLogFiles>.segmentNumbers(in: directory, files: &files) else {
        throw Errno.noSuchFile
    }
    var total = 0
    var parity = 0
    for number in numbers {
        let bytes = try files.readAll(LogSegmentName.path(directory, LogSegmentName.name(number)))
        total += bytes.count
        var from = -1
        while let chunk = LogParityChunk.next(in: bytes.span, after: from) {
            parity += chunk.end - chunk.offset
            from = chunk.offset
        }
    }
    return "written=\(total) parity=\(parity)"
}


/// `trackbench logdump DIR|FILE.csv`: one line per fix, `time lat lon alt speed course accuracy
/// mode` in the log's units, `-` for an absent field; for looking at what the daemon logged.
func runLogDump(_ path: String) throws(Errno) {
    var out = ""
    for fix in try densityFixes(path) {
        func field(_ value: Int32?) -> String { value.map { String($0) } ?? "-" }
        out += "\(fix.time.millisecondsSinceEpoch) \(fix.position.latitudeE7) \(fix.position.longitudeE7) "
            + "\(field(fix.altitudeDecimetres)) \(field(fix.speedCentimetresPerSecond)) \(field(fix.courseCentidegrees)) "
            + "\(field(fix.accuracyDecimetres)) \(fix.mode.rawValue)\n"
    }
    try FileDescriptor.standardOutput.writeAll(out)
}
