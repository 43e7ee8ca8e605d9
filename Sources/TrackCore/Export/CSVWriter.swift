/// CSV in the layout of the shared tracks with two columns more, `time_utc,lat,lon,ele_m,
/// speed_mps,kind,name`: one row per fix (kind `fix`) and per place where it is in the log
/// (kind `waypoint`, `fence-enter`, `fence-exit` or `fence-dwell`, with its name), so an
/// export can be imported again (`trackctl log import`, which takes fixes and waypoints)
/// unchanged. Absent altitude or speed is an empty field; numbers carry the stored digits
/// without trailing zeros; a name with a comma or a quote is quoted (RFC 4180). Example rows:
/// `2026-11-30T12:00:00Z,48.1173,11.5167,545.4,5.14,fix,` and
/// `2026-11-30T12:00:03Z,48.1174,11.5168,,,waypoint,old bridge`.
public struct CSVWriter: ExportWriter {
    /// An empty writer.
    public init() {}

    /// CSV has places, as rows between the fixes.
    public static var exportsPlaces: Bool { true }
    public static var placesInline: Bool { true }

    /// The header line.
    public mutating func header(_ out: inout TextBuffer) {
        out.append("time_utc,lat,lon,ele_m,speed_mps,kind,name\n")
    }

    /// Nothing.
    public mutating func footer(_ out: inout TextBuffer) {}
    /// One row: time, position, no altitude or speed, the kind and the name.
    public mutating func place(_ place: ExportPlace, _ out: inout TextBuffer) {
        out.append(time: place.time)
        out.append(UInt8(ascii: ","))
        out.appendDegreesE7(place.position.latitudeE7)
        out.append(UInt8(ascii: ","))
        out.appendDegreesE7(place.position.longitudeE7)
        out.append(",,,")
        out.append(string: place.type)
        out.append(UInt8(ascii: ","))
        let quoted = place.name.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 < 0x20 }
        if quoted { out.append(UInt8(ascii: "\"")) }
        for byte in place.name.utf8 {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte < 0x20 ? UInt8(ascii: " ") : byte)
        }
        if quoted { out.append(UInt8(ascii: "\"")) }
        out.append(UInt8(ascii: "\n"))
    }
    /// Nothing.
    public mutating func beginTrack(_ number: Int, name: String?, _ out: inout TextBuffer) {}
    /// Nothing.
    public mutating func endTrack(_ out: inout TextBuffer) {}
    /// Nothing.
    public mutating func beginSegment(_ number: Int, first: LogFix, _ out: inout TextBuffer) {}
    /// Nothing.
    public mutating func endSegment(last: LogFix, count: Int, _ out: inout TextBuffer) {}

    /// One row.
    public mutating func fix(_ fix: LogFix, _ out: inout TextBuffer) {
        out.append(time: fix.time)
        out.append(UInt8(ascii: ","))
        out.appendDegreesE7(fix.position.latitudeE7)
        out.append(UInt8(ascii: ","))
        out.appendDegreesE7(fix.position.longitudeE7)
        out.append(UInt8(ascii: ","))
        if let altitude = fix.altitudeDecimetres { out.appendTrimmed(Int64(altitude), decimals: 1) }
        out.append(UInt8(ascii: ","))
        if let speed = fix.speedCentimetresPerSecond { out.appendTrimmed(Int64(speed), decimals: 2) }
        out.append(",fix,\n")
    }

    /// One row.
    public mutating func loneFix(_ fix: LogFix, segment: Int, _ out: inout TextBuffer) {
        self.fix(fix, &out)
    }
}
