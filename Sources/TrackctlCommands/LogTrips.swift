import TrackCore
import TrackIO

/// `trackctl log trips [--log DIR] [--json]`: the log cut into trips at boots, gaps and stops
/// (5 min within 50 m by default), one summary each: start and end time and place, distance,
/// duration, moving time, average and maximum speed, waypoints and fence events on the way.
enum LogTrips {
    static let usage: StaticString = """
        usage: trackctl log trips [--log DIR] [--json] [--stop-minutes M] [--stop-metres M]
                                  [--places FILE] [--fences FILE]

        The track log cut into trips: at boots, gaps of more than 5 minutes and stops (M
        minutes within M metres: 5 and 50 by default), e.g.
            trip 1  Tübingen → Stuttgart, 41.2 km, 52 min

          --json          one JSON object per trip in an array
          --places FILE   the gazetteer (default $TRACKD_PLACES, else /usr/share/trackd/places.bin)
          --fences FILE   the fences file whose ids name the fence events (default the
                          configuration's, /etc/trackd/fences.geojson)

        """

    /// What the log commands that work on trips were asked for.
    struct Arguments {
        var directory = LogCommand.defaultDirectory
        var json = false
        var settings = TripSettings()
        var places: String?
        var fences: String?
        var trip: Int?
    }

    /// Parses the options trips and plot share; nil after saying why.
    static func parse(_ arguments: [String], command: String, plot: Bool, _ context: inout CommandContext) -> Arguments? {
        var parsed = Arguments()
        var index = 0
        func value() -> String? {
            guard index + 1 < arguments.count else { return nil }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let option = arguments[index]
            var ok = true
            switch option {
            case "--log": if let text = value() { parsed.directory = text } else { ok = false }
            case "--json" where !plot: parsed.json = true
            case "--places": if let text = value() { parsed.places = text } else { ok = false }
            case "--fences": if let text = value() { parsed.fences = text } else { ok = false }
            case "--stop-minutes":
                if let text = value(), let minutes = Int(text), minutes > 0 {
                    parsed.settings.stopMilliseconds = Int64(minutes) * 60_000
                } else { ok = false }
            case "--stop-metres":
                if let text = value(), let metres = Int(text), metres > 0 {
                    parsed.settings.stopRadiusMetres = Double(metres)
                } else { ok = false }
            case "--trip" where plot:
                if let text = value(), let number = Int(text), number > 0 { parsed.trip = number } else { ok = false }
            default: ok = false
            }
            if !ok {
                context.say(command + ": bad or incomplete option '" + option
                    + "' (stop minutes and metres are whole numbers above 0, --trip counts from 1)\n")
                return nil
            }
            index += 1
        }
        return parsed
    }

    static func run(_ arguments: [String]) -> Int32 {
        var context = CommandContext.standard
        return run(arguments, &context)
    }

    /// The verb on `context`: the trips on its standard output, problems (and, without a
    /// gazetteer, one note that positions are coordinates) on its standard error; the exit code.
    static func run(_ arguments: [String], _ context: inout CommandContext) -> Int32 {
        let command = "trackctl log trips"
        if arguments.contains("-h") || arguments.contains("--help") {
            try? context.write(usage)
            return 0
        }
        guard let parsed = parse(arguments, command: command, plot: false, &context) else {
            context.say(usage)
            return 2
        }
        let opened = Gazetteer.open(parsed.places, command: command, announce: true, &context)
        if case .failed = opened { return 1 }
        guard let fenceIDs = LogNaming.fenceIDs(parsed.fences, command: command, &context) else { return 1 }
        guard let trips = read(parsed.directory, parsed.settings, command: command, &context) else { return 1 }
        let names = PlaceNames(gazetteer: opened.gazetteer)
        var output = ""
        if parsed.json { output += "[\n" }
        for trip in trips {
            if parsed.json {
                output += json(trip, names, fenceIDs) + (trip.number < trips.count ? ",\n" : "\n")
            } else {
                output += text(trip, names, fenceIDs)
            }
        }
        if parsed.json { output += "]\n" } else if trips.isEmpty { output += "no trips\n" }
        do {
            try context.write(output)
        } catch {
            context.say(command + ": standard output: " + error.message + "\n")
            return 1
        }
        return 0
    }

    /// The trips of the log in `directory`; nil after saying why it cannot be read.
    static func read(_ directory: String, _ settings: TripSettings, command: String, _ context: inout CommandContext) -> [Trip]? {
        var reader: LogReader<PosixLogFiles>
        do {
            reader = try LogReader(directory: directory)
        } catch {
            context.say(command + ": " + error.description + "\n")
            return nil
        }
        var cutter = TripCutter(settings)
        var trips: [Trip] = []
        while let record = reader.next() { cutter.consume(record) { trips.append($0) } }
        cutter.finish { trips.append($0) }
        for problem in reader.problems where problem.losesRecords {
            context.say(command + ": " + problem.description + "\n")
        }
        return trips
    }

