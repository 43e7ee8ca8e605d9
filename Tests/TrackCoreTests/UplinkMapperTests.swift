import Testing
import TrackCore

private let time = UTCTime(millisecondsSinceEpoch: 1_750_507_289_000)
private let munich = LogPosition(latitudeE7: 481_173_123, longitudeE7: 115_167_456)
private let fix = LogFix(time: time, position: munich, altitudeDecimetres: 5_454, speedCentimetresPerSecond: 514,
                         courseCentidegrees: 8_400, accuracyDecimetres: 32, mode: .threeD)

/// The fix as trackd logs it in approximate mode: snapped, nothing else (Daemon+Fix.swift).
private let approximateFix = LogFix(time: time, position: UplinkMapper.snap(munich), mode: .threeD)

@Suite struct UplinkMapperTests {
    @Test func fixIsATimedLocation() {
        var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
        let expected = OwnTracksLocation(time: time, position: munich, accuracyDecimetres: 32, altitudeDecimetres: 5_454,
                                         speedCentimetresPerSecond: 514, courseCentidegrees: 8_400, trigger: .timer)
        #expect(mapper.ownTracks(.fix(fix), disclosure: .precise) == .send(OwnTracksMessages(location: expected)))
        #expect(mapper.osmAnd(.fix(fix), disclosure: .precise) == .send(OsmAndPosition(
            time: time, position: munich, speedCentimetresPerSecond: 514, courseCentidegrees: 8_400,
            altitudeDecimetres: 5_454, accuracyDecimetres: 32)))
    }

    /// Nothing leaves while tracking is not allowed, whatever the record: the record waits.
    @Test func withheldHoldsEverything() {
        var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
        let records: [LogRecord] = [
            .fix(fix), .waypoint(time: time, position: munich, label: LogLabel()),
            .fenceEvent(time: time, fenceID: 1, kind: .enter, position: munich),
            .bootMarker(time: time, bootID: 1), .gap(from: time, to: time),
        ]
        for record in records {
            #expect(mapper.ownTracks(record, disclosure: .withheld) == .hold)
            #expect(mapper.osmAnd(record, disclosure: .withheld) == .hold)
        }
    }

    /// Approximate now: the grid cell only, 1 km, nothing that narrows it; no transitions.
    @Test func approximateNowSnapsAndDropsTransitions() {
        var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
        let cell = UplinkMapper.snap(munich)
        #expect(cell != munich)
        #expect(mapper.ownTracks(.fix(fix), disclosure: .approximate) == .send(OwnTracksMessages(location: OwnTracksLocation(
            time: time, position: cell, accuracyDecimetres: 10_000, trigger: .timer))))
        #expect(mapper.osmAnd(.fix(fix), disclosure: .approximate) == .send(OsmAndPosition(
            time: time, position: cell, accuracyDecimetres: 10_000)))
        #expect(mapper.ownTracks(.fenceEvent(time: time, fenceID: 2, kind: .enter, position: munich), disclosure: .approximate) == .skip)
        let label = LogLabel("here")
        #expect(mapper.ownTracks(.waypoint(time: time, position: munich, label: label!), disclosure: .approximate)
                == .send(OwnTracksMessages(location: OwnTracksLocation(time: time, position: cell, accuracyDecimetres: 10_000,
                                                                         trigger: .manual, pointOfInterest: label))))
    }

    /// A fix logged in approximate mode stays the cell it is, precise permission now or not.
    @Test func loggedApproximateStaysApproximate() {
        var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
        let expected = OwnTracksLocation(time: time, position: approximateFix.position, accuracyDecimetres: 10_000, trigger: .timer)
        #expect(mapper.ownTracks(.fix(approximateFix), disclosure: .precise) == .send(OwnTracksMessages(location: expected)))
        #expect(mapper.ownTracks(.fix(approximateFix), disclosure: .approximate) == .send(OwnTracksMessages(location: expected)))
        #expect(UplinkMapper.isGridCentre(approximateFix.position) && !UplinkMapper.isGridCentre(munich))
        // A waypoint marked in approximate mode (snapped when logged): the cell's accuracy.
        guard case .send(let messages) = mapper.ownTracks(.waypoint(time: time, position: approximateFix.position, label: LogLabel()),
                                                          disclosure: .precise) else { Issue.record("not sent"); return }
        #expect(messages.location?.accuracyDecimetres == 10_000)
    }

    /// A fence enter or exit: a location with trigger c, then the transition, with the last
    /// fix's accuracy (or the filter's limit before any); dwell has no OwnTracks event.
    @Test func fenceTransitions() {
        var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
        let enter = LogRecord.fenceEvent(time: time, fenceID: 4, kind: .enter, position: munich)
        #expect(mapper.ownTracks(enter, disclosure: .precise) == .send(OwnTracksMessages(
            location: OwnTracksLocation(time: time, position: munich, accuracyDecimetres: 650, trigger: .region),
            transition: OwnTracksTransition(time: time, position: munich, accuracyDecimetres: 650, event: .enter, fenceID: 4))))
        _ = mapper.ownTracks(.fix(fix), disclosure: .precise)
        let exit = LogRecord.fenceEvent(time: time, fenceID: 4, kind: .exit, position: munich)
        guard case .send(let messages) = mapper.ownTracks(exit, disclosure: .precise) else { Issue.record("not sent"); return }
        #expect(messages.count == 2)
        #expect(messages.transition?.event == .leave && messages.transition?.accuracyDecimetres == 32)
        #expect(mapper.ownTracks(.fenceEvent(time: time, fenceID: 4, kind: .dwell, position: munich), disclosure: .precise) == .skip)
        #expect(mapper.osmAnd(exit, disclosure: .precise) == .skip)
    }

    @Test func recordsWithoutAPlaceAreSkipped() {
        var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
        let records: [LogRecord] = [
            .permissionChange(time: time, old: .always, new: .denied), .bootMarker(time: time, bootID: 7),
            .gap(from: time, to: UTCTime(millisecondsSinceEpoch: time.millisecondsSinceEpoch + 60_000)),
        ]
        for record in records {
            #expect(mapper.ownTracks(record, disclosure: .precise) == .skip)
            #expect(mapper.osmAnd(record, disclosure: .precise) == .skip)
        }
        #expect(mapper.osmAnd(.waypoint(time: time, position: munich, label: LogLabel()), disclosure: .precise) == .skip)
    }

    /// An imported fix without accuracy says the grid's, never 0.
    @Test func fixWithoutAccuracy() {
        var mapper = UplinkMapper(accuracyLimitDecimetres: 650)
        let bare = LogFix(time: time, position: munich, mode: .twoD)
        guard case .send(let messages) = mapper.ownTracks(.fix(bare), disclosure: .precise) else { Issue.record("not sent"); return }
        #expect(messages.location?.accuracyDecimetres == 10_000 && messages.location?.position == munich)
        #expect(mapper.osmAnd(.fix(bare), disclosure: .precise) == .send(OsmAndPosition(time: time, position: munich, accuracyDecimetres: 10_000)))
    }
}

