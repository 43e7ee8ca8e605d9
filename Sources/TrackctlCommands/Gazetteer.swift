import TrackCore
import TrackIO

/// The offline gazetteer for trackctl's commands: `--places FILE`, else `$TRACKD_PLACES`, else
/// the installed `/usr/share/trackd/places.bin`, mapped read-only.
///
/// A missing default table is not an error (positions are then named by their coordinates,
/// and a note says so); a table named explicitly that is missing, or any table that is not a
/// valid places file, is one. Example: `Gazetteer.open(nil, command: "trackctl place", &context)`.
final class Gazetteer {
    /// Where the package installs the table.
    static var defaultPath: String { "/usr/share/trackd/places.bin" }

    let path: String
    let file: MappedFile
    let table: PlaceTable

    init(path: String, file: consuming MappedFile, table: PlaceTable) {
        self.path = path
        self.file = file
        self.table = table
    }

    /// What opening found: a table, none (coordinates only), or an error already printed.
    enum Opened {
        case table(Gazetteer)
        case none
        case failed
    }

    /// Opens the table `explicit` names, or the default one; says problems on `context`'s
    /// standard error prefixed with `command`. `announce`: say once that a missing default
    /// table means coordinates instead of names, and how to get one (the note
    /// `noGazetteerNote` words).
    static func open(_ explicit: String?, command: String, announce: Bool = false, _ context: inout CommandContext) -> Opened {
        let chosen = explicit ?? context.environment("TRACKD_PLACES")
        let path = chosen ?? context.installedPlaces
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            if chosen == nil && error == .noSuchFile {
                if announce { context.say(command + ": " + noGazetteerNote(path) + "\n") }
                return .none
            }
            context.say(command + ": " + path + ": " + error.message + "\n")
            return .failed
        }
        let table: PlaceTable
        do {
            table = try file.withBytes { (bytes) throws(PlaceTableError) in try PlaceTable(bytes) }
        } catch {
            context.say(command + ": " + path + ": " + error.description + "\n")
            return .failed
        }
        return .table(Gazetteer(path: path, file: file, table: table))
    }

    /// What a command says when the installed table at `path` is missing, e.g. `no gazetteer at
    /// /usr/share/trackd/places.bin: places are named by their coordinates (scripts/build-places
    /// in the source tree builds one; --places FILE or $TRACKD_PLACES names it)`.
    static func noGazetteerNote(_ path: String) -> String {
        "no gazetteer at " + path + ": places are named by their coordinates "
            + "(scripts/build-places in the source tree builds one; --places FILE or $TRACKD_PLACES names it)"
    }

    /// The name of `position` (the nearest place within 50 km, or the coordinates).
    func name(_ position: Coordinate) -> PlaceName {
        file.withBytes { bytes in PlaceName.lookUp(position, table: table, bytes: bytes) }
    }

    /// The words of `name`, e.g. `in Tübingen, Baden-Wurttemberg, DE`.
    func text(_ name: PlaceName) -> String {
        file.withBytes { bytes in name.text(bytes: bytes) }
    }

    /// A text of the table as a String, e.g. a place's name.
    func string(_ text: PlaceText) -> String {
        file.withBytes { bytes in text.string(in: bytes) }
    }

    /// The short form for titles and track names: the place's own name, e.g. `Tübingen`, or
    /// the coordinates when nothing lies within 50 km.
    func shortName(_ name: PlaceName) -> String {
        guard let place = name.place else { return name.position.formatted() }
        return string(place.name)
    }
}

extension Gazetteer.Opened {
    /// The gazetteer, if one was opened.
    var gazetteer: Gazetteer? {
        if case .table(let gazetteer) = self { return gazetteer }
        return nil
    }
}

/// Names positions with a gazetteer when there is one, by coordinates otherwise: what the log
/// commands use.
struct PlaceNames {
    let gazetteer: Gazetteer?

    /// The full words, e.g. `3.2 km NE of Tübingen, Baden-Wurttemberg, DE` or `48.540000°N, 9.080000°E`.
    func describe(_ position: Coordinate) -> String {
        guard let gazetteer else { return position.formatted() }
        return gazetteer.text(gazetteer.name(position))
    }

    /// The place's own name, e.g. `Tübingen`, or the coordinates.
    func short(_ position: Coordinate) -> String {
        guard let gazetteer else { return position.formatted() }
        return gazetteer.shortName(gazetteer.name(position))
    }
}
