/// The file formats `trackctl log export` writes, by their `--format` names.
public enum ExportFormat: String, Equatable, Sendable, CaseIterable {
    /// GPX 1.1: `wpt` for marks and fence events, `trk`/`trkseg`/`trkpt` for the fixes.
    case gpx
    /// GeoJSON (RFC 7946): a FeatureCollection of Points and LineStrings.
    case geojson
    /// KML 2.2: Placemarks with Points and LineStrings.
    case kml
    /// `time_utc,lat,lon,ele_m,speed_mps`, one row per fix (the shared tracks' layout).
    case csv
}

/// What to export and how, e.g. fixes from 12:00Z on, simplified to 5 m, in GCJ-02:
/// `ExportOptions(since: t, simplifyMillimetres: 5_000, datum: .gcj02)`.
public struct ExportOptions: Equatable, Sendable {
    /// Records before this instant are left out (nil: from the start of the log).
    public var since: UTCTime?
    /// Records at or after this instant are left out (nil: to the end of the log).
    public var until: UTCTime?
    /// Douglas–Peucker tolerance in millimetres (nil: every fix); every dropped fix lies within
    /// this distance of the exported line, e.g. 5_000 for `--simplify 5`.
    public var simplifyMillimetres: Int64?
    /// The datum positions are written in (default WGS-84, what GPS gives).
    public var datum: Datum
    /// Consecutive fixes further apart in time than this start a new track segment, in ms
    /// (default 300,000: five minutes), as a gap record does.
    public var splitAfterMilliseconds: Int64
    /// Names of the tracks in export order, e.g. `["Tübingen → Stuttgart"]`; a track without
    /// one is `track N`.
    public var trackNames: [String] = []
    /// Where each waypoint and fence event happened, in words, in log order (the places the
    /// window keeps, as the exporter meets them); empty: descriptions without places.
    public var placeNames: [String] = []
    /// The fences file's ids by fence index, for fence events; empty: named by index.
    public var fenceIDs: [String] = []

    /// Options from their parts; every default exports the whole log unchanged.
    public init(since: UTCTime? = nil, until: UTCTime? = nil, simplifyMillimetres: Int64? = nil,
                datum: Datum = .wgs84, splitAfterMilliseconds: Int64 = 300_000) {
        self.since = since
        self.until = until
        self.simplifyMillimetres = simplifyMillimetres
        self.datum = datum
        self.splitAfterMilliseconds = splitAfterMilliseconds
    }

    /// True when `time` is inside [since, until).
    public func contains(_ time: UTCTime) -> Bool {
        if let since, time < since { return false }
        if let until, time >= until { return false }
        return true
    }
}

/// What an export wrote and left out, e.g. for `trackctl log export`'s summary on standard
/// error: `3453 fixes, 2 places, 3101 fixes dropped by --simplify, 0 records outside the window`.
public struct ExportCounts: Equatable, Sendable {
    /// Fixes written.
    public var fixes = 0
    /// Waypoints and fence events written.
    public var places = 0
    /// Fixes inside the time window that simplification left out.
    public var simplified = 0
    /// Fixes and places outside [since, until).
    public var outsideWindow = 0
    /// Track segments written (a lone fix counts as one).
    public var segments = 0

    /// All zero.
    public init() {}
}
