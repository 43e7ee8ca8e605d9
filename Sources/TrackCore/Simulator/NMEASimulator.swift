/// Why a track cannot be simulated, or a setting is out of range.
public enum SimulatorError: Error, Equatable, Sendable {
    /// The track has fewer than two points.
    case tooFewPoints(Int)
    /// A point has no `<time>` (its line given): the simulator moves along the track by time.
    case missingTime(line: Int)
    /// The first and the last point share one time.
    case noDuration
    /// The rate is not 1, 5 or 10 Hz.
    case unsupportedRate(Int)
    /// Speed factor ≤ 0, negative noise or cold start, or not a finite number.
    case invalidSetting(StaticString)

    /// Equal when they say the same (`invalidSetting` carries a StaticString).
    public static func == (lhs: SimulatorError, rhs: SimulatorError) -> Bool {
        lhs.description == rhs.description
    }

    /// One line saying what is wrong, e.g. `"line 7: the point has no <time>"`.
    public var description: String {
        switch self {
        case .tooFewPoints(let count): "the track has \(count) point\(count == 1 ? "" : "s"); at least 2 are needed"
        case .missingTime(let line): "line \(line): the point has no <time>; the simulator needs times to move"
        case .noDuration: "the first and the last point have the same time"
        case .unsupportedRate(let rate): "rate \(rate) Hz: use 1, 5 or 10"
        case .invalidSetting(let what): "invalid \(what)"
        }
    }
}

/// What the simulator meant the receiver to report at one epoch, before noise: for tests and
/// for checking what a decoder got back.
public struct SimulatedEpoch: Equatable, Sendable {
    /// The epoch's UTC time.
    public var time: UTCTime
    /// The true position; nil during the cold start.
    public var position: Coordinate?
    /// The position as sent, noise included; nil during the cold start.
    public var reportedPosition: Coordinate?
    /// Speed over ground in mm/s; nil during the cold start.
    public var speedMillimetresPerSecond: Int32?
    /// Course over ground in millidegrees; nil during the cold start and before the first move.
    public var courseMillidegrees: Int32?
    /// Altitude as sent, noise included, in millimetres; nil when the track has no elevations.
    public var altitudeMillimetres: Int32?
}

/// A GPS receiver driven along a GPX track: one epoch of NMEA per call, as a u-blox-like
/// receiver sends it (RMC, VTG, GGA, GSA, GSV once a second, GLL; GP talker; checksums), e.g.
/// `trackctl simulate route.gpx` writes it to a pseudo-terminal in real time.
///
/// The receiver's UTC clock starts `coldStartSeconds` before the track's first time and runs
/// in real time; the position moves along the track `speedFactor` times faster, interpolated
/// linearly in latitude and longitude between points (fine for points metres apart), with
/// speed and course from the segment it is on. Noise is a random walk that returns to the
/// track (a first-order Gauss-Markov process with a 5 s time constant), `noiseMetres` 1σ per
/// axis north and east (and 1.5σ up), from a seeded generator, so runs repeat exactly. Without
/// elevations in the track the fix is 2D. Nothing is allocated per epoch.
public struct NMEASimulator: Sendable {
    /// Simulation settings.
    public struct Configuration: Equatable, Sendable {
        /// How many times faster than the track's times to move (1: as recorded).
        public var speedFactor: Double
        /// Epochs per second: 1, 5 or 10.
        public var rateHertz: Int
        /// Position noise, 1σ per horizontal axis, in metres (0: none).
        public var noiseMetres: Double
        /// Seconds without a fix before the first one (RMC V, GGA quality 0, GSA mode 1).
        public var coldStartSeconds: Int
        /// Starts again at the first point after the last instead of finishing.
        public var loops: Bool
        /// Seed of the noise and the sky.
        public var seed: UInt64
        /// When the receiver's clock starts (its first fix, after the cold start), e.g. the
        /// system's time now, rounded up to the next epoch; nil: at the route's first time,
        /// so the sentences carry the route's own times.
        public var clockStart: UTCTime?

        /// Settings; the defaults replay the track as recorded at 1 Hz without noise.
        public init(
            speedFactor: Double = 1, rateHertz: Int = 1, noiseMetres: Double = 0,
            coldStartSeconds: Int = 0, loops: Bool = false, seed: UInt64 = 1, clockStart: UTCTime? = nil
        ) {
            self.speedFactor = speedFactor
            self.rateHertz = rateHertz
            self.noiseMetres = noiseMetres
            self.coldStartSeconds = coldStartSeconds
            self.loops = loops
            self.seed = seed
            self.clockStart = clockStart
        }
    }

