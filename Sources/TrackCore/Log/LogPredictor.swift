/// What encoder and decoder both know at a point in a prediction context (from a keyframe to
/// the next): the previous fix's values, the step that led to them, the flags of the last fix,
/// and the adaptive probabilities of every decision the arithmetic code makes.
///
/// Fixes are coded as the difference from the prediction: time, latitude and longitude as
/// delta-of-delta (the previous step repeated, so constant motion and a steady interval cost a
/// small fraction of a bit), the optional fields as a delta from their last value (carried
/// across keyframes). Only fixes update the values; other records are coded as plain deltas
/// from the last time and position.
struct LogPredictor: Sendable {
    /// The interval a context's prediction starts from, in ms.
    static let assumedInterval: Int64 = 1_000
    var time: Int64
    var timeStep: Int64
    var latitude: Int64
    var latitudeStep: Int64 = 0
    var longitude: Int64
    var longitudeStep: Int64 = 0
    var altitude: Int64 = 0
    var speed: Int64 = 0
    var course: Int64 = 0
    var accuracy: Int64 = 0
    /// Mode, presence and grid bits of the last fix (`LogFlags`), 0 at the keyframe.
    var flags: UInt8 = 0
    /// The format version of the context (its keyframe's): 3 codes a course as a plain
    /// centidegree residual, 4 and later a whole degree in degree steps (`LogPredictor+Course`);
    /// 5 and 6 end their data chunks with the shorter check (`LogDataCheck`); 6 has the sleep
    /// record.
    var version = LogChunkFormat.version
    /// The encoder's grid choice; a decoder follows the flags and never uses it.
    var gridChooser = LogGridChooser()
    /// "Another record follows" after the n-th record of a chunk, n = 1…7 (7 for any later).
    var more = InlineArray<8, LogBitModel>(repeating: LogBitModel())
    /// "The record is not a fix".
    var other = LogBitModel()
    /// "The fix's flags differ from the last fix's".
    var newFlags = LogBitModel()
    /// "The course is not a whole degree within 0…359" (version 4).
    var courseFraction = LogBitModel()
    var timeCode = LogResidualCode()
    var latitudeCode = LogResidualCode()
    var longitudeCode = LogResidualCode()
    var altitudeCode = LogResidualCode()
    var speedCode = LogResidualCode()
    var courseCode = LogResidualCode()
    var accuracyCode = LogResidualCode()

    /// The state at a keyframe: as if a fix had been at the keyframe's position one second
    /// before the keyframe's time, so a first fix at the keyframe time and a 1 Hz second fix
    /// both have a time residual of 0.
    init(time: Int64, latitude: Int64, longitude: Int64) {
        self.time = time &- LogPredictor.assumedInterval
        timeStep = LogPredictor.assumedInterval
        self.latitude = latitude
        self.longitude = longitude
    }

    // Wrapping arithmetic throughout: every difference is taken modulo 2^64 on both sides, so
    // even extreme times (Int64.min next to Int64.max) round-trip exactly.
    var predictedTime: Int64 { time &+ timeStep }

    /// The predicted latitude as an index on `grid`: the last step repeated, in grid steps.
    func predictedLatitude(_ grid: UInt8) -> Int64 {
        let last = LogGrid.index(latitude, grid)
        return last &+ (last &- LogGrid.index(latitude &- latitudeStep, grid))
    }

    func predictedLongitude(_ grid: UInt8) -> Int64 {
        let last = LogGrid.index(longitude, grid)
        return last &+ (last &- LogGrid.index(longitude &- longitudeStep, grid))
    }

    mutating func advance(time newTime: Int64, latitude newLatitude: Int64, longitude newLongitude: Int64) {
        timeStep = newTime &- time
        time = newTime
        latitudeStep = newLatitude &- latitude
        latitude = newLatitude
        longitudeStep = newLongitude &- longitude
        longitude = newLongitude
    }
}

/// The 8 flag bits of a fix: mode in bits 0–1, which optionals are present, the position grid
/// (`LogGrid`) in bits 6–7.
enum LogFlags {
    static let modeMask: UInt8 = 0x03
    static let altitude: UInt8 = 0x04
    static let speed: UInt8 = 0x08
    static let course: UInt8 = 0x10
    static let accuracy: UInt8 = 0x20
    static let gridShift: UInt8 = 6
    static let bitCount = 8
}

/// The kind numbers (3 bits, after the "not a fix" decision) of records other than fixes.
enum LogKind {
    static let waypoint: UInt64 = 0
    static let fenceEvent: UInt64 = 1
    static let permissionChange: UInt64 = 2
    static let bootMarker: UInt64 = 3
    static let gap: UInt64 = 4
    /// Format 6 only: an older context has no kind 5.
    static let receiverAsleep: UInt64 = 5
    static let bitCount = 3
}

