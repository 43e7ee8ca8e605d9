/// GeoJSON (RFC 7946): one FeatureCollection; a place is a Point feature with `kind`, `name`,
/// `description` and `time`; a segment is a LineString feature with `track`, `segment`,
/// `start_time`, `end_time`, `points` and `coordTimes` (the time of every position, in order,
/// as mapbox's togeojson writes it, so tools that play a track back find its times); a segment
/// of one fix is a Point feature of kind `fix`. With `points`, every fix is a Point feature
/// of kind `fix` with its `time` (and `speed_mps`, `course_deg` when known) instead, for tools
/// that animate features by a time field (QGIS's temporal controller, kepler.gl). Positions are
/// `[lon, lat]` or `[lon, lat, ele_m]` with the stored digits.
///
/// Example: `{"type":"Feature","geometry":{"type":"LineString","coordinates":[[11.5167,48.1173,545.4],
/// [11.5168,48.1174,545.6]]},"properties":{"track":1,"segment":1,"start_time":"2026-11-30T12:00:00Z",
/// "end_time":"2026-11-30T12:00:01Z","points":2,"coordTimes":["2026-11-30T12:00:00Z","2026-11-30T12:00:01Z"]}}`.
public struct GeoJSONWriter: ExportWriter {
    /// Every fix a Point feature, not a LineString per segment.
    public let points: Bool
    var features = 0
    var track = 0
    var segment = 0
    var segmentStart = UTCTime(millisecondsSinceEpoch: 0)
    var trackName: String?
    var pointsInSegment = 0
    /// The open LineString's times (8 bytes a fix, until it ends), and the next to write of
    /// them while `coordTimes` goes out; nil when it is not going out.
    var times: [UTCTime] = []
    var nextTime: Int?

    /// An empty writer; `points` for a Point feature per fix.
    public init(points: Bool = false) {
        self.points = points
    }

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

    /// Nothing: a track is its segments.
    public mutating func endTrack(_ out: inout TextBuffer) {}

    /// Opens a LineString feature (nothing with `points`).
    public mutating func beginSegment(_ number: Int, first: LogFix, _ out: inout TextBuffer) {
        segment = number
        segmentStart = first.time
        pointsInSegment = 0
        guard !points else { return }
        times.removeAll(keepingCapacity: true)
        beginFeature(&out)
        out.append("\"geometry\":{\"type\":\"LineString\",\"coordinates\":[")
    }

    /// One position of the open LineString, or its Point feature.
    public mutating func fix(_ fix: LogFix, _ out: inout TextBuffer) {
        guard !points else { return pointFeature(fix, &out) }
        if pointsInSegment > 0 { out.append(UInt8(ascii: ",")) }
        pointsInSegment += 1
        times.append(fix.time)
        Self.coordinates(fix.position, altitudeDecimetres: fix.altitudeDecimetres, &out)
    }

    /// Closes the LineString and writes the segment's properties, `coordTimes` last (carried on
    /// in `continueText` as long as it takes).
    public mutating func endSegment(last: LogFix, count: Int, _ out: inout TextBuffer) {
        guard !points else { return }
        out.append("]},\"properties\":{")
        segmentProperties(&out)
        out.append(",\"start_time\":\"")
        out.append(time: segmentStart)
        out.append("\",\"end_time\":\"")
        out.append(time: last.time)
        out.append("\",\"points\":")
        out.append(integer: Int64(count))
        out.append(",\"coordTimes\":[")
        nextTime = 0
    }

    /// True while `coordTimes` is going out.
    public var hasMoreText: Bool { nextTime != nil }

    /// As many of `coordTimes` as fit (a time is at most 26 bytes), then its end.
    public mutating func continueText(_ out: inout TextBuffer) {
        guard var next = nextTime else { return }
        while next < times.count && out.count + 32 < TextBuffer.capacity {
            if next > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            out.append(time: times[next])
            out.append(UInt8(ascii: "\""))
            next += 1
        }
        if next < times.count {
            nextTime = next
            return
        }
        out.append("]}}")
        nextTime = nil
    }

    /// A Point feature of kind `fix`.
    public mutating func loneFix(_ fix: LogFix, segment: Int, _ out: inout TextBuffer) {
        self.segment = segment
        guard !points else { return pointFeature(fix, &out) }
        beginFeature(&out)
        out.append("\"geometry\":{\"type\":\"Point\",\"coordinates\":")
        Self.coordinates(fix.position, altitudeDecimetres: fix.altitudeDecimetres, &out)
        out.append("},\"properties\":{\"kind\":\"fix\",")
        segmentProperties(&out)
        out.append(",\"time\":\"")
        out.append(time: fix.time)
        out.append("\",\"points\":1}}")
    }

    /// With `points`: one fix as a Point feature with its time, speed (m/s) and course (°).
    mutating func pointFeature(_ fix: LogFix, _ out: inout TextBuffer) {
        beginFeature(&out)
        out.append("\"geometry\":{\"type\":\"Point\",\"coordinates\":")
        Self.coordinates(fix.position, altitudeDecimetres: fix.altitudeDecimetres, &out)
        out.append("},\"properties\":{\"kind\":\"fix\",")
        segmentProperties(&out)
        out.append(",\"time\":\"")
        out.append(time: fix.time)
        out.append(UInt8(ascii: "\""))
        if let speed = fix.speedCentimetresPerSecond {
            out.append(",\"speed_mps\":")
            out.appendTrimmed(Int64(speed), decimals: 2)
        }
        if let course = fix.courseCentidegrees {
            out.append(",\"course_deg\":")
            out.appendTrimmed(Int64(course), decimals: 2)
        }
        out.append("}}")
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