    /// The settings in use.
    public let configuration: Configuration
    let points: [GPXPoint]
    let startTime: UTCTime
    /// The receiver's clock minus the route's times, in ms (0 on the route's own times).
    let clockShiftMilliseconds: Int64
    let durationMilliseconds: Int64
    let hasElevation: Bool
    /// Epochs written so far.
    public private(set) var epochCount = 0
    /// The sentences and their intervals in epochs, when a receiver model has been told which
    /// to send (`SimulatedReceiver`); nil: the stock set above (GSV once a second), as before.
    public var outputRates: SentenceRates?
    /// Receiver time between epochs in ms: from the rate, or as a receiver was told since.
    var intervalMilliseconds: Int64
    /// Receiver time from the clock's start to the next epoch, in ms.
    var elapsedMilliseconds: Int64 = 0
    /// True once the end of the track was written (never when looping).
    public private(set) var isFinished = false
    /// The last epoch written.
    public private(set) var lastEpoch: SimulatedEpoch?
    var segment = 0
    var lastCourse: Int32?
    var noiseNorth = 0.0
    var noiseEast = 0.0
    var noiseUp = 0.0
    var random: SimulatorRandom
    var sky: SimulatedSky

    /// A simulator for `track`; every point needs a time.
    public init(track: GPXTrack, configuration: Configuration = Configuration()) throws(SimulatorError) {
        guard [1, 5, 10].contains(configuration.rateHertz) else { throw .unsupportedRate(configuration.rateHertz) }
        guard configuration.speedFactor > 0, configuration.speedFactor.isFinite else { throw .invalidSetting("speed factor") }
        guard configuration.noiseMetres >= 0, configuration.noiseMetres.isFinite else { throw .invalidSetting("noise") }
        guard configuration.coldStartSeconds >= 0 else { throw .invalidSetting("cold start") }
        guard track.points.count >= 2 else { throw .tooFewPoints(track.points.count) }
        for point in track.points where point.time == nil { throw .missingTime(line: point.line) }
        guard let first = track.points.first?.time, let duration = track.durationMilliseconds, duration > 0 else {
            throw .noDuration
        }
        self.configuration = configuration
        points = track.points
        startTime = first
        if let clockStart = configuration.clockStart {
            // A receiver's epochs fall on whole multiples of its interval (12:00:01.000, .200, …).
            let interval = Int64(1000 / configuration.rateHertz)
            let aligned = (clockStart.millisecondsSinceEpoch + interval - 1) / interval * interval
            clockShiftMilliseconds = aligned - first.millisecondsSinceEpoch
        } else {
            clockShiftMilliseconds = 0
        }
        durationMilliseconds = duration
        intervalMilliseconds = Int64(1000 / configuration.rateHertz)
        hasElevation = track.points.allSatisfy { $0.elevationMillimetres != nil }
        random = SimulatorRandom(seed: configuration.seed)
        sky = SimulatedSky(seed: configuration.seed, coldStartSeconds: Double(configuration.coldStartSeconds))
        // Start the noise in its steady state rather than at zero.
        noiseNorth = random.gaussian() * configuration.noiseMetres
        noiseEast = random.gaussian() * configuration.noiseMetres
        noiseUp = random.gaussian() * configuration.noiseMetres * 1.5
    }

    /// Receiver time between epochs, in milliseconds (1000, 200 or 100 from the rate; 100 …
    /// 10,000 once `setEpochInterval` changed it).
    public var epochIntervalMilliseconds: Int64 { intervalMilliseconds }

    /// Changes the time between epochs, as a receiver told a new fix interval does; the next
    /// epoch falls on a whole multiple of the new interval. Clamped to 100 … 10,000 ms.
    public mutating func setEpochInterval(milliseconds: Int64) {
        let interval = min(max(milliseconds, 100), 10_000)
        guard interval != intervalMilliseconds else { return }
        intervalMilliseconds = interval
        elapsedMilliseconds = (elapsedMilliseconds + interval - 1) / interval * interval
    }

    /// The UTC time of the next epoch.
    public var nextEpochTime: UTCTime {
        UTCTime(millisecondsSinceEpoch: startTime.millisecondsSinceEpoch + clockShiftMilliseconds
            - Int64(configuration.coldStartSeconds) * 1000 + elapsedMilliseconds)
    }

    /// Appends the next epoch's sentences to `buffer` (about 500 bytes; check `overflowed` for a
    /// buffer that was already partly full); returns false, writing nothing, once finished.
    public mutating func writeEpoch(to buffer: inout TextBuffer) -> Bool {
        guard !isFinished else { return false }
        let time = nextEpochTime
        let sinceStart = Double(elapsedMilliseconds) / 1000
        let sinceFix = time.millisecondsSinceEpoch - clockShiftMilliseconds - startTime.millisecondsSinceEpoch
        var epoch = SimulatedEpoch(time: time)
        if sinceFix >= 0 {
            var offset = Int64((Double(sinceFix) * configuration.speedFactor).rounded())
            if offset > durationMilliseconds {
                if configuration.loops {
                    offset %= durationMilliseconds
                } else {
                    isFinished = true
                    return false
                }
            }
            locate(&epoch, trackOffset: offset)
        }
        sky.advance(to: sinceStart)
        let wholeSecond = time.millisecondsSinceEpoch % 1000 == 0
        writeSentences(epoch, satellites: sky.satellites(at: sinceStart, fixed: epoch.position != nil),
                       withGSV: wholeSecond, to: &buffer)
        lastEpoch = epoch
        epochCount += 1
        elapsedMilliseconds += intervalMilliseconds
        if !configuration.loops && sinceFix >= 0
            && Double(sinceFix + epochIntervalMilliseconds) * configuration.speedFactor > Double(durationMilliseconds) {
            // The next epoch would be past the end: this was the last one.
            isFinished = true
        }
        return true
    }

