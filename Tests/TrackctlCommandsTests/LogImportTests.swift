import Foundation
import TestData
import Testing
import TrackCore
@testable import TrackctlCommands
import TrackIO

@Suite struct LogImportTests {
    func file(_ name: String, _ text: String, in folder: TemporaryFolder) -> String {
        let path = folder.file(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func csvImportReadsBackBitIdentical() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = file("t.csv", """
            time_utc,lat,lon,ele_m,speed_mps
            2025-06-21T12:01:29Z,39.40794834,-0.32347952,12.34,1.255
            2025-06-21T12:01:30.5Z,39.40792965,-0.32349603,,
            2025-06-21T12:01:31Z,-0.00000005,179.99999995,-3.05,0

            """, in: folder)
        guard case .success(let records) = LogImport.parse(path) else {
            Issue.record("the CSV did not parse")
            return
        }
        let expected: [LogRecord] = [
            .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: 1_750_507_289_000),
                        position: LogPosition(latitudeE7: 394_079_483, longitudeE7: -3_234_795),
                        altitudeDecimetres: 123, speedCentimetresPerSecond: 126, mode: .threeD)),
            .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: 1_750_507_290_500),
                        position: LogPosition(latitudeE7: 394_079_297, longitudeE7: -3_234_960), mode: .twoD)),
            .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: 1_750_507_291_000),
                        position: LogPosition(latitudeE7: -1, longitudeE7: 1_800_000_000),
                        altitudeDecimetres: -31, speedCentimetresPerSecond: 0, mode: .threeD)),
        ]
        #expect(records == expected)
        let status = try LogImport.write(records, to: folder.file("log"), files: PosixLogFiles())
        #expect(status.durableRecordCount == 3)
        var reader = try LogReader(directory: folder.file("log"))
        #expect(reader.readAll() == expected)
    }

    @Test(arguments: [
        ("lat,lon\n", "t.csv:1: header is not time_utc,lat,lon,ele_m,speed_mps"),
        ("time_utc,lat,lon\n2025-06-21T12:01:29Z,91,0\n", "t.csv:2: latitude is not a number within ±90"),
        ("time_utc,lat,lon\n\n2025-06-21T12:01:29Z,1,x\n", "t.csv:3: longitude is not a number within ±180"),
        ("time_utc,lat,lon\n2025-06-21 12:01:29,1,2\n", "t.csv:2: time is not YYYY-MM-DDTHH:MM:SS[.fff]Z or ±hh:mm"),
        ("time_utc,lat,lon\n2025-06-21T12:01:29Z,1\n", "t.csv:2: fewer than 3 fields"),
        ("time_utc,lat,lon,ele_m\n2025-06-21T12:01:29Z,1,2,high\n", "t.csv:2: ele_m is not a number"),
    ])
    func badCSVNamesFileAndLine(text: String, message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = file("t.csv", text, in: folder)
        guard case .failure(let error) = LogImport.parse(path) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.text == folder.path + "/" + message)
    }

    @Test func gpxImportAndAPointWithoutTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = file("g.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="48.1173" lon="11.5167"><ele>545.45</ele><time>2024-05-01T10:00:00Z</time></trkpt>
            <trkpt lat="48.1174" lon="11.5168"><time>2024-05-01T10:00:01Z</time></trkpt>
            </trkseg></trk></gpx>
            """, in: folder)
        guard case .success(let records) = LogImport.parse(good) else {
            Issue.record("the GPX did not parse")
            return
        }
        #expect(records == [
            .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: 1_714_557_600_000),
                        position: LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000),
                        altitudeDecimetres: 5_455, mode: .threeD)),
            .fix(LogFix(time: UTCTime(millisecondsSinceEpoch: 1_714_557_601_000),
                        position: LogPosition(latitudeE7: 481_174_000, longitudeE7: 115_168_000), mode: .twoD)),
        ])
        let untimed = file("u.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="48.1173" lon="11.5167"></trkpt>
            </trkseg></trk></gpx>
            """, in: folder)
        guard case .failure(let error) = LogImport.parse(untimed) else {
            Issue.record("a point without time was accepted")
            return
        }
        #expect(error.text == untimed + ":3: track point without <time>")
    }

    @Test(arguments: [
        (Int32?(545_449), Int32?(5_454)), (545_450, 5_455), (-545_450, -5_455), (nil, nil),
    ])
    func fixToLogPrecisionRoundsHalfAwayFromZero(altitude: Int32?, decimetres: Int32?) {
        var fix = Fix()
        fix.position = Coordinate(latitudeNanodegrees: 48_117_300_049, longitudeNanodegrees: -1)
        fix.altitudeMSLMillimetres = altitude
        fix.speedMillimetresPerSecond = 5_145
        fix.courseMillidegrees = 359_996
        fix.mode = .threeD
        let time = UTCTime(millisecondsSinceEpoch: 1_000)
        let logged = LogFix(fix, accuracyMillimetres: 3_250, time: time)
        #expect(logged == LogFix(time: time, position: LogPosition(latitudeE7: 481_173_000, longitudeE7: 0),
                                 altitudeDecimetres: decimetres, speedCentimetresPerSecond: 515,
                                 courseCentidegrees: 0, accuracyDecimetres: 33, mode: .threeD))
        fix.position = nil
        #expect(LogFix(fix, accuracyMillimetres: nil, time: time) == nil)
    }

    /// The daemon logs the course to the whole degree (kept in centidegrees), rounding half away
    /// from zero, 360° as 0°.
    @Test(arguments: [
        (Int32?(84_449), Int32?(8_400)), (84_500, 8_500), (359_499, 35_900), (359_500, 0), (0, 0), (nil, nil),
    ])
    func courseIsLoggedToTheDegree(millidegrees: Int32?, centidegrees: Int32?) {
        var fix = Fix()
        fix.position = Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: 11_516_700_000)
        fix.courseMillidegrees = millidegrees
        fix.mode = .twoD
        let logged = LogFix(fix, accuracyMillimetres: nil, time: UTCTime(millisecondsSinceEpoch: 0))
        #expect(logged?.courseCentidegrees == centidegrees)
    }
}
