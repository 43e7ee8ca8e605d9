import Foundation
import Testing
import TrackCore

// The members and types follow the OwnTracks booklet (docs/tech/json.md): lat/lon floats in
// degrees, tst/wtst/created_at integer epoch seconds, acc/alt integer metres, vel integer km/h,
// cog integer degrees, t one letter. What the OwnTracks Recorder requires of a location or
// transition (recorder.c, handle_message: `_type` a string, `tst`, `lat` and `lon` numbers) is
// checked by parsing every message written here with Foundation's JSON reader and the
// project's own.

private func written(_ write: (inout TextBuffer) -> Void) -> String {
    var buffer = TextBuffer()
    write(&buffer)
    return buffer.string
}

/// The message parsed as JSON, with the Recorder's requirements checked.
private func recorderObject(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    _ = try JSONDocument.parse(Array(text.utf8))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], sourceLocation: sourceLocation)
    #expect(object["_type"] is String, sourceLocation: sourceLocation)
    #expect(object["tst"] is NSNumber, sourceLocation: sourceLocation)
    #expect(object["lat"] is NSNumber && object["lon"] is NSNumber, sourceLocation: sourceLocation)
    #expect((object["acc"] as? Int).map { $0 > 0 } == true, "acc > 0 always", sourceLocation: sourceLocation)
    return object
}

/// 2025-06-21T12:01:29Z.
private let time = UTCTime(millisecondsSinceEpoch: 1_750_507_289_000)
private let munich = LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000)

@Suite struct OwnTracksJSONTests {
    @Test func recordedFix() throws {
        let location = OwnTracksLocation(time: time, position: munich, accuracyDecimetres: 32, altitudeDecimetres: 5_454,
                                         speedCentimetresPerSecond: 514, courseCentidegrees: 8_400, trigger: .timer)
        let text = written { OwnTracksJSON.writeLocation(location, trackerID: "tb", createdAt: 1_750_507_289, to: &$0) }
        #expect(text == #"{"_type":"location","tid":"tb","tst":1750507289,"lat":48.1173000,"lon":11.5167000,"acc":3,"alt":545,"vel":19,"cog":84,"t":"t"}"#)
        let object = try recorderObject(text)
        #expect(object["created_at"] == nil, "created_at equal to tst is left out")
    }

    /// Absent values are left out; a measured zero is written (trackd has absent as absent).
    @Test func absentAndZero() throws {
        let zero = OwnTracksLocation(time: time, position: LogPosition(latitudeE7: -1, longitudeE7: 0), accuracyDecimetres: 1,
                                     altitudeDecimetres: 0, speedCentimetresPerSecond: 0, courseCentidegrees: 0, trigger: .timer)
        #expect(written { OwnTracksJSON.writeLocation(zero, trackerID: "tb", createdAt: nil, to: &$0) }
                == #"{"_type":"location","tid":"tb","tst":1750507289,"lat":-0.0000001,"lon":0.0000000,"acc":1,"alt":0,"vel":0,"cog":0,"t":"t"}"#)
        let bare = OwnTracksLocation(time: UTCTime(millisecondsSinceEpoch: 999), position: munich, accuracyDecimetres: 0, trigger: .timer)
        let text = written { OwnTracksJSON.writeLocation(bare, trackerID: "x", createdAt: nil, to: &$0) }
        #expect(text == #"{"_type":"location","tid":"x","tst":0,"lat":48.1173000,"lon":11.5167000,"acc":1,"t":"t"}"#)
        _ = try recorderObject(text)
    }

    /// A backlogged fix says when its message was made.
    @Test func backlogSaysCreatedAt() throws {
        let location = OwnTracksLocation(time: time, position: munich, accuracyDecimetres: 50, trigger: .timer)
        let text = written { OwnTracksJSON.writeLocation(location, trackerID: "tb", createdAt: 1_750_593_689, to: &$0) }
        #expect(text.hasSuffix(#","t":"t","created_at":1750593689}"#))
        #expect(try recorderObject(text)["created_at"] as? Int == 1_750_593_689)
    }