    /// `Tübingen → Stuttgart, 41.2 km, 52 min`: the one-line summary titles and the demo show.
    static func headline(_ trip: Trip, _ names: PlaceNames) -> String {
        LogNaming.route(trip.start, trip.end, names) + ", " + kilometres(trip.distanceMetres) + ", "
            + duration(trip.durationMilliseconds)
    }

    static func text(_ trip: Trip, _ names: PlaceNames, _ fenceIDs: [String]) -> String {
        var lines = "trip " + String(trip.number) + "  " + headline(trip, names) + "\n"
        lines += "  from   " + LogCommand.time(trip.start.time) + "  " + names.describe(trip.start.position.coordinate) + "\n"
        lines += "  to     " + LogCommand.time(trip.end.time) + "  " + names.describe(trip.end.position.coordinate)
            + "  (" + trip.endReason.rawValue + ")\n"
        lines += "  moving " + duration(trip.movingMilliseconds) + ", average "
            + (trip.averageMillimetresPerSecond.map(speed) ?? "-") + ", max " + speed(trip.maximumMillimetresPerSecond)
            + ", " + String(trip.fixCount) + " fixes\n"
        for event in trip.events {
            guard let place = ExportPlace(event, datum: .wgs84, fenceIDs: fenceIDs) else { continue }
            lines += "  " + place.type + "  " + LogCommand.time(place.time) + "  " + place.name + "  "
                + names.describe(place.position.coordinate) + "\n"
        }
        return lines
    }

    static func json(_ trip: Trip, _ names: PlaceNames, _ fenceIDs: [String]) -> String {
        var out = "{\"trip\":" + String(trip.number)
        out += ",\"name\":" + quoted(LogNaming.route(trip.start, trip.end, names))
        out += ",\"start\":" + endpoint(trip.start, names) + ",\"end\":" + endpoint(trip.end, names)
        out += ",\"end_reason\":\"" + trip.endReason.rawValue + "\""
        out += ",\"distance_m\":" + decimal(Int64(trip.distanceMetres * 10 + 0.5), 1)
        out += ",\"duration_s\":" + decimal(trip.durationMilliseconds, 3)
        out += ",\"moving_s\":" + decimal(trip.movingMilliseconds, 3)
        out += ",\"average_mps\":" + (trip.averageMillimetresPerSecond.map { decimal($0, 3) } ?? "null")
        out += ",\"max_mps\":" + decimal(trip.maximumMillimetresPerSecond, 3)
        out += ",\"fixes\":" + String(trip.fixCount) + ",\"events\":["
        var first = true
        for event in trip.events {
            guard let place = ExportPlace(event, datum: .wgs84, fenceIDs: fenceIDs) else { continue }
            out += (first ? "" : ",") + "{\"kind\":\"" + place.type + "\",\"time\":\"" + LogCommand.time(place.time)
                + "\",\"name\":" + quoted(place.name) + ",\"lat\":" + degrees(place.position.latitudeE7)
                + ",\"lon\":" + degrees(place.position.longitudeE7) + ",\"place\":"
                + quoted(names.describe(place.position.coordinate)) + "}"
            first = false
        }
        return out + "]}"
    }

    static func endpoint(_ fix: LogFix, _ names: PlaceNames) -> String {
        "{\"time\":\"" + LogCommand.time(fix.time) + "\",\"lat\":" + degrees(fix.position.latitudeE7) + ",\"lon\":"
            + degrees(fix.position.longitudeE7) + ",\"place\":" + quoted(names.describe(fix.position.coordinate)) + "}"
    }

    static func quoted(_ text: String) -> String {
        var out = TextBuffer()
        out.appendJSONString(text)
        return out.string
    }

    static func decimal(_ value: Int64, _ decimals: Int) -> String {
        var out = TextBuffer()
        out.appendTrimmed(value, decimals: decimals)
        return out.string
    }

    static func degrees(_ e7: Int32) -> String { decimal(Int64(e7), 7) }

    /// `850 m`, `3.2 km`, `41 km`.
    static func kilometres(_ metres: Double) -> String {
        if metres < 1_000 { return String(Int(metres + 0.5)) + " m" }
        if metres < 100_000 { return decimal(Int64(metres / 100 + 0.5), 1) + " km" }
        return String(Int(metres / 1000 + 0.5)) + " km"
    }

    /// `45 s`, `52 min`, `2 h 05 min`.
    static func duration(_ milliseconds: Int64) -> String {
        let seconds = (milliseconds + 500) / 1000
        if seconds < 60 { return String(seconds) + " s" }
        let minutes = (seconds + 30) / 60
        if minutes < 60 { return String(minutes) + " min" }
        let rest = minutes % 60
        return String(minutes / 60) + " h " + (rest < 10 ? "0" : "") + String(rest) + " min"
    }

    /// `19.4 km/h` from mm/s.
    static func speed(_ millimetresPerSecond: Int64) -> String {
        decimal((millimetresPerSecond * 36 + 500) / 1000, 1) + " km/h"
    }
}
