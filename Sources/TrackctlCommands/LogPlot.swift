import TrackCore
import TrackIO

/// `trackctl log plot [--trip N] [--log DIR] > trip.svg`: one trip of the log (the last one
/// unless `--trip` says which) as a self-contained SVG map (`TripPlot`).
enum LogPlot {
    static let usage: StaticString = """
        usage: trackctl log plot [--trip N] [--log DIR] [--places FILE] [--fences FILE]
                                 [--stop-minutes M] [--stop-metres M] > trip.svg

        Trip N of trackctl log trips (default the last) as an SVG map: the track coloured by
        speed, waypoints, fences and their events, start and end with their places, a scale
        bar, a north arrow and the trip's summary. Open it in any browser.

        """

    static func run(_ arguments: [String]) -> Int32 {
        var context = CommandContext.standard
        return run(arguments, &context)
    }

    /// The verb on `context`: the SVG on its standard output; which trip it drew, problems and,
    /// without a gazetteer, one note that places are coordinates on its standard error.
    static func run(_ arguments: [String], _ context: inout CommandContext) -> Int32 {
        let command = "trackctl log plot"
        if arguments.contains("-h") || arguments.contains("--help") {
            try? context.write(usage)
            return 0
        }
        guard let parsed = LogTrips.parse(arguments, command: command, plot: true, &context) else {
            context.say(usage)
            return 2
        }
        let opened = Gazetteer.open(parsed.places, command: command, announce: true, &context)
        if case .failed = opened { return 1 }
        guard let fences = LogNaming.fences(parsed.fences, command: command, &context) else { return 1 }
        guard let trips = LogTrips.read(parsed.directory, parsed.settings, command: command, &context) else { return 1 }
        guard let last = trips.last else {
            context.say(command + ": no trips in " + parsed.directory + "\n")
            return 1
        }
        let number = parsed.trip ?? last.number
        guard number <= trips.count else {
            context.say(command + ": --trip " + String(number) + ": the log has "
                + String(trips.count) + " trips (trackctl log trips lists them)\n")
            return 1
        }
        let trip = trips[number - 1]
        guard let fixes = self.fixes(of: trip, in: parsed.directory) else { return 1 }
        let names = PlaceNames(gazetteer: opened.gazetteer)
        let svg = plot(trip, fixes: fixes, fences: fences, names: names).svg()
        do {
            try context.write(svg)
        } catch {
            context.say(command + ": standard output: " + error.message + "\n")
            return 1
        }
        context.say(command + ": trip " + String(number) + " of " + String(trips.count) + ": "
            + LogTrips.headline(trip, names) + "\n")
        return 0
    }

    /// The fixes from the trip's start to its end, in log order.
    static func fixes(of trip: Trip, in directory: String) -> [LogFix]? {
        guard var reader = try? LogReader(directory: directory) else { return nil }
        var fixes: [LogFix] = []
        while let record = reader.next() {
            guard case .fix(let fix) = record, fix.time >= trip.start.time, fix.time <= trip.end.time else { continue }
            fixes.append(fix)
            if fix == trip.end { break }
        }
        return fixes
    }

    /// The picture of `trip`: title, labels, markers and the fences it came near.
    static func plot(_ trip: Trip, fixes: [LogFix], fences: FenceSet, names: PlaceNames) -> TripPlot {
        var plot = TripPlot(title: LogTrips.headline(trip, names), fixes: fixes)
        let day = LogCommand.time(trip.start.time).prefix(10)
        plot.subtitle = "trip " + String(trip.number) + " · " + day + " " + clock(trip.start.time) + "–" + clock(trip.end.time)
            + " UTC · moving " + LogTrips.duration(trip.movingMilliseconds) + " · average "
            + (trip.averageMillimetresPerSecond.map(LogTrips.speed) ?? "-") + " · max "
            + LogTrips.speed(trip.maximumMillimetresPerSecond) + " · " + String(trip.fixCount) + " fixes"
        plot.startLabel = "Start " + clock(trip.start.time) + " · " + names.describe(trip.start.position.coordinate)
        plot.endLabel = "End " + clock(trip.end.time) + " · " + names.describe(trip.end.position.coordinate)
        let ids = fences.fences.map { $0.id }
        for event in trip.events {
            guard let place = ExportPlace(event, datum: .wgs84, fenceIDs: ids) else { continue }
            plot.markers.append(TripPlot.Marker(kind: place.type, position: place.position, label: place.name))
        }
        for index in 0..<fences.count {
            plot.fences.append(TripPlot.FenceOutline(id: fences.fences[index].id, rings: fences.outline(of: index)))
        }
        plot.attribution = names.gazetteer == nil ? "Web Mercator · trackd"
            : "Places: GeoNames (CC BY 4.0) · Web Mercator · trackd"
        return plot
    }

    /// `07:30` of `time` (UTC).
    static func clock(_ time: UTCTime) -> String {
        let text = LogCommand.time(time)
        let start = text.index(text.startIndex, offsetBy: min(11, text.count))
        let end = text.index(start, offsetBy: min(5, text.distance(from: start, to: text.endIndex)))
        return String(text[start..<end])
    }
}
