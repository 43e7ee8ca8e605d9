import TrackCore
import TrackIO

/// The names the log commands give to what the log holds only as numbers and positions:
/// trips and tracks by where they went (`Tübingen → Stuttgart`), waypoints and fence events by
/// where they happened, fences by the fences file's `id` (the log stores a fence's index in
/// the file trackd loaded).
///
/// `--fences FILE` names the fences file; without it, the one the configuration names
/// (`/etc/trackd/fences.geojson` by default) when it exists. The ids are only right while that
/// file has the fences in the order trackd loaded them: an event whose index the file does not
/// have keeps its number.
enum LogNaming {
    /// The fences file's ids by index; nil after saying why an explicit file failed.
    static func fenceIDs(_ explicit: String?, command: String, _ context: inout CommandContext) -> [String]? {
        guard let loaded = fences(explicit, command: command, &context) else { return nil }
        return loaded.fences.map { $0.id }
    }

    /// The fences file `explicit` names, else the configuration's when it exists (no fences
    /// when it does not); nil after saying on `context` why an explicit file failed.
    static func fences(_ explicit: String?, command: String, _ context: inout CommandContext) -> FenceSet? {
        var path = explicit
        var settings = FenceSettings()
        if path == nil {
            guard case .success(let config) = ConfigFiles.load(ConfigFiles.defaultPath, explicit: false) else {
                return FenceSet()
            }
            path = config.fences.file
            settings = config.fences.settings
        }
        guard let path else { return FenceSet() }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readWholeFile(path)
        } catch {
            if explicit == nil && error == .noSuchFile { return FenceSet() }
            context.say(command + ": " + path + ": " + error.message + "\n")
            return explicit == nil ? FenceSet() : nil
        }
        do {
            return try FenceFile.parse(bytes, settings: settings)
        } catch {
            context.say(command + ": " + path + ": " + error.description + "\n")
            return explicit == nil ? FenceSet() : nil
        }
    }

    /// `from → to` by the places' own names, e.g. `Tübingen → Stuttgart`.
    static func route(_ from: LogFix, _ to: LogFix, _ names: PlaceNames) -> String {
        names.short(from.position.coordinate) + " → " + names.short(to.position.coordinate)
    }

    /// At most `limit` bytes of `text`, cut before a character (export lines have a fixed room).
    static func clipped(_ text: String, _ limit: Int = 160) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        for character in text {
            if result.utf8.count + String(character).utf8.count > limit { break }
            result.append(character)
        }
        return result
    }

    /// Fills in `options`' track names and place names for an export of `directory`: one pass
    /// of the exporter itself over the log (so the tracks are numbered as the export numbers
    /// them), recording each track's first and last fix and each place's position.
    static func name(_ options: inout ExportOptions, directory: String, names: PlaceNames) -> Bool {
        var plain = options
        plain.datum = .wgs84
        var exporter = TrackExporter(TrackRecorder(), options: plain)
        for pass in 0..<exporter.passCount {
            guard var reader = try? LogReader(directory: directory) else { return false }
            exporter.begin(pass: pass) { _ in }
            while let record = reader.next() { exporter.consume(record) { _ in } }
            exporter.end(pass: pass) { _ in }
        }
        options.trackNames = exporter.writer.tracks.map { track in
            guard let first = track.first, let last = track.last else { return "" }
            return clipped(route(first, last, names))
        }
        options.placeNames = exporter.writer.places.map { clipped(names.describe($0.coordinate)) }
        return true
    }
}

/// An export writer that writes nothing and remembers each track's first and last fix and
/// each place's position: the naming pass of `LogNaming.name`.
struct TrackRecorder: ExportWriter {
    var tracks: [(first: LogFix?, last: LogFix?)] = []
    var places: [LogPosition] = []

    static var exportsPlaces: Bool { true }
    mutating func header(_ out: inout TextBuffer) {}
    mutating func footer(_ out: inout TextBuffer) {}
    mutating func place(_ place: ExportPlace, _ out: inout TextBuffer) { places.append(place.position) }
    mutating func beginTrack(_ number: Int, name: String?, _ out: inout TextBuffer) { tracks.append((nil, nil)) }
    mutating func endTrack(_ out: inout TextBuffer) {}
    mutating func beginSegment(_ number: Int, first: LogFix, _ out: inout TextBuffer) {}
    mutating func fix(_ fix: LogFix, _ out: inout TextBuffer) { record(fix) }
    mutating func endSegment(last: LogFix, count: Int, _ out: inout TextBuffer) {}
    mutating func loneFix(_ fix: LogFix, segment: Int, _ out: inout TextBuffer) { record(fix) }

    mutating func record(_ fix: LogFix) {
        guard !tracks.isEmpty else { return }
        if tracks[tracks.count - 1].first == nil { tracks[tracks.count - 1].first = fix }
        tracks[tracks.count - 1].last = fix
    }
}