extension LogPredictor {
    /// Writes `record` and, for a fix, advances the prediction. The caller keeps a copy of the
    /// predictor to restore when the writer failed.
    mutating func encode(_ record: LogRecord, _ out: inout LogArithmeticEncoder, _ bytes: inout MutableSpan<UInt8>) {
        switch record {
        case .fix(let fix):
            out.encode(0, &other, &bytes)
            encode(fix, &out, &bytes)
        case .waypoint(let time, let position, let label):
            header(LogKind.waypoint, time, &out, &bytes)
            encode(position, &out, &bytes)
            out.encodeDirect(UInt64(label.count), count: 7, &bytes)
            for index in 0..<label.count { out.encodeDirect(UInt64(label[index]), count: 8, &bytes) }
        case .fenceEvent(let time, let fenceID, let kind, let position):
            header(LogKind.fenceEvent, time, &out, &bytes)
            out.wide(UInt64(fenceID), &bytes)
            out.encodeDirect(UInt64(kind.rawValue), count: 2, &bytes)
            encode(position, &out, &bytes)
        case .permissionChange(let time, let old, let new):
            header(LogKind.permissionChange, time, &out, &bytes)
            out.encodeDirect(UInt64(old.rawValue), count: 3, &bytes)
            out.encodeDirect(UInt64(new.rawValue), count: 3, &bytes)
        case .bootMarker(let time, let bootID):
            header(LogKind.bootMarker, time, &out, &bytes)
            out.encodeDirect(bootID, count: 64, &bytes)
        case .gap(let from, let to):
            header(LogKind.gap, from, &out, &bytes)
            out.wideSigned(to.millisecondsSinceEpoch &- from.millisecondsSinceEpoch, &bytes)
        case .receiverAsleep(let from, let to):
            header(LogKind.receiverAsleep, from, &out, &bytes)
            out.wideSigned(to.millisecondsSinceEpoch &- from.millisecondsSinceEpoch, &bytes)
        }
    }

    /// "Not a fix", the kind and the record's time as a delta from the last fix time.
    private mutating func header(_ kind: UInt64, _ time: UTCTime, _ out: inout LogArithmeticEncoder, _ bytes: inout MutableSpan<UInt8>) {
        out.encode(1, &other, &bytes)
        out.encodeDirect(kind, count: LogKind.bitCount, &bytes)
        out.wideSigned(time.millisecondsSinceEpoch &- self.time, &bytes)
    }

    private func encode(_ position: LogPosition, _ out: inout LogArithmeticEncoder, _ bytes: inout MutableSpan<UInt8>) {
        out.wideSigned(Int64(position.latitudeE7) &- latitude, &bytes)
        out.wideSigned(Int64(position.longitudeE7) &- longitude, &bytes)
    }

    private mutating func encode(_ fix: LogFix, _ out: inout LogArithmeticEncoder, _ bytes: inout MutableSpan<UInt8>) {
        let time = fix.time.millisecondsSinceEpoch
        let latitude = Int64(fix.position.latitudeE7)
        let longitude = Int64(fix.position.longitudeE7)
        var fixFlags = fix.mode.rawValue & LogFlags.modeMask
        if fix.altitudeDecimetres != nil { fixFlags |= LogFlags.altitude }
        if fix.speedCentimetresPerSecond != nil { fixFlags |= LogFlags.speed }
        if fix.courseCentidegrees != nil { fixFlags |= LogFlags.course }
        if fix.accuracyDecimetres != nil { fixFlags |= LogFlags.accuracy }
        let grid = gridChooser.grid(latitude: latitude, longitude: longitude, current: flags >> LogFlags.gridShift)
        fixFlags |= grid << LogFlags.gridShift
        out.encode(fixFlags == flags ? 0 : 1, &newFlags, &bytes)
        if fixFlags != flags {
            out.encodeDirect(UInt64(fixFlags), count: LogFlags.bitCount, &bytes)
            flags = fixFlags
        }
        timeCode.encode(time &- predictedTime, &out, &bytes)
        latitudeCode.encode(LogGrid.index(latitude, grid) &- predictedLatitude(grid), &out, &bytes)
        longitudeCode.encode(LogGrid.index(longitude, grid) &- predictedLongitude(grid), &out, &bytes)
        if let value = fix.altitudeDecimetres {
            altitudeCode.encode(Int64(value) &- altitude, &out, &bytes)
            altitude = Int64(value)
        }
        if let value = fix.speedCentimetresPerSecond {
            speedCode.encode(Int64(value) &- speed, &out, &bytes)
            speed = Int64(value)
        }
        if let value = fix.courseCentidegrees {
            encodeCourse(Int64(value), &out, &bytes)
            course = Int64(value)
        }
        if let value = fix.accuracyDecimetres {
            accuracyCode.encode(Int64(value) &- accuracy, &out, &bytes)
            accuracy = Int64(value)
        }
        advance(time: time, latitude: latitude, longitude: longitude)
    }
}
