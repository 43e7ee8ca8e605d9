import TrackCore

/// What `trackctl log export` was asked for, parsed from its arguments, e.g.
/// `--format gpx --since 2026-11-30 --simplify 5` → GPX from 2026-11-30T00:00:00Z, 5 m.
struct LogExportArguments: Equatable {
    /// The file format (default GPX).
    var format = ExportFormat.gpx
    /// The log directory (default the daemon's).
    var directory = LogCommand.defaultDirectory
    /// Time window, simplification, datum.
    var options = ExportOptions()
    /// `--trip N`, `--places FILE`, `--fences FILE` (LogExport+Naming.swift).
    var naming = LogExportNaming()
    /// `--points`: GeoJSON with a Point feature per fix instead of a LineString per segment.
    var points = false

    /// Parses `arguments` (after `export`), throwing an error that names the option and value.
    init(_ arguments: [String]) throws(LogExportArgumentError) {
        var index = 0
        func value(_ option: String) throws(LogExportArgumentError) -> String {
            guard index + 1 < arguments.count else { throw .missingValue(option: option) }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let option = arguments[index]
            switch option {
            case "--format", "-f":
                let name = try value(option)
                guard let format = ExportFormat(rawValue: name) else { throw .unknownFormat(name) }
                self.format = format
            case "--log":
                directory = try value(option)
            case "--since", "--until":
                let text = try value(option)
                guard let time = UTCTime(iso8601: text) else { throw .badTime(option: option, text) }
                if option == "--since" { options.since = time } else { options.until = time }
            case "--simplify":
                let text = try value(option)
                guard let millimetres = LogExportArguments.millimetres(text) else { throw .badSimplify(text) }
                options.simplifyMillimetres = millimetres
            case "--datum":
                let name = try value(option)
                guard let datum = Datum(rawValue: name) else { throw .unknownDatum(name) }
                options.datum = datum
            case "--points":
                points = true
            case "--trip", "--places", "--fences":
                guard try naming.take(option, value(option)) else { throw .unknownOption(option + " " + arguments[index]) }
            default:
                throw .unknownOption(option)
            }
            index += 1
        }
        if let since = options.since, let until = options.until, until <= since { throw .emptyWindow }
        if points && format != .geojson { throw .pointsNeedGeoJSON }
    }

    /// Metres as millimetres: `5`, `5m`, `2.5`, `0.25m` → 5_000, 5_000, 2_500, 250; nil for
    /// anything else (negative, more than three decimals, over 1,000 km, not a number).
    static func millimetres(_ text: String) -> Int64? {
        var bytes = Array(text.utf8)[...]
        if bytes.last == UInt8(ascii: "m") { bytes.removeLast() }
        // Whole millimetres at most: no sign, and no more than three decimals to round away.
        guard let first = bytes.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "+") else { return nil }
        if let point = bytes.firstIndex(of: UInt8(ascii: ".")), bytes.endIndex - point > 4 { return nil }
        guard let value = DecimalText.read(bytes, scale: 3) else { return nil }
        return value <= 1_000_000_000 ? value : nil
    }
}

/// Why `trackctl log export`'s arguments were refused; `description` names the option and
/// the value, and says what would be accepted.
enum LogExportArgumentError: Error, Equatable {
    /// `--format` named no format.
    case unknownFormat(String)
    /// `--datum` named no datum.
    case unknownDatum(String)
    /// `--since` or `--until` was not an ISO 8601 time.
    case badTime(option: String, String)
    /// `--simplify` was not a distance in metres.
    case badSimplify(String)
    /// An option that takes a value came last.
    case missingValue(option: String)
    /// Not an option of this command.
    case unknownOption(String)
    /// `--until` is not after `--since`.
    case emptyWindow
    /// `--points` with a format other than GeoJSON.
    case pointsNeedGeoJSON

    /// One line, e.g. `unknown format 'gpz' (gpx, geojson, kml or csv)`.
    var description: String {
        switch self {
        case .unknownFormat(let name): return "unknown format '" + name + "' (gpx, geojson, kml or csv)"
        case .unknownDatum(let name): return "unknown datum '" + name + "' (wgs84, gcj02 or bd09)"
        case .badTime(let option, let text):
            return option + " '" + text + "': not an ISO 8601 time (e.g. 2026-11-30T12:00:00Z, or 2026-11-30 for its midnight UTC)"
        case .badSimplify(let text):
            return "--simplify '" + text + "': not a distance in metres (e.g. 5, 5m or 2.5; at most three decimals)"
        case .missingValue(let option): return option + " needs a value"
        case .unknownOption(let option): return "unknown option '" + option + "'"
        case .emptyWindow: return "--until must be after --since"
        case .pointsNeedGeoJSON: return "--points is for --format geojson (GPX, KML and CSV have a time on every point already)"
        }
    }
}
