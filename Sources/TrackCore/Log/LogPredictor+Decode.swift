extension LogPredictor {
    /// Reads one record starting at `input.offset` (the inverse of `encode`), advancing the
    /// prediction for a fix. Never traps: every bad byte is an error naming its offset.
    mutating func decode(_ input: inout LogByteReader, _ bytes: Span<UInt8>) throws(LogError) -> LogRecord {
        let start = input.offset
        let tag = try input.byte(bytes)
        if tag < 0x80 { return .fix(try decodeFix(tag, &input, bytes)) }
        guard tag >= LogTag.waypoint, tag <= LogTag.gap else { throw .unknownRecordKind(tag, offset: start) }
        let time = UTCTime(millisecondsSinceEpoch: self.time &+ (try input.signed(bytes)))
        switch tag {
        case LogTag.waypoint:
            let position = try decodePosition(&input, bytes)
            let lengthOffset = input.offset
            let length = Int(try input.byte(bytes))
            guard length <= LogLabel.capacity else { throw .valueOutOfRange(offset: lengthOffset) }
            var label = LogLabel()
            for _ in 0..<length { _ = label.append(try input.byte(bytes)) }
            return .waypoint(time: time, position: position, label: label)
        case LogTag.fenceEvent:
            let fenceID = try input.unsigned(bytes)
            guard let id = UInt32(exactly: fenceID) else { throw .valueOutOfRange(offset: input.offset) }
            let kindOffset = input.offset
            guard let kind = FenceEventKind(rawValue: try input.byte(bytes)) else {
                throw .valueOutOfRange(offset: kindOffset)
            }
            return .fenceEvent(time: time, fenceID: id, kind: kind, position: try decodePosition(&input, bytes))
        case LogTag.permissionChange:
            let oldOffset = input.offset
            guard let old = LogPermissionState(rawValue: try input.byte(bytes)),
                  let new = LogPermissionState(rawValue: try input.byte(bytes)) else {
                throw .valueOutOfRange(offset: oldOffset)
            }
            return .permissionChange(time: time, old: old, new: new)
        case LogTag.bootMarker:
            return .bootMarker(time: time, bootID: try input.littleEndian(byteCount: 8, bytes))
        case LogTag.gap:
            let span = try input.signed(bytes)
            return .gap(from: time, to: UTCTime(millisecondsSinceEpoch: time.millisecondsSinceEpoch &+ span))
        default:
            throw .unknownRecordKind(tag, offset: start)
        }
    }

    private func decodePosition(_ input: inout LogByteReader, _ bytes: Span<UInt8>) throws(LogError) -> LogPosition {
        let latitude = try input.int32(latitude &+ (try input.signed(bytes)))
        let longitude = try input.int32(longitude &+ (try input.signed(bytes)))
        return LogPosition(latitudeE7: latitude, longitudeE7: longitude)
    }

    private mutating func decodeFix(_ tag: UInt8, _ input: inout LogByteReader, _ bytes: Span<UInt8>) throws(LogError) -> LogFix {
        var time = predictedTime
        if tag & LogTag.timeFollows != 0 { time = time &+ (try input.signed(bytes)) }
        let latitude = predictedLatitude &+ (try input.signed(bytes))
        let position = LogPosition(latitudeE7: try input.int32(latitude),
                                   longitudeE7: try input.int32(predictedLongitude &+ (try input.signed(bytes))))
        // FixMode has exactly four cases, one per value of the two mode bits.
        var fix = LogFix(time: UTCTime(millisecondsSinceEpoch: time), position: position,
                         mode: FixMode(rawValue: tag & LogTag.modeMask) ?? .unknown)
        if tag & LogTag.altitude != 0 {
            altitude = altitude &+ (try input.signed(bytes))
            fix.altitudeDecimetres = try input.int32(altitude)
        }
        if tag & LogTag.speed != 0 {
            speed = speed &+ (try input.signed(bytes))
            fix.speedCentimetresPerSecond = try input.int32(speed)
        }
        if tag & LogTag.course != 0 {
            course = course &+ (try input.signed(bytes))
            fix.courseCentidegrees = try input.int32(course)
        }
        if tag & LogTag.accuracy != 0 {
            accuracy = accuracy &+ (try input.signed(bytes))
            fix.accuracyDecimetres = try input.int32(accuracy)
        }
        advance(time: time, latitude: Int64(position.latitudeE7), longitude: Int64(position.longitudeE7))
        return fix
    }
}
