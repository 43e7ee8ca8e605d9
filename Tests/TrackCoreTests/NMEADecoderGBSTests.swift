import Foundation
@testable import TrackCore
import TestData
import Testing

// GBS: its fields, its rejects, its merge into the epoch (only with the epoch's own second,
// as gpsd does), and gpsd's expected epx/epy/epv on the shared captures that carry GBS.

extension GBS: BlankDecodable { static var blankBody: String { "GPGBS,,,,,,,," } }

@Suite("NMEA decoders: GBS") struct NMEADecoderGBSTests {
    static func gbs(_ time: Int32?, _ errors: (Int32?, Int32?, Int32?), failed: UInt16? = nil,
                    bias: Int32? = nil, deviation: Int32? = nil) -> GBS {
        var value = GBS.expected { _ in }
        value.time = time.map { TimeOfDay(millisecondsSinceMidnight: $0) }
        value.latitudeErrorCentimetres = errors.0
        value.longitudeErrorCentimetres = errors.1
        value.altitudeErrorCentimetres = errors.2
        value.failedSatellite = failed
        value.biasCentimetres = bias
        value.biasDeviationCentimetres = deviation
        return value
    }

    @Test(arguments: [
        // NMEA 3.0 with a failed satellite (the NMEA reference's example).
        ("GPGBS,082941.00,2.4,1.5,3.9,25,,-43.7,27.5", gbs(30_581_000, (240, 150, 390), failed: 25, bias: -4_370, deviation: 2_750)),
        // u-blox NEO-M9N, NMEA 4.10: no failed satellite, system and signal IDs empty.
        ("GNGBS,223745.00,1.0,1.0,3.1,,,,,,", gbs(81_465_000, (100, 100, 310))),
        // ST Teseo LIV4F: milliseconds in the time.
        ("GNGBS,135806.000,4.6,4.4,4.8,,,,,,", gbs(50_286_000, (460, 440, 480))),
        // Septentrio PolaRx2: three decimals, zeros where there is nothing to say.
        ("GPGBS,112257.00,123.204,0.490,75.521,23,0.000,0.000,0.000", gbs(40_977_000, (12_320, 49, 7_552), failed: 23, bias: 0, deviation: 0)),
        // Only the errors: the minimum field count.
        ("GPGBS,000000,0.5,0.5,1.0", gbs(0, (50, 50, 100))),
        ("GPGBS,,,,", gbs(nil, (nil, nil, nil))),
    ] as [(String, GBS)])
    func decodes(body: String, expected: GBS) throws {
        let sentence = try NMEASentence(parsing: nmea(body))
        #expect(try GBS(sentence) == expected)
        #expect(try NMEAMessage(sentence) == .other(.gbs))
    }

    @Test(arguments: [
        ("GPGBS,082941.00,2.4,1.5", NMEAError.tooFewFields(.gbs, count: 4)),
        ("GPGBS,082961.00,2.4,1.5,3.9", .outOfRange(.gbs, field: 1)),
        ("GPGBS,08x941.00,2.4,1.5,3.9", .malformedField(.gbs, field: 1)),
        ("GPGBS,082941.00,-2.4,1.5,3.9", .outOfRange(.gbs, field: 2)),
        ("GPGBS,082941.00,2.4,1.5.1,3.9", .malformedField(.gbs, field: 3)),
        ("GPGBS,082941.00,2.4,1.5,x", .malformedField(.gbs, field: 4)),
        ("GPGBS,082941.00,2.4,1.5,3.9,0,,,", .outOfRange(.gbs, field: 5)),
        ("GPGBS,082941.00,2.4,1.5,3.9,25,,-43.7,-1", .outOfRange(.gbs, field: 8)),
    ] as [(String, NMEAError)])
    func rejects(body: String, error: NMEAError) throws {
        let sentence = try NMEASentence(parsing: nmea(body))
        #expect(throws: error) { try GBS(sentence) }
        let (_, counters) = receive(sentences: [body])
        #expect(counters.accepted == 0)
    }

