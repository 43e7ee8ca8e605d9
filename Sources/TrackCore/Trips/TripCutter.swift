/// Cuts a track log into trips as it streams past, in log order: a trip ends at a boot marker,
/// a gap record, fixes more than `gapMilliseconds` apart, or a stop (every fix for at least
/// `stopMilliseconds` within `stopRadiusMetres` of the stop's first fix, or a sleep record: the
/// receiver slept because the tracker stood still, so the time without fixes after it is the
/// stop, not a gap), and a new one starts when the position leaves the stop. A "trip" that never went `stopRadiusMetres` from where it
/// started is drift, not a trip, and is dropped.
///
/// Holds only the open trip; each finished one goes to `emit` (the last at `finish`). Example:
///
///     var cutter = TripCutter(TripSettings())
///     for record in log { cutter.consume(record) { trip in print(trip.number) } }
///     cutter.finish { trip in print(trip.number) }
public struct TripCutter {
    /// The rules.
    public let settings: TripSettings
    /// Trips emitted so far.
    public private(set) var count = 0

    /// The trip under way or just ended by a stop (kept for the events at its stop).
    var trip: Trip?
    var tripOpen = false
    /// Its farthest distance from its start, in metres (dropped if under the stop radius).
    var reach = 0.0
    var last: LogFix?
    /// The first fix of the stationary stretch that may become a stop, and whether it has.
    var anchor: LogFix?
    var stopped = false
    /// The trip's figures up to the anchor, while the stretch after it may still be a stop.
    var atAnchor: Trip?
    /// Events before any trip of this stretch started.
    var early: [LogRecord] = []
    /// A sleep record came since the last fix: the next fix's time step is the stop's.
    var slept = false

    /// A cutter with `settings`.
    public init(_ settings: TripSettings) {
        self.settings = settings
    }

    /// Takes the next record of the log.
    public mutating func consume(_ record: LogRecord, _ emit: (Trip) -> Void) {
        switch record {
        case .fix(let fix):
            add(fix, emit)
        case .waypoint, .fenceEvent:
            if trip != nil { trip?.events.append(record) } else { early.append(record) }
        case .gap:
            endStretch(.gap, emit)
        case .receiverAsleep:
            // The receiver sleeps only when the tracker has stood still: a stop at the anchor.
            guard last != nil else { return }
            slept = true
            if !stopped { stop(emit) }
        case .bootMarker:
            endStretch(.boot, emit)
        case .permissionChange:
            return
        }
    }

    /// Ends the log: the open trip, if any, goes to `emit`.
    public mutating func finish(_ emit: (Trip) -> Void) {
        endStretch(.end, emit)
    }

    /// A boot, a gap or the end: the open trip ends and nothing carries over but the events.
    mutating func endStretch(_ reason: Trip.EndReason, _ emit: (Trip) -> Void) {
        close(reason, emit)
        flush(emit)
        last = nil
        anchor = nil
        atAnchor = nil
        stopped = false
        slept = false
    }

    mutating func add(_ fix: LogFix, _ emit: (Trip) -> Void) {
        if let last, !slept {
            let step = fix.time.millisecondsSinceEpoch - last.time.millisecondsSinceEpoch
            if step > settings.gapMilliseconds || step < 0 { endStretch(.gap, emit) }
        }
        slept = false
        guard let previous = last else {
            start(at: fix, emit)
            return
        }
        last = fix
        let fromAnchor = anchor.map { $0.position.coordinate.distance(to: fix.position.coordinate) } ?? .infinity
        if fromAnchor <= settings.stopRadiusMetres, let anchor {
            if stopped { return }
            extend(from: previous, to: fix)
            if fix.time.millisecondsSinceEpoch - anchor.time.millisecondsSinceEpoch >= settings.stopMilliseconds {
                stop(emit)
            }
            return
        }
        if stopped {
            // Leaving the stop: the next trip departs from its last fix.
            stopped = false
            flush(emit)
            start(at: previous, emit)
            last = fix
        }
        extend(from: previous, to: fix)
        anchor = fix
        atAnchor = trip
    }

    /// A stop: the trip arrived at the anchor.
    mutating func stop(_ emit: (Trip) -> Void) {
        stopped = true
        if tripOpen, var arrived = atAnchor {
            arrived.events = trip?.events ?? []
            trip = arrived
            close(.stop, emit)
        }
    }

    /// Opens a trip at `fix`, giving it the events that waited for one.
    mutating func start(at fix: LogFix, _ emit: (Trip) -> Void) {
        trip = Trip(number: 0, start: fix, end: fix, fixCount: 1, distanceMetres: 0, movingMilliseconds: 0,
                    maximumMillimetresPerSecond: Int64(max(fix.speedCentimetresPerSecond ?? 0, 0)) * 10,
                    events: early, endReason: .end)
        early.removeAll()
        tripOpen = true
        reach = 0
        last = fix
        anchor = fix
        atAnchor = trip
        stopped = false
    }

    /// Adds the stretch from `previous` to `fix` to the open trip.
    mutating func extend(from previous: LogFix, to fix: LogFix) {
        guard tripOpen, var current = trip else { return }
        let metres = previous.position.coordinate.distance(to: fix.position.coordinate)
        let milliseconds = fix.time.millisecondsSinceEpoch - previous.time.millisecondsSinceEpoch
        current.distanceMetres += metres
        current.fixCount += 1
        current.end = fix
        let derived = milliseconds > 0 ? Int64(metres * 1_000_000 / Double(milliseconds)) : 0
        let recorded = fix.speedCentimetresPerSecond.map { Int64(max($0, 0)) * 10 }
        current.maximumMillimetresPerSecond = max(current.maximumMillimetresPerSecond, recorded ?? derived)
        // The receiver's own (Doppler) speed when recorded: position jitter at a standstill
        // would otherwise count as motion.
        if (recorded ?? derived) >= settings.movingMillimetresPerSecond { current.movingMilliseconds += milliseconds }
        reach = max(reach, current.start.position.coordinate.distance(to: fix.position.coordinate))
        trip = current
    }

    /// Ends the open trip for `reason`; it is emitted when the next one starts or the stretch ends.
    mutating func close(_ reason: Trip.EndReason, _ emit: (Trip) -> Void) {
        if tripOpen, trip != nil { trip?.endReason = reason }
        tripOpen = false
    }

    /// Emits the ended trip (if it went anywhere) and forgets the stretch.
    mutating func flush(_ emit: (Trip) -> Void) {
        if !tripOpen, var ended = trip {
            if reach >= settings.stopRadiusMetres && ended.fixCount >= 2 {
                count += 1
                ended.number = count
                emit(ended)
            } else {
                early.append(contentsOf: ended.events)
            }
            trip = nil
        }
    }
}