    /// A waypoint is a manual location with its label as `poi`, escaped by the project's
    /// one JSON escaper.
    @Test func waypoint() throws {
        let label = try #require(LogLabel("camp \"2\"\n\u{1}ü"))
        let location = OwnTracksLocation(time: time, position: munich, accuracyDecimetres: 40, trigger: .manual, pointOfInterest: label)
        let text = written { OwnTracksJSON.writeLocation(location, trackerID: "tb", createdAt: nil, to: &$0) }
        #expect(text.hasSuffix(#""t":"u","poi":"camp \"2\"\n\u0001ü"}"#))
        #expect(try recorderObject(text)["poi"] as? String == "camp \"2\"\n\u{1}ü")
        let unlabelled = OwnTracksLocation(time: time, position: munich, accuracyDecimetres: 40, trigger: .manual, pointOfInterest: LogLabel())
        #expect(!written { OwnTracksJSON.writeLocation(unlabelled, trackerID: "tb", createdAt: nil, to: &$0) }.contains("poi"))
    }

    @Test func transition() throws {
        let transition = OwnTracksTransition(time: time, position: munich, accuracyDecimetres: 32, event: .enter, fenceID: 3)
        let name = Array("Home \"base\"".utf8)
        let id = Array("fence-3".utf8)
        let text = written {
            OwnTracksJSON.writeTransition(transition, trackerID: "tb", description: name.span, regionID: id.span,
                                          waypointTime: 1_750_000_000, to: &$0)
        }
        #expect(text == #"{"_type":"transition","tid":"tb","tst":1750507289,"wtst":1750000000,"lat":48.1173000,"lon":11.5167000,"acc":3,"event":"enter","desc":"Home \"base\"","t":"c","rid":"fence-3"}"#)
        let object = try recorderObject(text)
        // The Recorder drops a transition whose event or desc is not a string.
        #expect(object["event"] as? String == "enter" && object["desc"] as? String == "Home \"base\"")
        var leave = transition
        leave.event = .leave
        #expect(written { OwnTracksJSON.writeTransition(leave, trackerID: "tb", description: name.span, regionID: id.span, waypointTime: 0, to: &$0) }
            .contains(#""event":"leave""#))
    }

    /// The unit changes, rounded half away from zero.
    @Test(arguments: [
        (Int32(514), Int64(19), Int64(9_991)), (0, 0, 0), (1, 0, 19), (14, 1, 272), (-514, -19, -9_991), (100_000, 3_600, 1_943_844),
    ])
    func speeds(_ centimetresPerSecond: Int32, _ kilometresPerHour: Int64, _ milliknots: Int64) {
        #expect(UplinkUnits.kilometresPerHour(centimetresPerSecond: centimetresPerSecond) == kilometresPerHour)
        #expect(UplinkUnits.milliknots(centimetresPerSecond: centimetresPerSecond) == milliknots)
    }

    @Test(arguments: [(Int32(8_440), Int64(84)), (8_450, 85), (0, 0), (35_949, 359), (35_950, 0), (35_999, 0)])
    func courses(_ centidegrees: Int32, _ degrees: Int64) {
        #expect(UplinkUnits.degrees(centidegrees: centidegrees) == degrees)
    }

    @Test func secondsAndMetres() {
        #expect(UplinkUnits.seconds(UTCTime(millisecondsSinceEpoch: 1_999)) == 1)
        #expect(UplinkUnits.seconds(UTCTime(millisecondsSinceEpoch: -1)) == -1)
        #expect(UplinkUnits.metres(decimetres: -15) == -2)
        #expect(UplinkUnits.accuracyMetres(decimetres: 4) == 1 && UplinkUnits.accuracyMetres(decimetres: 15) == 2)
    }
}