    /// GGA + RMC + GBS of one second: the fix carries the expected errors, and its TPV has
    /// gpsd's epx, epy and epv; a GBS of another second is left out.
    @Test(arguments: [
        ("GPGBS,123519.00,2.4,1.5,3.9,,,,", (Int32?(240), Int32?(150), Int32?(390)), true),
        ("GPGBS,123519.40,2.4,1.5,3.9,,,,", (240, 150, 390), true),
        ("GPGBS,123518.00,2.4,1.5,3.9,,,,", (nil, nil, nil), false),
        ("GPGBS,,2.4,1.5,3.9,,,,", (nil, nil, nil), false),
    ] as [(String, (Int32?, Int32?, Int32?), Bool)])
    func mergesIntoItsEpoch(gbs: String, expected: (Int32?, Int32?, Int32?), written: Bool) throws {
        let (fixes, counters) = receive(sentences: [
            "GPGGA,123519.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,",
            "GPRMC,123519.00,A,4807.038,N,01131.324,E,022.4,084.4,230394,003.1,W",
            gbs,
            "GPGGA,123520.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,",
        ])
        #expect(counters.accepted == 4)
        let fix = try #require(fixes.first)
        #expect(fix.expectedLatitudeErrorCentimetres == expected.0)
        #expect(fix.expectedLongitudeErrorCentimetres == expected.1)
        #expect(fix.expectedAltitudeErrorCentimetres == expected.2)
        #expect(fixes.count == 2 && fixes[1].expectedLatitudeErrorCentimetres == nil, "the next epoch starts without")
        var json = TextBuffer()
        fix.writeJSON(to: &json)
        #expect(json.string.contains(",\"epx\":1.500,\"epy\":2.400,\"epv\":3.900") == written, "\(json.string)")
    }

    /// Every epoch of a shared capture with GBS against gpsd's expected output: where gpsd's
    /// last report of that second carries epx/epy/epv, ours are the same metres.
    @Test(.needsShared("gpsd-regress"),
          arguments: ["ublox-neo-m9n-nmea", "st-teseo-liv4f", "polarx2"])
    func matchesGpsdOnSharedCaptures(name: String) throws {
        let root = try #require(TestData.shared("gpsd-regress"))
        let log = try Data(contentsOf: root.appendingPathComponent(name + ".log"))
        let check = try String(contentsOf: root.appendingPathComponent(name + ".log.chk"), encoding: .utf8)
        // gpsd's last TPV of each second (it reports after every sentence; the last has the GBS).
        var gpsd: [String: (epx: Double?, epy: Double?, epv: Double?)] = [:]
        for line in check.split(separator: "\n") where line.hasPrefix("{\"class\":\"TPV\"") {
            guard let time = Self.value(of: "time", in: line) else { continue }
            gpsd[String(time.dropFirst().prefix(19))] = (Self.number("epx", line), Self.number("epy", line), Self.number("epv", line))
        }
        let (fixes, _) = receive(Array(log))
        var compared = 0
        var agreed = 0
        var agreedHorizontal = 0
        for fix in fixes {
            guard let time = fix.time else { continue }
            var text = TextBuffer()
            time.write(to: &text)
            guard let theirs = gpsd[String(text.string.prefix(19))], let epv = theirs.epv else { continue }
            compared += 1
            func same(_ ours: Int32?, _ theirs: Double?) -> Bool {
                guard let ours, let theirs else { return false }
                return abs(Double(ours) / 100 - theirs) < 0.0005
            }
            if same(fix.expectedAltitudeErrorCentimetres, epv) { agreed += 1 }
            if same(fix.expectedLongitudeErrorCentimetres, theirs.epx) && same(fix.expectedLatitudeErrorCentimetres, theirs.epy) {
                agreedHorizontal += 1
            }
        }
        print("\(name): gpsd's epv on \(agreed), epx and epy on \(agreedHorizontal) of \(compared) epochs")
        let (minimumVertical, minimumHorizontal) = Self.agreement[name] ?? (0, 0)
        #expect(agreed >= minimumVertical && agreedHorizontal >= minimumHorizontal)
    }

    /// Epochs where gpsd's last report has our values, at least: every epoch of the NEO-M9N
    /// capture but its first (gpsd's first report of that second carries its own error model's
    /// epx/epy/epv); every epv of the Teseo, whose epx/epy gpsd takes from elsewhere after its first
    /// epoch; none of the
    /// PolaRx2's, which gpsd reports without a time.
    static let agreement: [String: (Int, Int)] = [
        "ublox-neo-m9n-nmea": (60, 60), "st-teseo-liv4f": (12, 1), "polarx2": (0, 0),
    ]

    /// The raw text after `"key":` up to the next comma or brace, e.g. `"2020-…Z"` or `1.000`.
    static func value(of key: String, in line: Substring) -> Substring? {
        guard let start = line.range(of: "\"" + key + "\":")?.upperBound else { return nil }
        let rest = line[start...]
        return rest.prefix { $0 != "," && $0 != "}" }
    }

    static func number(_ key: String, _ line: Substring) -> Double? {
        value(of: key, in: line).flatMap { Double(String($0)) }
    }
}
