extension LogPredictor {
    /// Reads one record starting at `input.bit` (the inverse of `encode`), advancing the
    /// prediction for a fix. Never traps: every bad bit pattern is an error naming its offset.
    mutating func decode(_ input: inout LogBitReader, _ bytes: Span<UInt8>) throws(LogError) -> LogRecord {
        let start = input.byteOffset
        guard try input.flag(bytes) else { return .fix(try decodeFix(flags, timeCoded: false, &input, bytes)) }
        guard try input.flag(bytes) else { return .fix(try decodeFix(flags, timeCoded: true, &input, bytes)) }
        guard try input.flag(bytes) else {
            let newFlags = UInt8(try input.read(count: LogFlags.bitCount, bytes))
            flags = newFlags
            return .fix(try decodeFix(newFlags, timeCoded: true, &input, bytes))
        }
        let kind = try input.read(count: LogKind.bitCount, bytes)
        guard kind <= LogKind.gap else { throw .unknownRecordKind(UInt8(kind), offset: start) }
        let time = UTCTime(millisecondsSinceEpoch: self.time &+ (try input.wideSigned(bytes)))
        switch kind {
        case LogKind.waypoint:
            let position = try decodePosition(&input, bytes)
            let lengthOffset = input.byteOffset
            let length = Int(try input.read(count: 7, bytes))
            guard length <= LogLabel.capacity else { throw .valueOutOfRange(offset: lengthOffset) }
            var label = LogLabel()
            for _ in 0..<length { _ = label.append(UInt8(try input.read(count: 8, bytes))) }
            return .waypoint(time: time, position: position, label: label)
        case LogKind.fenceEvent:
            let fenceID = try input.wide(bytes)
            guard let id = UInt32(exactly: fenceID) else { throw .valueOutOfRange(offset: input.byteOffset) }
            let kindOffset = input.byteOffset
            guard let kind = FenceEventKind(rawValue: UInt8(try input.read(count: 2, bytes))) else {
                throw .valueOutOfRange(offset: kindOffset)
            }
            return .fenceEvent(time: time, fenceID: id, kind: kind, position: try decodePosition(&input, bytes))
        case LogKind.permissionChange:
            let oldOffset = input.byteOffset
            guard let old = LogPermissionState(rawValue: UInt8(try input.read(count: 3, bytes))),
                  let new = LogPermissionState(rawValue: UInt8(try input.read(count: 3, bytes))) else {
                throw .valueOutOfRange(offset: oldOffset)
            }
            return .permissionChange(time: time, old: old, new: new)
        case LogKind.bootMarker:
            return .bootMarker(time: time, bootID: try input.read(count: 64, bytes))
        default:
            let span = try input.wideSigned(bytes)
            return .gap(from: time, to: UTCTime(millisecondsSinceEpoch: time.millisecondsSinceEpoch &+ span))
        }
    }

    private func int32(_ value: Int64, _ input: LogBitReader) throws(LogError) -> Int32 {
        guard let narrow = Int32(exactly: value) else { throw .valueOutOfRange(offset: input.byteOffset) }
        return narrow
    }

    private func decodePosition(_ input: inout LogBitReader, _ bytes: Span<UInt8>) throws(LogError) -> LogPosition {
        let latitude = try int32(latitude &+ (try input.wideSigned(bytes)), input)
        let longitude = try int32(longitude &+ (try input.wideSigned(bytes)), input)
        return LogPosition(latitudeE7: latitude, longitudeE7: longitude)
    }

    private mutating func decodeFix(
        _ fixFlags: UInt8, timeCoded: Bool, _ input: inout LogBitReader, _ bytes: Span<UInt8>
    ) throws(LogError) -> LogFix {
        let time = timeCoded ? predictedTime &+ (try timeCode.decode(&input, bytes)) : predictedTime
        let latitude = try int32(predictedLatitude &+ (try latitudeCode.decode(&input, bytes)), input)
        let longitude = try int32(predictedLongitude &+ (try longitudeCode.decode(&input, bytes)), input)
        // FixMode has exactly four cases, one per value of the two mode bits.
        var fix = LogFix(time: UTCTime(millisecondsSinceEpoch: time),
                         position: LogPosition(latitudeE7: latitude, longitudeE7: longitude),
                         mode: FixMode(rawValue: fixFlags & LogFlags.modeMask) ?? .unknown)
        if fixFlags & LogFlags.altitude != 0 {
            altitude = altitude &+ (try altitudeCode.decode(&input, bytes))
            fix.altitudeDecimetres = try int32(altitude, input)
        }
        if fixFlags & LogFlags.speed != 0 {
            speed = speed &+ (try speedCode.decode(&input, bytes))
            fix.speedCentimetresPerSecond = try int32(speed, input)
        }
        if fixFlags & LogFlags.course != 0 {
            course = course &+ (try courseCode.decode(&input, bytes))
            fix.courseCentidegrees = try int32(course, input)
        }
        if fixFlags & LogFlags.accuracy != 0 {
            accuracy = accuracy &+ (try accuracyCode.decode(&input, bytes))
            fix.accuracyDecimetres = try int32(accuracy, input)
        }
        advance(time: time, latitude: Int64(latitude), longitude: Int64(longitude))
        return fix
    }
}