    /// Fills in the true and the reported position `trackOffset` ms after the first point.
    mutating func locate(_ epoch: inout SimulatedEpoch, trackOffset: Int64) {
        let target = startTime.millisecondsSinceEpoch + trackOffset
        if segment >= points.count - 1 || pointTime(segment) > target { segment = 0 }
        while segment < points.count - 2 && pointTime(segment + 1) < target { segment += 1 }
        let a = points[segment]
        let b = points[segment + 1]
        let span = pointTime(segment + 1) - pointTime(segment)
        let f = span > 0 ? min(max(Double(target - pointTime(segment)) / Double(span), 0), 1) : 1
        let latitude = Double(a.position.latitudeNanodegrees)
            + f * Double(b.position.latitudeNanodegrees - a.position.latitudeNanodegrees)
        let longitude = Double(a.position.longitudeNanodegrees)
            + f * Double(b.position.longitudeNanodegrees - a.position.longitudeNanodegrees)
        epoch.position = Coordinate(latitudeNanodegrees: Int64(latitude.rounded()), longitudeNanodegrees: Int64(longitude.rounded()))

        // Speed and course of the segment, in metres on a local flat Earth.
        let metresPerNanodegree = SimulatorMath.earthRadiusMetres / SimulatorMath.degreesPerRadian / 1e9
        let cosLatitude = Math.cos(latitude / 1e9 / SimulatorMath.degreesPerRadian)
        let north = Double(b.position.latitudeNanodegrees - a.position.latitudeNanodegrees) * metresPerNanodegree
        let east = Double(b.position.longitudeNanodegrees - a.position.longitudeNanodegrees) * metresPerNanodegree * cosLatitude
        let metres = (north * north + east * east).squareRoot()
        let speed = span > 0 ? metres / (Double(span) / 1000) * configuration.speedFactor : 0
        // A jump in the route (or a large speed factor) can be faster than NMEA's speed fields
        // hold: written as the fastest speed a receiver reads instead of trapping in the Int32.
        epoch.speedMillimetresPerSecond = Int32(min(speed * 1000, SimulatorMath.maximumSpeedMillimetresPerSecond).rounded())
        if metres > 0.01 {
            var course = Math.atan2(east, north) * SimulatorMath.degreesPerRadian
            if course < 0 { course += 360 }
            lastCourse = Int32((course * 1000).rounded()) % 360_000
        }
        epoch.courseMillidegrees = lastCourse

        if let low = a.elevationMillimetres, let high = b.elevationMillimetres {
            epoch.altitudeMillimetres = Int32((Double(low) + f * Double(high - low)).rounded())
        }
        addNoise(&epoch, latitude: latitude, longitude: longitude, metresPerNanodegree: metresPerNanodegree,
                 cosLatitude: cosLatitude)
    }

    mutating func addNoise(
        _ epoch: inout SimulatedEpoch, latitude: Double, longitude: Double, metresPerNanodegree: Double,
        cosLatitude: Double
    ) {
        let sigma = configuration.noiseMetres
        // Gauss-Markov: e' = a·e + √(1 − a²)·σ·w keeps the spread at σ; a from a 5 s time constant.
        let a = max(0, 1 - Double(epochIntervalMilliseconds) / 5000)
        let scale = (1 - a * a).squareRoot() * sigma
        noiseNorth = a * noiseNorth + scale * random.gaussian()
        noiseEast = a * noiseEast + scale * random.gaussian()
        noiseUp = a * noiseUp + 1.5 * scale * random.gaussian()
        let reportedLatitude = latitude + noiseNorth / metresPerNanodegree
        // Noise carries a point near the antimeridian past ±180° (or, near a pole, round the
        // globe): wrap it back, as a receiver reports it.
        var reportedLongitude = (longitude + noiseEast / (metresPerNanodegree * max(cosLatitude, 1e-6)))
            .truncatingRemainder(dividingBy: 360e9)
        if reportedLongitude > 180e9 { reportedLongitude -= 360e9 } else if reportedLongitude < -180e9 { reportedLongitude += 360e9 }
        epoch.reportedPosition = Coordinate(
            latitudeNanodegrees: Int64(min(max(reportedLatitude, -90e9), 90e9).rounded()),
            longitudeNanodegrees: Int64(reportedLongitude.rounded()))
        if let altitude = epoch.altitudeMillimetres {
            epoch.altitudeMillimetres = altitude &+ Int32((noiseUp * 1000).rounded())
        }
    }

    func pointTime(_ index: Int) -> Int64 {
        points[index].time?.millisecondsSinceEpoch ?? startTime.millisecondsSinceEpoch
    }
}
