extension LogPredictor {
    /// The context a keyframe at `time` and position starts: the optionals' last values carry
    /// over from `self` (the context before), so a new context does not pay for the first
    /// altitude again; every probability starts again at even odds.
    func keyframe(time: Int64, latitude: Int64, longitude: Int64) -> LogPredictor {
        var next = LogPredictor(time: time, latitude: latitude, longitude: longitude)
        next.altitude = altitude
        next.speed = speed
        next.course = course
        next.accuracy = accuracy
        next.gridChooser = gridChooser
        return next
    }

    /// Writes a keyframe's values: svarints of time, latitude, longitude, altitude, speed, course
    /// and accuracy.
    func writeKeyframe(_ out: inout LogByteWriter, _ bytes: inout MutableSpan<UInt8>) {
        out.signed(predictedTime, &bytes)
        out.signed(latitude, &bytes)
        out.signed(longitude, &bytes)
        out.signed(altitude, &bytes)
        out.signed(speed, &bytes)
        out.signed(course, &bytes)
        out.signed(accuracy, &bytes)
    }

    /// Reads what `writeKeyframe` wrote, for a keyframe of format `version`.
    static func readKeyframe(_ input: inout LogByteReader, _ bytes: Span<UInt8>, version: UInt8) throws(LogError) -> LogPredictor {
        let time = try input.signed(bytes)
        var state = LogPredictor(time: time, latitude: try input.signed(bytes), longitude: try input.signed(bytes))
        state.version = version
        state.altitude = try input.signed(bytes)
        state.speed = try input.signed(bytes)
        state.course = try input.signed(bytes)
        state.accuracy = try input.signed(bytes)
        return state
    }
}
