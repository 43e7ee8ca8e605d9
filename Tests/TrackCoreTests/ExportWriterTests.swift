import Foundation
import Testing
import TrackCore

/// A short log: boot, two fixes, a waypoint, a gap, a lone fix, a fence event, a new boot and
/// two more fixes (one 2D without optionals).
private let t = LogSamples.t0.millisecondsSinceEpoch
private func at(_ seconds: Int64, ms: Int64 = 0) -> UTCTime { UTCTime(millisecondsSinceEpoch: t + seconds * 1000 + ms) }
private let sampleLog: [LogRecord] = [
    .bootMarker(time: at(0), bootID: 1),
    .fix(LogFix(time: at(1), position: LogPosition(latitudeE7: 481_173_000, longitudeE7: 115_167_000),
                altitudeDecimetres: 5454, speedCentimetresPerSecond: 514, courseCentidegrees: 8_440,
                accuracyDecimetres: 32, mode: .threeD)),
    .fix(LogFix(time: at(2, ms: 250), position: LogPosition(latitudeE7: 481_173_123, longitudeE7: -3_234_795),
                altitudeDecimetres: -12, speedCentimetresPerSecond: 0, courseCentidegrees: 0, mode: .threeD)),
    .waypoint(time: at(3), position: LogPosition(latitudeE7: 481_173_100, longitudeE7: 115_167_100), label: LogLabel("fish & <chips>")!),
    .gap(from: at(4), to: at(60)),
    .fix(LogFix(time: at(61), position: LogPosition(latitudeE7: 481_174_000, longitudeE7: 115_168_000), mode: .twoD)),
    .fenceEvent(time: at(62), fenceID: 3, kind: .enter, position: LogPosition(latitudeE7: 481_174_000, longitudeE7: 115_168_000)),
    .bootMarker(time: at(100), bootID: 2),
    .fix(LogFix(time: at(101), position: LogPosition(latitudeE7: 10, longitudeE7: -10), altitudeDecimetres: 27_400, mode: .threeD)),
    .fix(LogFix(time: at(102), position: LogPosition(latitudeE7: 20, longitudeE7: -20), speedCentimetresPerSecond: -5,
                courseCentidegrees: 36_000, mode: .twoD)),
]

@Test func gpxOfTheSampleLog() {
    let (text, counts) = exportText(sampleLog, format: .gpx)
    let expected = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="trackd" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
        http://www.garmin.com/xmlschemas/TrackPointExtension/v2 https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">
        <wpt lat="48.11731" lon="11.51671"><time>2025-06-21T12:01:32Z</time><name>fish &amp; &lt;chips&gt;</name>\
        <desc>waypoint</desc><type>waypoint</type></wpt>
        <wpt lat="48.1174" lon="11.5168"><time>2025-06-21T12:02:31Z</time><name>fence 3 enter</name>\
        <desc>geofence 3: enter</desc><type>fence-enter</type></wpt>
        <trk><name>track 1</name>
        <trkseg>
        <trkpt lat="48.1173" lon="11.5167"><ele>545.4</ele><time>2025-06-21T12:01:30Z</time><fix>3d</fix>\
        <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>5.14</gpxtpx:speed><gpxtpx:course>84.4</gpxtpx:course>\
        </gpxtpx:TrackPointExtension></extensions></trkpt>
        <trkpt lat="48.1173123" lon="-0.3234795"><ele>-1.2</ele><time>2025-06-21T12:01:31.250Z</time><fix>3d</fix>\
        <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>0</gpxtpx:speed><gpxtpx:course>0</gpxtpx:course>\
        </gpxtpx:TrackPointExtension></extensions></trkpt>
        </trkseg>
        <trkseg>
        <trkpt lat="48.1174" lon="11.5168"><time>2025-06-21T12:02:30Z</time><fix>2d</fix></trkpt>
        </trkseg>
        </trk>
        <trk><name>track 2</name>
        <trkseg>
        <trkpt lat="0.000001" lon="-0.000001"><ele>2740</ele><time>2025-06-21T12:03:10Z</time><fix>3d</fix></trkpt>
        <trkpt lat="0.000002" lon="-0.000002"><time>2025-06-21T12:03:11Z</time><fix>2d</fix></trkpt>
        </trkseg>
        </trk>
        </gpx>

        """
    #expect(text == expected)
    #expect(counts.fixes == 5)
    #expect(counts.places == 2)
    #expect(counts.segments == 3)
}

@Test func geoJSONOfTheSampleLog() {
    let (text, counts) = exportText(sampleLog, format: .geojson)
    let expected = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[11.51671,48.11731]},"properties":\
        {"kind":"waypoint","name":"fish & <chips>","description":"waypoint","time":"2025-06-21T12:01:32Z"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[11.5168,48.1174]},"properties":\
        {"kind":"fence-enter","name":"fence 3 enter","description":"geofence 3: enter","time":"2025-06-21T12:02:31Z"}},
        {"type":"Feature","geometry":{"type":"LineString","coordinates":[[11.5167,48.1173,545.4],[-0.3234795,48.1173123,-1.2]]},\
        "properties":{"track":1,"segment":1,"start_time":"2025-06-21T12:01:30Z","end_time":"2025-06-21T12:01:31.250Z","points":2,\
        "coordTimes":["2025-06-21T12:01:30Z","2025-06-21T12:01:31.250Z"]}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[11.5168,48.1174]},"properties":\
        {"kind":"fix","track":1,"segment":2,"time":"2025-06-21T12:02:30Z","points":1}},
        {"type":"Feature","geometry":{"type":"LineString","coordinates":[[-0.000001,0.000001,2740],[-0.000002,0.000002]]},\
        "properties":{"track":2,"segment":1,"start_time":"2025-06-21T12:03:10Z","end_time":"2025-06-21T12:03:11Z","points":2,\
        "coordTimes":["2025-06-21T12:03:10Z","2025-06-21T12:03:11Z"]}}
        ]}

        """
    #expect(text == expected)
    #expect(counts.fixes == 5)
}

