import TrackCore
import TrackIO

/// `trackctl log export`'s naming options: `--trip N` (only that trip of `trackctl log trips`,
/// by its time window), `--places FILE` and `--fences FILE` (LogNaming).
struct LogExportNaming: Equatable {
    var trip: Int?
    var places: String?
    var fences: String?

    /// Takes `option`'s `value`; false when the value is not valid for it.
    mutating func take(_ option: String, _ value: String) throws(LogExportArgumentError) -> Bool {
        switch option {
        case "--trip":
            guard let number = Int(value), number > 0 else { return false }
            trip = number
        case "--places": places = value
        default: fences = value
        }
        return true
    }

    /// Names the export's tracks, places and fences, and narrows the window to the trip;
    /// false after printing why it cannot.
    func apply(to arguments: inout LogExportArguments) -> Bool {
        let command = "trackctl log export"
        var context = CommandContext.standard
        let opened = Gazetteer.open(places, command: command, &context)
        if case .failed = opened { return false }
        guard let fenceIDs = LogNaming.fenceIDs(fences, command: command, &context) else { return false }
        arguments.options.fenceIDs = fenceIDs
        let names = PlaceNames(gazetteer: opened.gazetteer)
        if let trip {
            guard let trips = LogTrips.read(arguments.directory, TripSettings(), command: command, &context) else {
                return false
            }
            guard trip <= trips.count else {
                context.say(command + ": --trip " + String(trip) + ": the log has "
                    + String(trips.count) + " trips (trackctl log trips lists them)\n")
                return false
            }
            arguments.options.narrow(to: trips[trip - 1])
        }
        // Without a gazetteer the export stays as it was: "track N", no places in descriptions.
        guard opened.gazetteer != nil else { return true }
        return LogNaming.name(&arguments.options, directory: arguments.directory, names: names)
    }
}

extension ExportOptions {
    /// The window of `trip`: from its first fix to just after its last, within any window
    /// already set.
    mutating func narrow(to trip: Trip) {
        let start = trip.start.time
        let end = UTCTime(millisecondsSinceEpoch: trip.end.time.millisecondsSinceEpoch + 1)
        since = since.map { max($0, start) } ?? start
        until = until.map { min($0, end) } ?? end
    }
}
