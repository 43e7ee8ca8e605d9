extension LogPredictor {
    /// Reads one record (the inverse of `encode`), advancing the prediction for a fix. Never
    /// traps: every bad pattern is an error naming the byte offset the decoder had reached.
    mutating func decode(_ input: inout LogArithmeticDecoder, _ bytes: Span<UInt8>) throws(LogError) -> LogRecord {
        let start = input.byteOffset
        guard input.decode(&other, bytes) == 1 else {
            if input.decode(&newFlags, bytes) == 1 { flags = UInt8(input.decodeDirect(count: LogFlags.bitCount, bytes)) }
            return .fix(try decodeFix(flags, &input, bytes))
        }
        let kind = input.decodeDirect(count: LogKind.bitCount, bytes)
        guard kind <= LogKind.gap || (kind == LogKind.receiverAsleep && version >= LogChunkFormat.sleepVersion) else {
            throw .unknownRecordKind(UInt8(kind), offset: start)
        }
        let time = UTCTime(millisecondsSinceEpoch: self.time &+ (try input.wideSigned(bytes, offset: start)))
        switch kind {
        case LogKind.waypoint:
            let position = try decodePosition(&input, bytes)
            let lengthOffset = input.byteOffset
            let length = Int(input.decodeDirect(count: 7, bytes))
            guard length <= LogLabel.capacity else { throw .valueOutOfRange(offset: lengthOffset) }
            var label = LogLabel()
            for _ in 0..<length { _ = label.append(UInt8(input.decodeDirect(count: 8, bytes))) }
            return .waypoint(time: time, position: position, label: label)
        case LogKind.fenceEvent:
            let fenceID = try input.wide(bytes, offset: start)
            guard let id = UInt32(exactly: fenceID) else { throw .valueOutOfRange(offset: input.byteOffset) }
            let kindOffset = input.byteOffset
            guard let kind = FenceEventKind(rawValue: UInt8(input.decodeDirect(count: 2, bytes))) else {
                throw .valueOutOfRange(offset: kindOffset)
            }
            return .fenceEvent(time: time, fenceID: id, kind: kind, position: try decodePosition(&input, bytes))
        case LogKind.permissionChange:
            let oldOffset = input.byteOffset
            guard let old = LogPermissionState(rawValue: UInt8(input.decodeDirect(count: 3, bytes))),
                  let new = LogPermissionState(rawValue: UInt8(input.decodeDirect(count: 3, bytes))) else {
                throw .valueOutOfRange(offset: oldOffset)
            }
            return .permissionChange(time: time, old: old, new: new)
        case LogKind.bootMarker:
            return .bootMarker(time: time, bootID: input.decodeDirect(count: 64, bytes))
        default:
            let span = try input.wideSigned(bytes, offset: start)
            let to = UTCTime(millisecondsSinceEpoch: time.millisecondsSinceEpoch &+ span)
            return kind == LogKind.gap ? .gap(from: time, to: to) : .receiverAsleep(from: time, to: to)
        }
    }

    private func int32(_ value: Int64, _ input: LogArithmeticDecoder) throws(LogError) -> Int32 {
        guard let narrow = Int32(exactly: value) else { throw .valueOutOfRange(offset: input.byteOffset) }
        return narrow
    }

    private func decodePosition(_ input: inout LogArithmeticDecoder, _ bytes: Span<UInt8>) throws(LogError) -> LogPosition {
        let offset = input.byteOffset
        let latitude = try int32(latitude &+ (try input.wideSigned(bytes, offset: offset)), input)
        let longitude = try int32(longitude &+ (try input.wideSigned(bytes, offset: offset)), input)
        return LogPosition(latitudeE7: latitude, longitudeE7: longitude)
    }

    private mutating func decodeFix(
        _ fixFlags: UInt8, _ input: inout LogArithmeticDecoder, _ bytes: Span<UInt8>
    ) throws(LogError) -> LogFix {
        let offset = input.byteOffset
        let time = predictedTime &+ (try timeCode.decode(&input, bytes, offset: offset))
        let grid = fixFlags >> LogFlags.gridShift
        let latitudeIndex = predictedLatitude(grid) &+ (try latitudeCode.decode(&input, bytes, offset: offset))
        let longitudeIndex = predictedLongitude(grid) &+ (try longitudeCode.decode(&input, bytes, offset: offset))
        let latitude = try int32(LogGrid.value(latitudeIndex, grid), input)
        let longitude = try int32(LogGrid.value(longitudeIndex, grid), input)
        // FixMode has exactly four cases, one per value of the two mode bits.
        var fix = LogFix(time: UTCTime(millisecondsSinceEpoch: time),
                         position: LogPosition(latitudeE7: latitude, longitudeE7: longitude),
                         mode: FixMode(rawValue: fixFlags & LogFlags.modeMask) ?? .unknown)
        if fixFlags & LogFlags.altitude != 0 {
            altitude = altitude &+ (try altitudeCode.decode(&input, bytes, offset: offset))
            fix.altitudeDecimetres = try int32(altitude, input)
        }
        if fixFlags & LogFlags.speed != 0 {
            speed = speed &+ (try speedCode.decode(&input, bytes, offset: offset))
            fix.speedCentimetresPerSecond = try int32(speed, input)
        }
        if fixFlags & LogFlags.course != 0 {
            course = try decodeCourse(&input, bytes, offset: offset)
            fix.courseCentidegrees = try int32(course, input)
        }
        if fixFlags & LogFlags.accuracy != 0 {
            accuracy = accuracy &+ (try accuracyCode.decode(&input, bytes, offset: offset))
            fix.accuracyDecimetres = try int32(accuracy, input)
        }
        advance(time: time, latitude: Int64(latitude), longitude: Int64(longitude))
        return fix
    }
}