@Test func geoJSONPointsOfTheSampleLog() {
    let (text, counts) = exportText(sampleLog, GeoJSONWriter(points: true))
    let expected = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[11.51671,48.11731]},"properties":\
        {"kind":"waypoint","name":"fish & <chips>","description":"waypoint","time":"2025-06-21T12:01:32Z"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[11.5168,48.1174]},"properties":\
        {"kind":"fence-enter","name":"fence 3 enter","description":"geofence 3: enter","time":"2025-06-21T12:02:31Z"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[11.5167,48.1173,545.4]},"properties":\
        {"kind":"fix","track":1,"segment":1,"time":"2025-06-21T12:01:30Z","speed_mps":5.14,"course_deg":84.4}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.3234795,48.1173123,-1.2]},"properties":\
        {"kind":"fix","track":1,"segment":1,"time":"2025-06-21T12:01:31.250Z","speed_mps":0,"course_deg":0}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[11.5168,48.1174]},"properties":\
        {"kind":"fix","track":1,"segment":2,"time":"2025-06-21T12:02:30Z"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.000001,0.000001,2740]},"properties":\
        {"kind":"fix","track":2,"segment":1,"time":"2025-06-21T12:03:10Z"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.000002,0.000002]},"properties":\
        {"kind":"fix","track":2,"segment":1,"time":"2025-06-21T12:03:11Z","speed_mps":-0.05,"course_deg":360}}
        ]}

        """
    #expect(text == expected)
    #expect(counts.fixes == 5)
    #expect(counts.segments == 3)
}

/// A segment of 20,000 fixes: its coordTimes run over many buffers, and the file is one JSON
/// document with a time for every position, in order.
@Test(arguments: [false, true])
func longSegmentsKeepEveryTime(points: Bool) throws {
    var fixes: [LogRecord] = []
    for k in 0..<20_000 {
        let milliseconds: Int64 = t + Int64(k) * 1000 + (k % 3 == 0 ? 250 : 0)
        let position = LogPosition(latitudeE7: 481_173_000 + Int32(k), longitudeE7: 115_167_000 - Int32(k))
        fixes.append(.fix(LogFix(time: UTCTime(millisecondsSinceEpoch: milliseconds), position: position, mode: .threeD)))
    }
    let text = exportText(fixes, GeoJSONWriter(points: points)).text
    let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let features = try #require(json["features"] as? [[String: Any]])
    var times: [String] = []
    var positions = 0
    for feature in features {
        let geometry = try #require(feature["geometry"] as? [String: Any])
        let properties = try #require(feature["properties"] as? [String: Any])
        if points {
            times.append(try #require(properties["time"] as? String))
            positions += 1
        } else {
            let coordinates = try #require(geometry["coordinates"] as? [[Double]])
            let coordTimes = try #require(properties["coordTimes"] as? [String])
            #expect(coordTimes.count == coordinates.count)
            times += coordTimes
            positions += coordinates.count
        }
    }
    #expect(features.count == (points ? 20_000 : 1))
    #expect(positions == 20_000)
    #expect(times.first == "2025-06-21T12:01:29.250Z" && times.last == "2025-06-21T17:34:48Z")
    var previous = ""
    for time in times {
        #expect(time > previous)
        previous = time
    }
}

@Test func kmlOfTheSampleLog() {
    let (text, _) = exportText(sampleLog, format: .kml)
    let expected = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
        <Document><name>trackd log</name>
        <Placemark><name>fish &amp; &lt;chips&gt;</name><description>waypoint</description><TimeStamp>\
        <when>2025-06-21T12:01:32Z</when></TimeStamp><ExtendedData><Data name="type"><value>waypoint</value></Data>\
        </ExtendedData><Point><coordinates>11.51671,48.11731</coordinates></Point></Placemark>
        <Placemark><name>fence 3 enter</name><description>geofence 3: enter</description><TimeStamp>\
        <when>2025-06-21T12:02:31Z</when></TimeStamp><ExtendedData><Data name="type"><value>fence-enter</value></Data>\
        </ExtendedData><Point><coordinates>11.5168,48.1174</coordinates></Point></Placemark>
        <Folder><name>track 1</name>
        <Placemark><name>track 1 segment 1</name><TimeSpan><begin>2025-06-21T12:01:30Z</begin></TimeSpan>\
        <LineString><altitudeMode>absolute</altitudeMode><coordinates>
        11.5167,48.1173,545.4
        -0.3234795,48.1173123,-1.2
        </coordinates></LineString></Placemark>
        <Placemark><name>track 1 segment 2</name><TimeStamp><when>2025-06-21T12:02:30Z</when></TimeStamp>\
        <Point><altitudeMode>absolute</altitudeMode><coordinates>11.5168,48.1174</coordinates></Point></Placemark>
        </Folder>
        <Folder><name>track 2</name>
        <Placemark><name>track 2 segment 1</name><TimeSpan><begin>2025-06-21T12:03:10Z</begin></TimeSpan>\
        <LineString><altitudeMode>absolute</altitudeMode><coordinates>
        -0.000001,0.000001,2740
        -0.000002,0.000002
        </coordinates></LineString></Placemark>
        </Folder>
        </Document>
        </kml>

        """
    #expect(text == expected)
}

