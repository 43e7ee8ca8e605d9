extension LogPredictor {
    /// The Rice parameters a keyframe stores, in this order.
    static let codeCount = 7

    /// The context a keyframe at `time` and position starts: the optionals' last values and the
    /// Rice parameters carry over from `self` (the context before), so a new context neither
    /// pays for the first altitude again nor relearns how noisy each field is.
    func keyframe(time: Int64, latitude: Int64, longitude: Int64) -> LogPredictor {
        var next = LogPredictor(time: time, latitude: latitude, longitude: longitude)
        next.altitude = altitude
        next.speed = speed
        next.course = course
        next.accuracy = accuracy
        next.timeCode = LogRice(initialK: timeCode.k)
        next.latitudeCode = LogRice(initialK: latitudeCode.k)
        next.longitudeCode = LogRice(initialK: longitudeCode.k)
        next.altitudeCode = LogRice(initialK: altitudeCode.k)
        next.speedCode = LogRice(initialK: speedCode.k)
        next.courseCode = LogRice(initialK: courseCode.k)
        next.accuracyCode = LogRice(initialK: accuracyCode.k)
        return next
    }

    /// Writes a keyframe's values: svarints of time, latitude, longitude, altitude, speed, course
    /// and accuracy, then one byte per Rice parameter (time … accuracy).
    func writeKeyframe(_ out: inout LogByteWriter, _ bytes: inout MutableSpan<UInt8>) {
        out.signed(predictedTime, &bytes)
        out.signed(latitude, &bytes)
        out.signed(longitude, &bytes)
        out.signed(altitude, &bytes)
        out.signed(speed, &bytes)
        out.signed(course, &bytes)
        out.signed(accuracy, &bytes)
        out.byte(UInt8(timeCode.k), &bytes)
        out.byte(UInt8(latitudeCode.k), &bytes)
        out.byte(UInt8(longitudeCode.k), &bytes)
        out.byte(UInt8(altitudeCode.k), &bytes)
        out.byte(UInt8(speedCode.k), &bytes)
        out.byte(UInt8(courseCode.k), &bytes)
        out.byte(UInt8(accuracyCode.k), &bytes)
    }

    /// Reads what `writeKeyframe` wrote. A Rice parameter above 60 is `.valueOutOfRange`.
    static func readKeyframe(_ input: inout LogByteReader, _ bytes: Span<UInt8>) throws(LogError) -> LogPredictor {
        let time = try input.signed(bytes)
        var state = LogPredictor(time: time, latitude: try input.signed(bytes), longitude: try input.signed(bytes))
        state.altitude = try input.signed(bytes)
        state.speed = try input.signed(bytes)
        state.course = try input.signed(bytes)
        state.accuracy = try input.signed(bytes)
        var ks: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
        for index in 0..<codeCount {
            let offset = input.offset
            let k = Int(try input.byte(bytes))
            guard k <= 60 else { throw .valueOutOfRange(offset: offset) }
            switch index {
            case 0: ks.0 = k
            case 1: ks.1 = k
            case 2: ks.2 = k
            case 3: ks.3 = k
            case 4: ks.4 = k
            case 5: ks.5 = k
            default: ks.6 = k
            }
        }
        state.timeCode = LogRice(initialK: ks.0)
        state.latitudeCode = LogRice(initialK: ks.1)
        state.longitudeCode = LogRice(initialK: ks.2)
        state.altitudeCode = LogRice(initialK: ks.3)
        state.speedCode = LogRice(initialK: ks.4)
        state.courseCode = LogRice(initialK: ks.5)
        state.accuracyCode = LogRice(initialK: ks.6)
        return state
    }
}
