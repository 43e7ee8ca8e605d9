/// GeoJSON (RFC 7946): one FeatureCollection; a place is a Point feature with `kind`, `name`,
/// `description` and `time`; a segment is a LineString feature with `track`, `segment`,
/// `start_time`, `end_time` and `points`; a segment of one fix is a Point feature of kind
/// `fix`. Positions are `[lon, lat]` or `[lon, lat, ele_m]` with the stored digits.
///
/// Example: `{"type":"Feature","geometry":{"type":"LineString","coordinates":[[11.5167,48.1173,545.4],
/// [11.5168,48.1174,545.6]]},"properties":{"track":1,"segment":1,"start_time":"2026-11-30T12:00:00Z",
/// "end_time":"2026-11-30T12:00:01Z","points":2}}`.
public struct GeoJSONWriter: ExportWriter {
    var features = 0
    var track = 0
    var segment = 0
    var segmentStart = UTCTime(millisecondsSinceEpoch: 0)

    /// An empty writer.
    public init() {}

    /// GeoJSON carries places as Points.
    public static var exportsPlaces: Bool { true }

    /// `{"type":"FeatureCollection","features":[`.
    public mutating func header(_ out: inout TextBuffer) {
        out.append("{\"type\":\"FeatureCollection\",\"features\":[\n")
    }

    /// `]}`.
    public mutating func footer(_ out: inout TextBuffer) {
        out.append("\n]}\n")
    }

    /// A Point feature.
    public mutating func place(_ place: ExportPlace, _ out: inout TextBuffer) {
        beginFeature(&out)
        out.append("\"geometry\":{\"type\":\"Point\",\"coordinates\":")
        Self.coordinates(place.position, altitudeDecimetres: nil, &out)
        out.append("},\"properties\":{")
        out.appendJSONMember("kind", place.type, first: true)
        out.appendJSONMember("name", place.name)
        out.appendJSONMember("description", place.description)
        if let words = place.place { out.appendJSONMember("place", words) }
        out.append(",\"time\":\"")
        out.append(time: place.time)
        out.append("\"}}")
    }

    /// Remembers the track number for its segments' properties.
    public mutating func beginTrack(_ number: Int, name: String?, _ out: inout TextBuffer) {
        track = number
        trackName = name
    }

    var trackName: String?

    /// Nothing: a track is its segments.
    public mutating func endTrack(_ out: inout TextBuffer) {}

    /// Opens a LineString feature.
    public mutating func beginSegment(_ number: Int, first: LogFix, _ out: inout TextBuffer) {
        segment = number
        segmentStart = first.time
        beginFeature(&out)
        out.append("\"geometry\":{\"type\":\"LineString\",\"coordinates\":[")
        pointsInSegment = 0
    }

    var pointsInSegment = 0

    /// One position of the open LineString.
    public mutating func fix(_ fix: LogFix, _ out: inout TextBuffer) {
        if pointsInSegment > 0 { out.append(UInt8(ascii: ",")) }
        pointsInSegment += 1
        Self.coordinates(fix.position, altitudeDecimetres: fix.altitudeDecimetres, &out)
    }

    /// Closes the LineString and writes the segment's properties.
    public mutating func endSegment(last: LogFix, count: Int, _ out: inout TextBuffer) {
        out.append("]},\"properties\":{")
        segmentProperties(&out)
        out.append(",\"start_time\":\"")
        out.append(time: segmentStart)
        out.append("\",\"end_time\":\"")
        out.append(time: last.time)
        out.append("\",\"points\":")
        out.append(integer: Int64(count))
        out.append("}}")
    }

    /// A Point feature of kind `fix`.
    public mutating func loneFix(_ fix: LogFix, segment: Int, _ out: inout TextBuffer) {
        self.segment = segment
        beginFeature(&out)
        out.append("\"geometry\":{\"type\":\"Point\",\"coordinates\":")
        Self.coordinates(fix.position, altitudeDecimetres: fix.altitudeDecimetres, &out)
        out.append("},\"properties\":{\"kind\":\"fix\",")
        segmentProperties(&out)
        out.append(",\"time\":\"")
        out.append(time: fix.time)
        out.append("\",\"points\":1}}")
    }

    mutating func beginFeature(_ out: inout TextBuffer) {
        if features > 0 { out.append(",\n") }
        features += 1
        out.append("{\"type\":\"Feature\",")
    }

    func segmentProperties(_ out: inout TextBuffer) {
        out.append("\"track\":")
        out.append(integer: Int64(track))
        if let trackName { out.appendJSONMember("name", trackName) }
        out.append(",\"segment\":")
        out.append(integer: Int64(segment))
    }

    static func coordinates(_ position: LogPosition, altitudeDecimetres: Int32?, _ out: inout TextBuffer) {
        out.append(UInt8(ascii: "["))
        out.appendLongitudeLatitude(position, altitudeDecimetres: altitudeDecimetres)
        out.append(UInt8(ascii: "]"))
    }
}