@Test func csvOfTheSampleLogHasFixesAndPlacesInLogOrder() {
    let (text, counts) = exportText(sampleLog, format: .csv)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "time_utc,lat,lon,ele_m,speed_mps,kind,name")
    #expect(lines.contains("2025-06-21T12:01:30Z,48.1173,11.5167,545.4,5.14,fix,"))
    #expect(lines.contains("2025-06-21T12:03:11Z,0.000002,-0.000002,,-0.05,fix,"))
    let places = lines.filter { !$0.hasSuffix(",fix,") && $0.contains("Z,") }
    #expect(places.count == counts.places)
    #expect(counts.places > 0)
    #expect(places.allSatisfy { $0.contains(",,,waypoint,") || $0.contains(",,,fence-") }, "\(places)")
    // The rows stay in log order: times never go back except where the log does.
    let fixRows = lines.filter { $0.hasSuffix(",fix,") }
    #expect(fixRows.count == counts.fixes)
}

@Test func csvPlacesRoundTripThroughImport() throws {
    var label = LogLabel("camp, \"north\"")!
    _ = label.append(UInt8(ascii: "!"))
    let records: [LogRecord] = [LogSamples.fix(0), .waypoint(time: LogSamples.t0, position: LogSamples.munich, label: label),
                                LogSamples.fix(1)]
    let (csv, counts) = exportText(records, format: .csv)
    #expect(counts.places == 1)
    #expect(csv.contains(",,,waypoint,\"camp, \"\"north\"\"!\"\n"), "\(csv)")
    let back = try TrackCSV.records(Array(csv.utf8))
    #expect(back.count == 3)
    guard back.count == 3, case .waypoint(_, let position, let read) = back[1] else {
        Issue.record("no waypoint read back: \(back)")
        return
    }
    #expect(read == label)
    #expect(position == LogSamples.munich)
    #expect(exportText(back, format: .csv).text == csv)
}

