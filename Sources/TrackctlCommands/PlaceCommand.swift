import TrackCore
import TrackIO

/// `trackctl place LAT LON [--json] [--places FILE]`: the nearest place of the offline
/// gazetteer, said as a person would, e.g. `2.8 km NE of Tübingen, Baden-Wurttemberg, DE`;
/// with `--json` the place's own fields and coordinates, the distance and the bearing.
enum PlaceCommand {
    static let usage: StaticString = """
        usage: trackctl place LAT LON [--json] [--places FILE]

        The nearest place of the offline gazetteer (GeoNames, CC BY 4.0) to LAT LON, e.g.
            trackctl place 48.54 9.08      2.8 km NE of Tübingen, Baden-Wurttemberg, DE
        "in PLACE" within the place's radius (1 km, more for big cities), the coordinates when
        nothing lies within 50 km.

          --json     one JSON object: text, the position, inside, distance_m, bearing_deg,
                     compass and the place (name, admin1, country_code, lat, lon, population,
                     radius_m), or "place":null
          --places   the gazetteer (default $TRACKD_PLACES, else /usr/share/trackd/places.bin)

        """

    static func run(_ arguments: [String]) -> Int32 {
        var json = false
        var places: String?
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help":
                try? FileDescriptor.standardOutput.writeAll(usage)
                return 0
            case "--json":
                json = true
            case "--places":
                guard index + 1 < arguments.count else { return fail("--places needs a file") }
                index += 1
                places = arguments[index]
            default:
                // A negative coordinate is a value, not an option.
                if argument.hasPrefix("--") { return fail("unknown option '" + argument + "'") }
                positional.append(argument)
            }
            index += 1
        }
        guard (1...2).contains(positional.count) else { return fail("place takes LAT LON") }
        let text = positional.count == 2 ? positional[0] + "," + positional[1] : positional[0]
        let position: Coordinate
        do {
            position = try Coordinate(parsing: text)
        } catch {
            return fail("'" + positional.joined(separator: " ") + "' is not a latitude and longitude")
        }
        var context = CommandContext.standard
        let opened = Gazetteer.open(places, command: "trackctl place", announce: true, &context)
        if case .failed = opened { return 1 }
        let gazetteer = opened.gazetteer
        let name = gazetteer?.name(position) ?? PlaceName(position: position)
        let words = gazetteer?.text(name) ?? position.formatted()
        let line = json ? Self.json(name, words: words, gazetteer) : words
        try? FileDescriptor.standardOutput.writeAll(line + "\n")
        return 0
    }

    static func fail(_ message: String) -> Int32 {
        try? FileDescriptor.standardError.writeAll("trackctl place: " + message + "\n")
        try? FileDescriptor.standardError.writeAll(usage)
        return 2
    }

    /// The JSON object for scripts, e.g. `{"text":"in Tübingen, …","lat":48.52,"lon":9.05,
    /// "inside":true,"distance_m":301.6,"bearing_deg":12.3,"compass":"N","place":{…}}`.
    static func json(_ name: PlaceName, words: String, _ gazetteer: Gazetteer?) -> String {
        var out = TextBuffer()
        out.append("{")
        out.appendJSONMember("text", words, first: true)
        out.append(",\"lat\":")
        out.appendTrimmed(name.position.latitudeNanodegrees, decimals: 9)
        out.append(",\"lon\":")
        out.appendTrimmed(name.position.longitudeNanodegrees, decimals: 9)
        guard let gazetteer, let match = name.match, let place = name.place, let compass = name.compassPoint else {
            out.append(",\"place\":null}")
            return out.string
        }
        out.append(",\"inside\":")
        out.append(name.isInside ? "true" : "false")
        out.append(",\"distance_m\":")
        out.appendTrimmed(Int64(match.distanceMetres * 10 + 0.5), decimals: 1)
        var bearing = match.azimuthDegrees
        if bearing < 0 { bearing += 360 }
        out.append(",\"bearing_deg\":")
        out.appendTrimmed(Int64(bearing * 10 + 0.5) % 3600, decimals: 1)
        out.append(",\"compass\":\"")
        out.append(compass.abbreviation)
        out.append("\",\"place\":{")
        out.appendJSONMember("name", gazetteer.string(place.name), first: true)
        out.appendJSONMember("admin1", gazetteer.string(place.admin1))
        out.appendJSONMember("country_code", place.countryCodeText)
        out.append(",\"lat\":")
        out.appendDegreesE7(place.position.latitudeE7)
        out.append(",\"lon\":")
        out.appendDegreesE7(place.position.longitudeE7)
        out.append(",\"population\":")
        out.append(integer: Int64(place.population))
        out.append(",\"radius_m\":")
        out.append(integer: Int64(place.radiusMetres + 0.5))
        out.append("}}")
        return out.string
    }
}
