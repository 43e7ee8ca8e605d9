/// A marked place as exported: a waypoint (button, `trackctl mark`) or a fence event, e.g.
/// `camp 2` at 48.1173°N 11.5167°E, 12:00:00Z, type `waypoint`.
public struct ExportPlace: Equatable, Sendable {
    /// When it was recorded.
    public var time: UTCTime
    /// Where, in the export's datum, at 1e-7°.
    public var position: LogPosition
    /// The name: the waypoint's label (`mark` when it has none) or `depot enter` (the fence's
    /// id from the fences file, `fence 3 enter` by its index without one).
    public var name: String
    /// One line saying what it is and where, e.g. `geofence depot: enter` or
    /// `waypoint, 1.2 km N of Tübingen, Baden-Wurttemberg, DE`.
    public var description: String
    /// A short machine-readable kind: `waypoint`, `fence-enter`, `fence-exit`, `fence-dwell`.
    public var type: String
    /// Where it happened in words, e.g. `in Tübingen, Baden-Wurttemberg, DE`; nil without a gazetteer.
    public var place: String?

    /// A place from its parts.
    public init(time: UTCTime, position: LogPosition, name: String, description: String, type: String,
                place: String? = nil) {
        self.place = place
        self.time = time
        self.position = position
        self.name = name
        self.description = description
        self.type = type
    }

    /// The place a waypoint or fence event record stands for (nil for other records), with its
    /// position already in the export's datum. `fenceIDs` are the fences file's ids by index
    /// (an event whose index has none is named by the index); `place`, when given, is where it
    /// happened in words, added to the description.
    public init?(_ record: LogRecord, datum: Datum, fenceIDs: [String] = [], place: String? = nil) {
        let whereText = place.map { ", " + $0 } ?? ""
        switch record {
        case .waypoint(let time, let position, let label):
            let text = label.string
            self.init(time: time, position: datum.fromWGS84(position), name: text.isEmpty ? "mark" : text,
                      description: "waypoint" + whereText, type: "waypoint", place: place)
        case .fenceEvent(let time, let fenceIndex, let kind, let position):
            let word = switch kind {
            case .enter: "enter"
            case .exit: "exit"
            case .dwell: "dwell"
            }
            let index = Int(fenceIndex)
            let id = index < fenceIDs.count ? fenceIDs[index] : "\(fenceIndex)"
            let named = index < fenceIDs.count ? id : "fence " + id
            self.init(time: time, position: datum.fromWGS84(position), name: named + " " + word,
                      description: "geofence " + id + ": " + word + whereText, type: "fence-" + word, place: place)
        case .fix, .permissionChange, .bootMarker, .gap, .receiverAsleep:
            return nil
        }
    }
}

/// One export format's text, written piece by piece as `TrackExporter` walks the log: the
/// header, the places (in the first of two passes), then tracks of segments of fixes, then
/// the footer. Each call appends to `out` at most about 600 bytes (a place with a 64-byte
/// label escaped), which the exporter hands on before the next call; a writer with more to say
/// than that (GeoJSON's `coordTimes` of a long segment) says so in `hasMoreText` and goes on in
/// `continueText`, a buffer at a time.
///
/// Numbering: tracks and segments count from 1; a segment holds at least two fixes, a
/// segment of one fix is written by `loneFix` instead (GeoJSON and KML lines need two points).
public protocol ExportWriter {
    /// True when the format carries places (CSV does not).
    static var exportsPlaces: Bool { get }
    /// The start of the file.
    mutating func header(_ out: inout TextBuffer)
    /// The end of the file.
    mutating func footer(_ out: inout TextBuffer)
    /// A waypoint or fence event; all come before the first track.
    mutating func place(_ place: ExportPlace, _ out: inout TextBuffer)
    /// A new track (a new boot of the daemon, or one trip); `number` counts from 1; `name`,
    /// when known, says where it went, e.g. `Tübingen → Stuttgart`.
    mutating func beginTrack(_ number: Int, name: String?, _ out: inout TextBuffer)
    /// The end of the current track.
    mutating func endTrack(_ out: inout TextBuffer)
    /// A new segment of the current track, starting with `first`.
    mutating func beginSegment(_ number: Int, first: LogFix, _ out: inout TextBuffer)
    /// One fix of the current segment (the first one included).
    mutating func fix(_ fix: LogFix, _ out: inout TextBuffer)
    /// The end of the current segment; `last` is its last fix, `count` its fixes (≥ 2).
    mutating func endSegment(last: LogFix, count: Int, _ out: inout TextBuffer)
    /// A segment of one fix.
    mutating func loneFix(_ fix: LogFix, segment: Int, _ out: inout TextBuffer)
    /// True when places go between the fixes in log order (one pass) rather than before the
    /// tracks (CSV: a row each).
    static var placesInline: Bool { get }
    /// True while the last call left text that did not fit its buffer.
    var hasMoreText: Bool { get }
    /// The next part of that text, in a fresh buffer.
    mutating func continueText(_ out: inout TextBuffer)
}

extension ExportWriter {
    /// Places come before the tracks, in a pass of their own.
    public static var placesInline: Bool { false }
    /// Every piece fits one buffer.
    public var hasMoreText: Bool { false }
    /// Nothing more.
    public mutating func continueText(_ out: inout TextBuffer) {}
}
