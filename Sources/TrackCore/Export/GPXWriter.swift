/// GPX 1.1 (topografix.com/GPX/1/1): places as `wpt` with `time`, `name`, `desc` and `type`;
/// each boot of the daemon a `trk`, each stretch without a gap a `trkseg` of `trkpt` with
/// `ele` (m, from decimetres), `time` (ms only when not zero) and `fix` (2d/3d); speed (m/s)
/// and course (°) in Garmin's TrackPointExtension v2, which Garmin, gpsbabel and gpxpy read.
///
/// Example point: `<trkpt lat="48.1173" lon="11.5167"><ele>545.4</ele>
/// <time>2026-11-30T12:00:00Z</time><fix>3d</fix><extensions><gpxtpx:TrackPointExtension>
/// <gpxtpx:speed>5.14</gpxtpx:speed><gpxtpx:course>84.4</gpxtpx:course>…`.
public struct GPXWriter: ExportWriter {
    /// An empty writer.
    public init() {}

    /// GPX has `wpt`.
    public static var exportsPlaces: Bool { true }

    /// The XML declaration and the `gpx` element with its namespaces.
    public mutating func header(_ out: inout TextBuffer) {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append("<gpx version=\"1.1\" creator=\"trackd\" xmlns=\"http://www.topografix.com/GPX/1/1\"")
        out.append(" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"")
        out.append(" xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\"")
        out.append(" xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd")
        out.append(" http://www.garmin.com/xmlschemas/TrackPointExtension/v2")
        out.append(" https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd\">\n")
    }

    /// `</gpx>`.
    public mutating func footer(_ out: inout TextBuffer) {
        out.append("</gpx>\n")
    }

    /// `<wpt lat lon><time/><name/><desc/><type/></wpt>` (the schema's element order).
    public mutating func place(_ place: ExportPlace, _ out: inout TextBuffer) {
        out.append("<wpt")
        Self.attributes(place.position, &out)
        out.append("><time>")
        out.append(time: place.time)
        out.append("</time>")
        out.appendXMLElement("name", place.name)
        out.appendXMLElement("desc", place.description)
        out.appendXMLElement("type", place.type)
        out.append("</wpt>\n")
    }

    /// `<trk><name>Tübingen → Stuttgart</name>`, or `track N` without a name.
    public mutating func beginTrack(_ number: Int, name: String?, _ out: inout TextBuffer) {
        out.append("<trk><name>")
        if let name {
            out.appendXMLEscaped(name)
        } else {
            out.append("track ")
            out.append(integer: Int64(number))
        }
        out.append("</name>\n")
    }

    /// `</trk>`.
    public mutating func endTrack(_ out: inout TextBuffer) {
        out.append("</trk>\n")
    }

    /// `<trkseg>`.
    public mutating func beginSegment(_ number: Int, first: LogFix, _ out: inout TextBuffer) {
        out.append("<trkseg>\n")
    }

    /// One `trkpt`.
    public mutating func fix(_ fix: LogFix, _ out: inout TextBuffer) {
        out.append("<trkpt")
        Self.attributes(fix.position, &out)
        out.append(UInt8(ascii: ">"))
        if let altitude = fix.altitudeDecimetres {
            out.append("<ele>")
            out.appendTrimmed(Int64(altitude), decimals: 1)
            out.append("</ele>")
        }
        out.append("<time>")
        out.append(time: fix.time)
        out.append("</time>")
        switch fix.mode {
        case .twoD: out.append("<fix>2d</fix>")
        case .threeD: out.append("<fix>3d</fix>")
        case .noFix: out.append("<fix>none</fix>")
        case .unknown: break
        }
        // The extension's speed is a non-negative m/s and its course 0 ≤ c < 360: anything
        // else is left out rather than written invalid.
        let speed = fix.speedCentimetresPerSecond.flatMap { $0 >= 0 ? $0 : nil }
        let course = fix.courseCentidegrees.flatMap { $0 >= 0 && $0 < 36_000 ? $0 : nil }
        if speed != nil || course != nil {
            out.append("<extensions><gpxtpx:TrackPointExtension>")
            if let speed {
                out.append("<gpxtpx:speed>")
                out.appendTrimmed(Int64(speed), decimals: 2)
                out.append("</gpxtpx:speed>")
            }
            if let course {
                out.append("<gpxtpx:course>")
                out.appendTrimmed(Int64(course), decimals: 2)
                out.append("</gpxtpx:course>")
            }
            out.append("</gpxtpx:TrackPointExtension></extensions>")
        }
        out.append("</trkpt>\n")
    }

    /// `</trkseg>`.
    public mutating func endSegment(last: LogFix, count: Int, _ out: inout TextBuffer) {
        out.append("</trkseg>\n")
    }

    /// A `trkseg` of one `trkpt` (GPX allows it).
    public mutating func loneFix(_ fix: LogFix, segment: Int, _ out: inout TextBuffer) {
        out.append("<trkseg>\n")
        self.fix(fix, &out)
        out.append("</trkseg>\n")
    }

    static func attributes(_ position: LogPosition, _ out: inout TextBuffer) {
        out.append(" lat=\"")
        out.appendDegreesE7(position.latitudeE7)
        out.append("\" lon=\"")
        out.appendDegreesE7(position.longitudeE7)
        out.append(UInt8(ascii: "\""))
    }
}
