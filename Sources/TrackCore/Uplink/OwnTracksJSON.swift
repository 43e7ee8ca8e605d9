/// OwnTracks' JSON payloads (the booklet's `docs/tech/json.md`, as the OwnTracks Recorder and
/// Home Assistant read them), written into a `TextBuffer` with no heap allocation, e.g.
///
///     {"_type":"location","tid":"tb","tst":1750507289,"lat":48.1173000,"lon":11.5167000,
///      "acc":3,"alt":545,"vel":19,"cog":84,"t":"t"}
///
/// Members: lat and lon in degrees with the log's 7 decimals; tst, wtst and created_at in whole
/// epoch seconds; acc, alt in whole metres, vel in whole km/h, cog in whole degrees (integers, as
/// the booklet types them). The Recorder needs `_type`, `tst` and numbers for `lat` and `lon`
/// (recorder.c `handle_message`); it takes a transition's `event` and `desc` as strings.
public enum OwnTracksJSON {
    /// A location message. `trackerID` is `tid` (the booklet: two characters, by default the
    /// topic's last two); `createdAt` (epoch seconds, the system clock when the message is
    /// built) is written only when it differs from `tst`: a backlogged fix says when it was
    /// sent, a live one does not repeat its time.
    public static func writeLocation(_ location: OwnTracksLocation, trackerID: String, createdAt: Int64?,
                                     to buffer: inout TextBuffer) {
        let tst = UplinkUnits.seconds(location.time)
        buffer.append("{\"_type\":\"location\"")
        buffer.appendJSONMember("tid", trackerID)
        integer(",\"tst\":", tst, &buffer)
        writePosition(location.position, accuracyDecimetres: location.accuracyDecimetres, to: &buffer)
        if let altitude = location.altitudeDecimetres { integer(",\"alt\":", UplinkUnits.metres(decimetres: altitude), &buffer) }
        if let speed = location.speedCentimetresPerSecond {
            integer(",\"vel\":", UplinkUnits.kilometresPerHour(centimetresPerSecond: speed), &buffer)
        }
        if let course = location.courseCentidegrees { integer(",\"cog\":", UplinkUnits.degrees(centidegrees: course), &buffer) }
        buffer.append(",\"t\":\"")
        buffer.append(location.trigger.rawValue)
        buffer.append(UInt8(ascii: "\""))
        if let label = location.pointOfInterest, label.count > 0 {
            buffer.append(",\"poi\":\"")
            for index in 0..<label.count { buffer.appendJSONEscaped(label[index]) }
            buffer.append(UInt8(ascii: "\""))
        }
        if let createdAt, createdAt != tst { integer(",\"created_at\":", createdAt, &buffer) }
        buffer.append(UInt8(ascii: "}"))
    }

    /// A transition message, for the topic's `/event` subtopic (never retained). `description`
    /// is `desc` (the fence's name), `regionID` is `rid` (its id), both UTF-8 written as JSON
    /// strings; `waypointTime` is `wtst`, which OwnTracks sets to the region's creation time:
    /// trackd has none per fence and passes when the fences were loaded.
    public static func writeTransition(_ transition: OwnTracksTransition, trackerID: String, description: Span<UInt8>,
                                       regionID: Span<UInt8>, waypointTime: Int64, to buffer: inout TextBuffer) {
        buffer.append("{\"_type\":\"transition\"")
        buffer.appendJSONMember("tid", trackerID)
        integer(",\"tst\":", UplinkUnits.seconds(transition.time), &buffer)
        integer(",\"wtst\":", waypointTime, &buffer)
        writePosition(transition.position, accuracyDecimetres: transition.accuracyDecimetres, to: &buffer)
        buffer.append(transition.event == .enter ? ",\"event\":\"enter\"" : ",\"event\":\"leave\"")
        string(",\"desc\":\"", description, &buffer)
        buffer.append(",\"t\":\"c\"")
        string(",\"rid\":\"", regionID, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    private static func writePosition(_ position: LogPosition, accuracyDecimetres: Int32, to buffer: inout TextBuffer) {
        buffer.append(",\"lat\":")
        buffer.appendFixed(Int64(position.latitudeE7), decimals: 7)
        buffer.append(",\"lon\":")
        buffer.appendFixed(Int64(position.longitudeE7), decimals: 7)
        integer(",\"acc\":", UplinkUnits.accuracyMetres(decimetres: accuracyDecimetres), &buffer)
    }

    @inline(never)
    private static func integer(_ name: StaticString, _ value: Int64, _ buffer: inout TextBuffer) {
        buffer.append(name)
        buffer.append(integer: value)
    }

    /// `name` (which opens the string), the bytes escaped by the project's JSON escaper, `"`.
    private static func string(_ name: StaticString, _ bytes: Span<UInt8>, _ buffer: inout TextBuffer) {
        buffer.append(name)
        for index in bytes.indices { buffer.appendJSONEscaped(bytes[index]) }
        buffer.append(UInt8(ascii: "\""))
    }
}
