/// The course of a fix, coded against the last course (docs/log-format.md, "Records").
///
/// Version 4: a decision on `courseFraction`, 0 for a whole degree 0…359 (what the daemon logs),
/// then the step in degrees from the last course rounded to a degree, wrapped to −180…179: from
/// 359° to 2° is +3. Any other value (a fraction of a degree, or outside 0…35,999) is 1 and then
/// the plain centidegree residual of version 3. Both on the course's residual models.
extension LogPredictor {
    /// The last course rounded to a whole degree 0…359 (the version-4 prediction).
    var predictedCourseDegrees: Int64 {
        let rounded = course >= 0 ? (course &+ 50) / 100 : (course &- 50) / 100
        let degrees = rounded % 360
        return degrees < 0 ? degrees + 360 : degrees
    }

    mutating func encodeCourse(_ value: Int64, _ out: inout LogArithmeticEncoder, _ bytes: inout MutableSpan<UInt8>) {
        let whole = value >= 0 && value < 36_000 && value % 100 == 0
        out.encode(whole ? 0 : 1, &courseFraction, &bytes)
        guard whole else {
            courseCode.encode(value &- course, &out, &bytes)
            return
        }
        var step = value / 100 - predictedCourseDegrees
        if step >= 180 { step -= 360 } else if step < -180 { step += 360 }
        courseCode.encode(step, &out, &bytes)
    }

    /// The course (centidegrees) the next decisions give, in a context of `version`.
    mutating func decodeCourse(_ input: inout LogArithmeticDecoder, _ bytes: Span<UInt8>, offset: Int) throws(LogError) -> Int64 {
        guard version >= 4, input.decode(&courseFraction, bytes) == 0 else {
            return course &+ (try courseCode.decode(&input, bytes, offset: offset))
        }
        let step = try courseCode.decode(&input, bytes, offset: offset) % 360
        let degrees = (predictedCourseDegrees + step + 360) % 360
        return degrees * 100
    }
}
