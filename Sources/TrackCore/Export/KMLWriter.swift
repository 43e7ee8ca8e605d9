/// KML 2.2 (opengis.net/kml/2.2): one Document; a place is a Placemark with a TimeStamp and a
/// Point; each track a Folder; each segment a Placemark with a TimeSpan (begin) and a
/// LineString of `lon,lat[,ele_m]` tuples, altitudes absolute; a segment of one fix a Point.
///
/// Example: `<Placemark><name>track 1 segment 1</name><TimeSpan><begin>2026-11-30T12:00:00Z
/// </begin></TimeSpan><LineString><altitudeMode>absolute</altitudeMode><coordinates>
/// 11.5167,48.1173,545.4 11.5168,48.1174,545.6</coordinates></LineString></Placemark>`.
public struct KMLWriter: ExportWriter {
    var track = 0

    /// An empty writer.
    public init() {}

    /// KML carries places as Point placemarks.
    public static var exportsPlaces: Bool { true }

    /// The XML declaration, `kml` and `Document`.
    public mutating func header(_ out: inout TextBuffer) {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append("<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n<Document><name>trackd log</name>\n")
    }

    /// `</Document></kml>`.
    public mutating func footer(_ out: inout TextBuffer) {
        out.append("</Document>\n</kml>\n")
    }

    /// A Point placemark with name, description and time stamp.
    public mutating func place(_ place: ExportPlace, _ out: inout TextBuffer) {
        out.append("<Placemark>")
        out.appendXMLElement("name", place.name)
        out.appendXMLElement("description", place.description)
        out.append("<TimeStamp><when>")
        out.append(time: place.time)
        out.append("</when></TimeStamp><ExtendedData><Data name=\"type\"><value>")
        out.appendXMLEscaped(place.type)
        out.append("</value></Data></ExtendedData><Point><coordinates>")
        Self.tuple(place.position, altitudeDecimetres: nil, &out)
        out.append("</coordinates></Point></Placemark>\n")
    }

    /// `<Folder><name>Tübingen → Stuttgart</name>`, or `track N` without a name.
    public mutating func beginTrack(_ number: Int, name: String?, _ out: inout TextBuffer) {
        track = number
        out.append("<Folder><name>")
        if let name {
            out.appendXMLEscaped(name)
        } else {
            out.append("track ")
            out.append(integer: Int64(number))
        }
        out.append("</name>\n")
    }

    /// `</Folder>`.
    public mutating func endTrack(_ out: inout TextBuffer) {
        out.append("</Folder>\n")
    }

    /// Opens the segment's placemark and LineString.
    public mutating func beginSegment(_ number: Int, first: LogFix, _ out: inout TextBuffer) {
        openPlacemark(segment: number, time: first.time, element: "TimeSpan><begin", &out)
        out.append("</begin></TimeSpan><LineString><altitudeMode>absolute</altitudeMode><coordinates>\n")
    }

    /// One `lon,lat[,ele]` tuple.
    public mutating func fix(_ fix: LogFix, _ out: inout TextBuffer) {
        Self.tuple(fix.position, altitudeDecimetres: fix.altitudeDecimetres, &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// Closes the LineString and placemark.
    public mutating func endSegment(last: LogFix, count: Int, _ out: inout TextBuffer) {
        out.append("</coordinates></LineString></Placemark>\n")
    }

    /// A Point placemark for a segment of one fix.
    public mutating func loneFix(_ fix: LogFix, segment: Int, _ out: inout TextBuffer) {
        openPlacemark(segment: segment, time: fix.time, element: "TimeStamp><when", &out)
        out.append("</when></TimeStamp><Point><altitudeMode>absolute</altitudeMode><coordinates>")
        Self.tuple(fix.position, altitudeDecimetres: fix.altitudeDecimetres, &out)
        out.append("</coordinates></Point></Placemark>\n")
    }

    func openPlacemark(segment: Int, time: UTCTime, element: StaticString, _ out: inout TextBuffer) {
        out.append("<Placemark><name>track ")
        out.append(integer: Int64(track))
        out.append(" segment ")
        out.append(integer: Int64(segment))
        out.append("</name><")
        out.append(element)
        out.append(UInt8(ascii: ">"))
        out.append(time: time)
    }

    static func tuple(_ position: LogPosition, altitudeDecimetres: Int32?, _ out: inout TextBuffer) {
        out.appendLongitudeLatitude(position, altitudeDecimetres: altitudeDecimetres)
    }
}
