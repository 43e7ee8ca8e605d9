/// One track or route point of a GPX file, e.g.
/// `<trkpt lat="48.1173" lon="11.5167"><ele>545.4</ele><time>2024-05-01T10:00:00Z</time></trkpt>`.
public struct GPXPoint: Equatable, Sendable {
    /// Position (WGS-84), e.g. 48.1173°N 11.5167°E.
    public var position: Coordinate
    /// `<ele>` in millimetres, e.g. `545.4` → 545_400; nil when absent.
    public var elevationMillimetres: Int32?
    /// `<time>`; nil when absent.
    public var time: UTCTime?
    /// The line of the point's start tag (1-based), for messages.
    public var line: Int

    /// A point.
    public init(position: Coordinate, elevationMillimetres: Int32? = nil, time: UTCTime? = nil, line: Int = 0) {
        self.position = position
        self.elevationMillimetres = elevationMillimetres
        self.time = time
        self.line = line
    }
}

/// What is wrong with a GPX file, and on which line, e.g.
/// `line 12: <trkpt> lat "91.5" is out of range (-90 to 90)`.
public struct GPXError: Error, Equatable, Sendable {
    /// The kinds of problem.
    public enum Problem: Equatable, Sendable {
        /// The input ended inside a tag, comment or element (`what` names it).
        case unexpectedEnd(String)
        /// A tag that is not well-formed XML.
        case malformedTag(String)
        /// `</found>` closes `<expected>`.
        case mismatchedTag(expected: String, found: String)
        /// Text outside the root element, or markup this reader does not take (DTD subsets).
        case unexpectedContent(String)
        /// The root element is not `<gpx>`.
        case notGPX(root: String)
        /// `<gpx version="…">` is not 1.1 (nil: no version).
        case unsupportedVersion(String?)
        /// A required attribute is missing, e.g. `lat` on `<trkpt>`.
        case missingAttribute(element: String, attribute: String)
        /// A number that does not parse, e.g. `ele` "12,5".
        case invalidNumber(field: String, text: String)
        /// A number outside its range, e.g. `lat` "91.5".
        case outOfRange(field: String, text: String)
        /// A `<time>` that is not ISO 8601 UTC (`2024-05-01T10:00:00Z`, fractions and offsets
        /// allowed).
        case invalidTime(String)
        /// A point's time is earlier than the previous point's.
        case timeGoesBackwards(String)
        /// No `<trkpt>` or `<rtept>` at all.
        case noPoints
    }

    /// 1-based line of the problem.
    public var line: Int
    /// What is wrong.
    public var problem: Problem

    /// An error at `line`.
    public init(line: Int, _ problem: Problem) {
        self.line = line
        self.problem = problem
    }

    /// One line naming the line and the problem.
    public var description: String {
        "line \(line): " + problemText
    }

    var problemText: String {
        switch problem {
        case .unexpectedEnd(let what): "the file ends inside \(what)"
        case .malformedTag(let text): "malformed tag: \(text)"
        case .mismatchedTag(let expected, let found): "</\(found)> closes <\(expected)>"
        case .unexpectedContent(let text): "unexpected \(text)"
        case .notGPX(let root): "the root element is <\(root)>, not <gpx>"
        case .unsupportedVersion(let version?): "GPX version \"\(version)\" is not 1.1"
        case .unsupportedVersion(nil): "<gpx> has no version (GPX 1.1 says version=\"1.1\")"
        case .missingAttribute(let element, let attribute): "<\(element)> has no \(attribute)"
        case .invalidNumber(let field, let text): "\(field) \"\(text)\" is not a decimal number"
        case .outOfRange(let field, let text): "\(field) \"\(text)\" is out of range"
        case .invalidTime(let text): "time \"\(text)\" is not an ISO 8601 UTC time like 2024-05-01T10:00:00Z"
        case .timeGoesBackwards(let text): "time \(text) is earlier than the previous point's"
        case .noPoints: "no <trkpt> or <rtept> in the file"
        }
    }
}

/// The points of a GPX 1.1 file's tracks and routes, in file order: a small, strict reader for
/// the simulator (`trackctl simulate route.gpx`).
///
/// Reads `<trkpt>` (in `<trk>`/`<trkseg>`) and `<rtept>` (in `<rte>`) with their `lat`, `lon`,
/// `<ele>` and `<time>`; skips everything else (metadata, waypoints, extensions) but checks that
/// the whole file is well-formed. Decimals are parsed exactly, e.g. lat `"48.1173"` →
/// 48_117_300_000 nanodegrees. Every error names its line.
public struct GPXTrack: Equatable, Sendable {
    /// The points in file order (tracks and routes as they come).
    public var points: [GPXPoint]

    /// A track of `points`.
    public init(points: [GPXPoint]) {
        self.points = points
    }

    /// Parses a GPX 1.1 document from its UTF-8 bytes.
    public init(parsing bytes: [UInt8]) throws(GPXError) {
        var parser = GPXParser(bytes)
        try parser.parse()
        points = parser.points
    }

    /// Time from the first to the last point, in milliseconds; nil unless both have times.
    public var durationMilliseconds: Int64? {
        guard let first = points.first?.time, let last = points.last?.time else { return nil }
        return last.millisecondsSinceEpoch - first.millisecondsSinceEpoch
    }
}