@Suite struct UplinkCursorTests {
    static let texts: [(String, UplinkCursor)] = [
        ("start", .start),
        ("start+3", UplinkCursor(chunk: .start, records: 3)),
        ("3:1234:77:9f3a11c2", UplinkCursor(chunk: LogCursor(segment: 3, offset: 1_234, sequence: 77, crc: 0x9F3A_11C2))),
        ("3:1234:-:9f3a11c2+250", UplinkCursor(chunk: LogCursor(segment: 3, offset: 1_234, sequence: nil, crc: 0x9F3A_11C2), records: 250)),
    ]

    @Test(arguments: texts)
    func roundTrip(_ text: String, _ cursor: UplinkCursor) {
        #expect(cursor.text == text)
        #expect(UplinkCursor(text: text) == cursor)
    }

    @Test(arguments: ["", "+1", "start+", "start+x", "start+-1", "3:1234:77:9f3a11c2+1+2", "3:1234+1", "start+1234567890"])
    func refuses(_ text: String) {
        #expect(UplinkCursor(text: text) == nil)
    }

    @Test func order() {
        let a = LogCursor(segment: 2, offset: 5_000, sequence: 1, crc: 0)
        let b = LogCursor(segment: 3, offset: 100, sequence: 2, crc: 0)
        #expect(b.isAtOrAfter(a) && !a.isAtOrAfter(b) && a.isAtOrAfter(a))
    }
}