@Test(arguments: ExportFormat.allCases)
func anEmptyLogIsAValidEmptyFile(format: ExportFormat) {
    let (text, counts) = exportText([], format: format)
    let expected: [ExportFormat: String] = [
        .csv: "time_utc,lat,lon,ele_m,speed_mps,kind,name\n",
        .geojson: "{\"type\":\"FeatureCollection\",\"features\":[\n\n]}\n",
    ]
    if let exact = expected[format] { #expect(text == exact) }
    #expect(text.hasSuffix(format == .gpx ? "</gpx>\n" : format == .kml ? "</kml>\n" : "\n"))
    #expect(counts == ExportCounts())
}

/// Where fixes split: (seconds of each fix, expected segments, expected tracks in GPX).
private let splitCases: [(String, [LogRecord], Int, Int)] = [
    ("steady 1 Hz", (0..<5).map { LogSamples.fix($0) }, 1, 1),
    ("a jump of 300 s stays", [LogSamples.fix(0), LogSamples.fix(1), LogSamples.fix(301), LogSamples.fix(302)], 1, 1),
    ("a jump of 301 s splits", [LogSamples.fix(0), LogSamples.fix(1), LogSamples.fix(302), LogSamples.fix(303)], 2, 1),
    ("backwards 400 s splits", [LogSamples.fix(1000), LogSamples.fix(1001), LogSamples.fix(600), LogSamples.fix(601)], 2, 1),
    ("a gap record splits", [LogSamples.fix(0), LogSamples.fix(1), .gap(from: LogSamples.t0, to: LogSamples.t0),
                             LogSamples.fix(2), LogSamples.fix(3)], 2, 1),
    ("a boot starts a track", [LogSamples.fix(0), LogSamples.fix(1), .bootMarker(time: LogSamples.t0, bootID: 9),
                               LogSamples.fix(2), LogSamples.fix(3)], 2, 2),
    ("boots without fixes add nothing", [.bootMarker(time: LogSamples.t0, bootID: 1), .bootMarker(time: LogSamples.t0, bootID: 2),
                                         LogSamples.fix(2), .gap(from: LogSamples.t0, to: LogSamples.t0)], 1, 1),
    ("permission changes do not split", [LogSamples.fix(0), .permissionChange(time: LogSamples.t0, old: .always, new: .denied),
                                         LogSamples.fix(1)], 1, 1),
]

@Test(arguments: splitCases.indices)
func segmentsSplitAtGapsJumpsAndBoots(index: Int) {
    let (name, records, segments, tracks) = splitCases[index]
    let (gpx, counts) = exportText(records, format: .gpx)
    #expect(counts.segments == segments, "\(name)")
    #expect(gpx.components(separatedBy: "<trkseg>").count - 1 == segments, "\(name)")
    #expect(gpx.components(separatedBy: "<trk>").count - 1 == tracks, "\(name)")
}

@Test func theTimeWindowIsSinceInclusiveUntilExclusive() {
    let records = (0..<10).map { LogSamples.fix($0) } + [.waypoint(time: LogSamples.t0, position: LogSamples.munich, label: LogLabel())]
    let since = UTCTime(millisecondsSinceEpoch: t + 3_000)
    let until = UTCTime(millisecondsSinceEpoch: t + 7_000)
    let (csv, counts) = exportText(records, format: .csv, ExportOptions(since: since, until: until))
    #expect(csv.split(separator: "\n").count == 1 + 4, "the waypoint at t0 is before --since")
    #expect(csv.contains("12:01:32Z") && csv.contains("12:01:35Z") && !csv.contains("12:01:36Z"))
    #expect(counts.outsideWindow == 7, "six fixes and the waypoint")
    let (gpx, gpxCounts) = exportText(records, format: .gpx, ExportOptions(since: since))
    #expect(!gpx.contains("<wpt"), "the waypoint at t0 is before --since")
    #expect(gpxCounts.fixes == 7)
}

@Test func labelsAreEscapedAndMadeValidUTF8() {
    var label = LogLabel("a\"b'c\\d\u{1}\n")!
    _ = label.append(0xFF)  // not UTF-8
    let records: [LogRecord] = [.waypoint(time: LogSamples.t0, position: LogSamples.munich, label: label)]
    let gpx = exportText(records, format: .gpx).text
    #expect(gpx.contains("<name>a&quot;b&apos;c\\d\u{FFFD}\n\u{FFFD}</name>"))
    let json = exportText(records, format: .geojson).text
    #expect(json.contains(#""name":"a\"b'c\\d\u0001\n\#u{FFFD}""#))
    let empty = exportText([.waypoint(time: LogSamples.t0, position: LogSamples.munich, label: LogLabel())], format: .kml).text
    #expect(empty.contains("<name>mark</name>"))
}

@Test func theLongestPiecesFitTheLineBuffer() {
    // A 64-byte label of characters that each escape to six bytes, and extreme values.
    let label = LogLabel(String(repeating: "\"", count: 64))!
    let extreme = LogFix(time: UTCTime(millisecondsSinceEpoch: 7_258_118_399_999), position: LogPosition(latitudeE7: .min, longitudeE7: .min),
                         altitudeDecimetres: .min, speedCentimetresPerSecond: .max, courseCentidegrees: 35_999,
                         accuracyDecimetres: .max, mode: .threeD)
    for format in ExportFormat.allCases {
        // exportText records an issue when a piece overflows.
        _ = exportText([.waypoint(time: LogSamples.t0, position: LogSamples.munich, label: label), .fix(extreme), .fix(extreme)],
                       format: format)
    }
}
