/// What encoder and decoder both know at a point in a block: the previous fix's values and the
/// step that led to them. A block starts from its keyframe with zero steps, so it decodes alone.
///
/// Fixes are coded as the difference from the prediction: time, latitude and longitude as
/// delta-of-delta (the previous step repeated), the optional fields as a delta from their last
/// value in the block (0 before the first). Only fixes update it; other records are coded as
/// plain deltas from the last time and position.
struct LogPredictor: Sendable {
    /// The interval a block's prediction starts from, in ms.
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

    /// The state at a block's start: as if a fix had been at the keyframe's position one
    /// second before the keyframe's time, so a first fix at the keyframe time and a 1 Hz
    /// second fix both cost no time byte.
    init(time: Int64, latitude: Int64, longitude: Int64) {
        self.time = time &- LogPredictor.assumedInterval
        timeStep = LogPredictor.assumedInterval
        self.latitude = latitude
        self.longitude = longitude
    }

    // Wrapping arithmetic throughout: every difference is taken modulo 2^64 on both sides, so
    // even extreme times (Int64.min next to Int64.max) round-trip exactly.
    var predictedTime: Int64 { time &+ timeStep }
    var predictedLatitude: Int64 { latitude &+ latitudeStep }
    var predictedLongitude: Int64 { longitude &+ longitudeStep }

    mutating func advance(time newTime: Int64, latitude newLatitude: Int64, longitude newLongitude: Int64) {
        timeStep = newTime &- time
        time = newTime
        latitudeStep = newLatitude &- latitude
        latitude = newLatitude
        longitudeStep = newLongitude &- longitude
        longitude = newLongitude
    }
}

/// The first byte of a record. Below 0x80 it is a fix and carries its flags; else a kind.
enum LogTag {
    static let modeMask: UInt8 = 0x03
    static let altitude: UInt8 = 0x04
    static let speed: UInt8 = 0x08
    static let course: UInt8 = 0x10
    static let accuracy: UInt8 = 0x20
    /// Set when the time differs from the prediction (a delta-of-delta follows); clear on a
    /// steady interval, which then costs no byte at all.
    static let timeFollows: UInt8 = 0x40
    static let waypoint: UInt8 = 0x81
    static let fenceEvent: UInt8 = 0x82
    static let permissionChange: UInt8 = 0x83
    static let bootMarker: UInt8 = 0x84
    static let gap: UInt8 = 0x85
}

extension LogPredictor {
    /// Writes `record` and, for a fix, advances the prediction. The caller keeps a copy of the
    /// predictor to restore when the writer failed.
    mutating func encode(_ record: LogRecord, _ out: inout LogByteWriter, _ bytes: inout MutableSpan<UInt8>) {
        switch record {
        case .fix(let fix):
            encode(fix, &out, &bytes)
        case .waypoint(let time, let position, let label):
            out.byte(LogTag.waypoint, &bytes)
            out.signed(time.millisecondsSinceEpoch &- self.time, &bytes)
            encode(position, &out, &bytes)
            out.byte(UInt8(label.count), &bytes)
            for index in 0..<label.count { out.byte(label[index], &bytes) }
        case .fenceEvent(let time, let fenceID, let kind, let position):
            out.byte(LogTag.fenceEvent, &bytes)
            out.signed(time.millisecondsSinceEpoch &- self.time, &bytes)
            out.unsigned(UInt64(fenceID), &bytes)
            out.byte(kind.rawValue, &bytes)
            encode(position, &out, &bytes)
        case .permissionChange(let time, let old, let new):
            out.byte(LogTag.permissionChange, &bytes)
            out.signed(time.millisecondsSinceEpoch &- self.time, &bytes)
            out.byte(old.rawValue, &bytes)
            out.byte(new.rawValue, &bytes)
        case .bootMarker(let time, let bootID):
            out.byte(LogTag.bootMarker, &bytes)
            out.signed(time.millisecondsSinceEpoch &- self.time, &bytes)
            out.littleEndian(bootID, byteCount: 8, &bytes)
        case .gap(let from, let to):
            out.byte(LogTag.gap, &bytes)
            out.signed(from.millisecondsSinceEpoch &- self.time, &bytes)
            out.signed(to.millisecondsSinceEpoch &- from.millisecondsSinceEpoch, &bytes)
        }
    }

    private func encode(_ position: LogPosition, _ out: inout LogByteWriter, _ bytes: inout MutableSpan<UInt8>) {
        out.signed(Int64(position.latitudeE7) &- latitude, &bytes)
        out.signed(Int64(position.longitudeE7) &- longitude, &bytes)
    }

    private mutating func encode(_ fix: LogFix, _ out: inout LogByteWriter, _ bytes: inout MutableSpan<UInt8>) {
        let time = fix.time.millisecondsSinceEpoch
        let latitude = Int64(fix.position.latitudeE7)
        let longitude = Int64(fix.position.longitudeE7)
        var tag = fix.mode.rawValue & LogTag.modeMask
        if fix.altitudeDecimetres != nil { tag |= LogTag.altitude }
        if fix.speedCentimetresPerSecond != nil { tag |= LogTag.speed }
        if fix.courseCentidegrees != nil { tag |= LogTag.course }
        if fix.accuracyDecimetres != nil { tag |= LogTag.accuracy }
        if time != predictedTime { tag |= LogTag.timeFollows }
        out.byte(tag, &bytes)
        if time != predictedTime { out.signed(time &- predictedTime, &bytes) }
        out.signed(latitude &- predictedLatitude, &bytes)
        out.signed(longitude &- predictedLongitude, &bytes)
        if let value = fix.altitudeDecimetres { out.signed(Int64(value) &- altitude, &bytes); altitude = Int64(value) }
        if let value = fix.speedCentimetresPerSecond { out.signed(Int64(value) &- speed, &bytes); speed = Int64(value) }
        if let value = fix.courseCentidegrees { out.signed(Int64(value) &- course, &bytes); course = Int64(value) }
        if let value = fix.accuracyDecimetres { out.signed(Int64(value) &- accuracy, &bytes); accuracy = Int64(value) }
        advance(time: time, latitude: latitude, longitude: longitude)
    }
}
