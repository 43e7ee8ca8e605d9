import Testing
import TrackCore

// Expected lines are what Debian 12's gpsd 3.22 sent on loopback for the first epochs of gpsd's
// own capture `ublox-8.log` (shared data, gpsd-regress), fed through a pseudo-terminal; only
// the device path is ours. Members gpsd invents from its own tables (`ept`, `eph`, `epx`,
// `epy`, `epv`, `sep`, `magvar`) are taken out of its lines: trackd sends only what the
// receiver said.

private let device = GpsdDevicePath("/dev/pts/0")

private func written(_ write: (inout TextBuffer) -> Void) -> String {
    var buffer = TextBuffer()
    write(&buffer)
    return buffer.string
}

/// The epoch's SKYs as `GpsdJSON.writeSKY` sends them, one after the other; `overflowed` says
/// whether any object did not fit its buffer.
func writtenSKYs(_ fix: borrowing Fix, sky: borrowing SkyView, positions: Bool = true, device: GpsdDevicePath,
                 overflowed: inout Bool) -> String {
    var buffer = TextBuffer()
    var text = ""
    GpsdJSON.writeSKY(fix, sky: sky, positions: positions, device: device, through: &buffer) { object in
        if object.overflowed { overflowed = true }
        text += object.string
    }
    return text
}

func writtenSKYs(_ fix: borrowing Fix, sky: borrowing SkyView, positions: Bool = true, device: GpsdDevicePath) -> String {
    var overflowed = false
    return writtenSKYs(fix, sky: sky, positions: positions, device: device, overflowed: &overflowed)
}

/// Removes `"name":value` members from a gpsd line.
private func without(_ line: String, _ names: [String]) -> String {
    var text = line
    for name in names {
        while let range = text.range(of: ",\"\(name)\":") {
            var end = range.upperBound
            while end < text.endIndex, text[end] != ",", text[end] != "}" { end = text.index(after: end) }
            text.removeSubrange(range.lowerBound..<end)
        }
    }
    return text
}

private let invented = ["ept", "eph", "epx", "epy", "epv", "sep", "magvar", "eps", "epc"]

private let ubloxEpoch = [
    "GNRMC,000941.00,A,4404.13387,N,12118.85628,W,0.029,,100117,,,A",
    "GNVTG,,T,,M,0.029,N,0.053,K,A",
    "GNGGA,000941.00,4404.13387,N,12118.85628,W,1,12,1.01,1144.8,M,-21.4,M,,",
    "GNGSA,A,3,23,09,16,07,26,03,27,22,,,,,1.71,1.01,1.38",
    "GNGSA,A,3,80,70,73,79,69,71,,,,,,,1.71,1.01,1.38",
    "GPGSV,4,1,16,02,05,307,,03,21,174,29,04,12,038,23,06,07,270,06",
    "GNGLL,4404.13387,N,12118.85628,W,000941.00,A,A",
    "GNZDA,000941.00,10,01,2017,00,00",
]

