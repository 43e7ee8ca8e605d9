/// CSV in the layout of the shared tracks, `time_utc,lat,lon,ele_m,speed_mps`, one row per fix
/// and nothing else, so an export can be imported again (`trackctl log import`) unchanged.
/// Absent altitude or speed is an empty field; numbers carry the stored digits without
/// trailing zeros. Example row: `2026-11-30T12:00:00Z,48.1173,11.5167,545.4,5.14`.
public struct CSVWriter: ExportWriter {
    /// An empty writer.
    public init() {}

    /// CSV has only fixes.
    public static var exportsPlaces: Bool { false }

    /// The header line.
    public mutating func header(_ out: inout TextBuffer) {
        out.append("time_utc,lat,lon,ele_m,speed_mps\n")
    }

    /// Nothing.
    public mutating func footer(_ out: inout TextBuffer) {}
    /// Nothing: CSV has no places.
    public mutating func place(_ place: ExportPlace, _ out: inout TextBuffer) {}
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
        out.append(UInt8(ascii: "\n"))
    }

    /// One row.
    public mutating func loneFix(_ fix: LogFix, segment: Int, _ out: inout TextBuffer) {
        self.fix(fix, &out)
    }
}