@Suite("gpsd JSON")
struct GpsdJSONTests {
    @Test func versionAsGpsd322() {
        #expect(written { GpsdJSON.writeVersion(to: &$0) }
            == "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\r\n")
    }

    @Test func watchAsGpsd322() {
        var watch = GpsdWatch()
        var change = GpsdWatchChange()
        change.enable = true
        change.json = true
        watch.apply(change)
        #expect(written { GpsdJSON.writeWatch(watch, to: &$0) }
            == "{\"class\":\"WATCH\",\"enable\":true,\"json\":true,\"nmea\":false,\"raw\":0,\"scaled\":false,\"timing\":false,\"split24\":false,\"pps\":false}\r\n")
    }

    @Test func devicesAsGpsd322() {
        let info = GpsdDeviceInfo(path: device, baud: 38400, activated: utc(2026, 12, 1, 17, 39, 0, milliseconds: 283),
                                  seenSentences: false)
        #expect(written { GpsdJSON.writeDevices(info, to: &$0) }
            == "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/pts/0\",\"activated\":\"2026-12-01T17:39:00.283Z\",\"native\":0,\"bps\":38400,\"parity\":\"N\",\"stopbits\":1,\"cycle\":1.00}]}\r\n")
        #expect(written { GpsdJSON.writeDevices(nil, to: &$0) } == "{\"class\":\"DEVICES\",\"devices\":[]}\r\n")
    }

    @Test func errorQuotesTheRequestEscaped() {
        let request: [UInt8] = Array("?FOO\"\n".utf8)
        #expect(written { GpsdJSON.writeUnrecognized(request.span, to: &$0) }
            == "{\"class\":\"ERROR\",\"message\":\"Unrecognized request '?FOO\\\"\\n'\"}\r\n")
    }

    /// Bytes that are not UTF-8 (a client's garbage) go out as U+FFFD, so the object stays JSON;
    /// well-formed UTF-8 (a device path may hold it) goes out as it is
    /// (Fixtures/fuzz/gpsd/request-not-utf8.hex).
    @Test func errorKeepsUTF8AndReplacesWhatIsNot() throws {
        let request: [UInt8] = [UInt8(ascii: "?"), 0xFF, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0xC3]
        let line = written { GpsdJSON.writeUnrecognized(request.span, to: &$0) }
        #expect(line == "{\"class\":\"ERROR\",\"message\":\"Unrecognized request '?\\ufffdé\\ufffd\\ufffd\\ufffd\\ufffd'\"}\r\n")
        let object = Array(line.utf8.dropLast(2))
        #expect(throws: Never.self) { _ = try JSONDocument.parse(object) }
    }

    @Test func tpvMatchesGpsd322() throws {
        let fixes = receive(sentences: ubloxEpoch).fixes
        let fix = try #require(fixes.last)
        let gpsd = "{\"class\":\"TPV\",\"device\":\"/dev/pts/0\",\"mode\":3,\"time\":\"2017-01-10T00:09:41.000Z\",\"ept\":0.005,\"lat\":44.068897833,\"lon\":-121.314271333,\"altHAE\":1123.4000,\"altMSL\":1144.8000,\"alt\":1144.8000,\"epv\":31.740,\"magvar\":14.4,\"speed\":0.015,\"geoidSep\":-21.400,\"eph\":19.190,\"sep\":32.490}\r\n"
        #expect(written { GpsdJSON.writeTPV(fix, device: device, to: &$0) } == without(gpsd, invented))
    }

    @Test func skyCarriesCountsAndDOPs() throws {
        let fix = try #require(receive(sentences: ubloxEpoch).fixes.last)
        // gpsd's line less its satellite list and the DOPs it computes itself (x, y, t, g).
        // Its GSV set is not complete (one of four sentences): counts only, from GSV and GSA.
        #expect(writtenSKYs(fix, sky: SkyView(), device: device)
            == "{\"class\":\"SKY\",\"device\":\"/dev/pts/0\",\"vdop\":1.38,\"hdop\":1.01,\"pdop\":1.71,\"nSat\":16,\"uSat\":14}\r\n")
    }

    @Test func skyListsTheSatellitesOfACompleteSet() throws {
        var receiver = NMEAReceiver()
        var fixes: [Fix] = []
        let bytes = (SkyViewTests.cycle + ["GNRMC,000942.00,A,4404.13387,N,12118.85628,W,0.029,,100117,,,A"]).flatMap(nmeaLine)
        var sky = SkyView()
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while let fix = receiver.next(raw, from: &offset) {
                fixes.append(fix)
                sky = receiver.assembler.sky
            }
        }
        let fix = try #require(fixes.first)
        // gpsd's `%.1f`: "el":40.0. No "ss" where GSV left it empty (gpsd writes 0.0).
        let gps = "{\"PRN\":9,\"el\":40.0,\"az\":83.0,\"ss\":46.0,\"used\":true},{\"PRN\":16,\"el\":17.0,\"az\":308.0,\"ss\":41.0,\"used\":true},{\"PRN\":23,\"el\":7.0,\"az\":344.0,\"used\":false},{\"PRN\":26,\"el\":22.0,\"az\":228.0,\"ss\":45.0,\"used\":false},{\"PRN\":27,\"el\":5.0,\"az\":100.0,\"ss\":30.0,\"used\":false}"
        let glonass = "{\"PRN\":70,\"el\":33.0,\"az\":151.0,\"ss\":38.0,\"used\":true},{\"PRN\":80,\"el\":12.0,\"az\":20.0,\"ss\":25.0,\"used\":true}"
        let head = "{\"class\":\"SKY\",\"device\":\"/dev/pts/0\",\"vdop\":1.38,\"hdop\":1.01,\"pdop\":1.71"
        // gpsd reports at the end of the GPGSV set (no other constellation seen yet) and of
        // the GLGSV set: two SKYs, the second the whole view.
        #expect(writtenSKYs(fix, sky: sky, device: device)
            == head + ",\"nSat\":5,\"uSat\":2,\"satellites\":[\(gps)]}\r\n"
            + head + ",\"nSat\":7,\"uSat\":4,\"satellites\":[\(gps),\(glonass)]}\r\n")
        // Withheld: no elevation or azimuth, which with the time would place the receiver.
        let withheld = writtenSKYs(fix.disclosed(.withheld), sky: sky, positions: false, device: device)
        #expect(withheld.contains("{\"PRN\":9,\"ss\":46.0,\"used\":true}"))
        #expect(!withheld.contains("\"el\"") && !withheld.contains("\"az\""))
    }

    @Test func framingHasNoSpacesNoNullAndCRLF() throws {
        let fix = try #require(receive(sentences: ubloxEpoch).fixes.last)
        for disclosure in [Disclosure.precise, .approximate, .withheld] {
            let line = written { GpsdJSON.writeTPV(fix.disclosed(disclosure), device: device, to: &$0) }
            #expect(line.hasPrefix("{\"class\":\"TPV\","))
            #expect(line.hasSuffix("}\r\n"))
            #expect(!line.contains(": ") && !line.contains("null"))
        }
    }

    /// Mode 1: clients read mode 2 or 3 as "lat and lon are here" (gpxlogger wrote lat="nan").
    @Test func withheldTPVHasNoPositionSpeedOrTrackAndSaysNoFix() throws {
        let fix = try #require(receive(sentences: ubloxEpoch).fixes.last)
        #expect(fix.mode == .threeD)
        let line = written { GpsdJSON.writeTPV(fix.disclosed(.withheld), device: device, to: &$0) }
        #expect(line == "{\"class\":\"TPV\",\"device\":\"/dev/pts/0\",\"mode\":1,\"time\":\"2017-01-10T00:09:41.000Z\"}\r\n")
    }

    @Test func approximateTPVHasTheSnappedPositionOnly() throws {
        let fix = try #require(receive(sentences: ubloxEpoch).fixes.last)
        let shown = fix.disclosed(.approximate)
        let position = try #require(shown.position)
        let line = written { GpsdJSON.writeTPV(shown, device: device, to: &$0) }
        var expected = TextBuffer()
        expected.append(string: "{\"class\":\"TPV\",\"device\":\"/dev/pts/0\",\"mode\":3,\"time\":\"2017-01-10T00:09:41.000Z\",\"lat\":")
        expected.appendFixed(position.latitudeNanodegrees, decimals: 9)
        expected.append(",\"lon\":")
        expected.appendFixed(position.longitudeNanodegrees, decimals: 9)
        expected.append("}\r\n")
        #expect(line == expected.string)
        #expect(position != fix.position)
    }

    /// epx, epy and epv are GBS's expected errors, as gpsd's processGBS takes them; GST's 1σ
    /// errors are not TPV members (gpsd sends them in its GST object).
    @Test func gbsErrorsAndStatus() {
        let fix = makeFix {
            $0.mode = .threeD
            $0.quality = 2
            $0.time = utc(2024, 5, 1, 12, 0, 0)
            $0.position = Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: -11_516_700_000)
            $0.latitudeErrorCentimetres = 230
            $0.longitudeErrorCentimetres = 200
            $0.altitudeErrorCentimetres = 310
            $0.expectedLatitudeErrorCentimetres = 460
            $0.expectedLongitudeErrorCentimetres = 400
            $0.expectedAltitudeErrorCentimetres = 620
            $0.courseMillidegrees = 273_600
        }
        #expect(written { GpsdJSON.writeTPV(fix, device: device, to: &$0) }
            == "{\"class\":\"TPV\",\"device\":\"/dev/pts/0\",\"status\":2,\"mode\":3,\"time\":\"2024-05-01T12:00:00.000Z\",\"lat\":48.117300000,\"lon\":-11.516700000,\"epx\":4.000,\"epy\":4.600,\"epv\":6.200,\"track\":273.6000}\r\n")
    }

    /// An epoch that said nothing of the fix (a ZDA alone) is mode 0, gpsd's MODE_NOT_SEEN
    /// (its output for the AC12's lone ZDAs); one whose GSA said 3D without a position is 1.
    @Test func modeZeroStaysAndModeWithoutPositionIsOne() {
        #expect(written { GpsdJSON.writeTPV(Fix(), device: device, to: &$0) }
            == "{\"class\":\"TPV\",\"device\":\"/dev/pts/0\",\"mode\":0}\r\n")
        #expect(writtenSKYs(Fix(), sky: SkyView(), device: device).isEmpty)
        let noPosition = makeFix { $0.mode = .threeD; $0.altitudeMSLMillimetres = 500_000 }
        #expect(written { GpsdJSON.writeTPV(noPosition, device: device, to: &$0) }
            == "{\"class\":\"TPV\",\"device\":\"/dev/pts/0\",\"mode\":1}\r\n")
    }

    /// gpsd 3.22 writes the altitudes of a 2D fix (gpsdecode 3.22 on gpsd's mtk-3301 and
    /// sl869 captures), the geoid separation only in 3D.
    @Test func twoDFixCarriesItsAltitudes() {
        let fix = makeFix {
            $0.mode = .twoD
            $0.position = Coordinate(latitudeNanodegrees: 52_216_316_550, longitudeNanodegrees: 6_884_965_100)
            $0.altitudeMSLMillimetres = 102_907
            $0.geoidSeparationMillimetres = 47_093
        }
        #expect(written { GpsdJSON.writeTPV(fix, device: device, to: &$0) }
            == "{\"class\":\"TPV\",\"device\":\"/dev/pts/0\",\"mode\":2,\"lat\":52.216316550,\"lon\":6.884965100,\"altHAE\":150.0000,\"altMSL\":102.9070,\"alt\":102.9070}\r\n")
    }

    @Test func pollBeforeAndAfterAFix() throws {
        let time = try #require(utc(2026, 12, 1, 17, 39, 18, milliseconds: 151))
        #expect(written { GpsdJSON.writePoll(time: time, active: true, fix: nil, sky: SkyView(), positions: true, device: device, to: &$0) }
            == "{\"class\":\"POLL\",\"time\":\"2026-12-01T17:39:18.151Z\",\"active\":1,\"tpv\":[],\"sky\":[]}\r\n")
        let fix = try #require(receive(sentences: ubloxEpoch).fixes.last)
        let poll = written { GpsdJSON.writePoll(time: time, active: true, fix: fix, sky: SkyView(), positions: true, device: device, to: &$0) }
        #expect(poll.hasPrefix("{\"class\":\"POLL\",\"time\":\"2026-12-01T17:39:18.151Z\",\"active\":1,\"tpv\":[{\"class\":\"TPV\",\"device\":\"/dev/pts/0\",\"mode\":3,"))
        #expect(poll.contains("],\"sky\":[{\"class\":\"SKY\","))
        #expect(poll.hasSuffix("}]}\r\n"))
    }
}
