import Testing
import TrackCore

extension VTG: BlankDecodable { static var blankBody: String { "GPVTG,,,,,,,,," } }
extension ZDA: BlankDecodable { static var blankBody: String { "GPZDA,,,,,," } }
extension GST: BlankDecodable { static var blankBody: String { "GPGST,,,,,,,," } }
extension TXT: BlankDecodable { static var blankBody: String { "GPTXT,,,," } }

extension TXT {
    /// Sets the text.
    mutating func set(text string: String) {
        for (index, byte) in string.utf8.enumerated() { text[index] = byte }
        length = string.utf8.count
    }
}

private let vtgCases: [(String, VTG)] = [
    ("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A", .expected {
        $0.courseTrueMillidegrees = 54_700
        $0.courseMagneticMillidegrees = 34_400
        $0.speedMillimetresPerSecond = 2_829
        $0.faaMode = UInt8(ascii: "A")
    }),
    // NMEA 2.3 without the mode field.
    ("GPVTG,359.99,T,,M,100,N,185.2,K", .expected {
        $0.courseTrueMillidegrees = 359_990
        $0.speedMillimetresPerSecond = 51_444
    }),
    // Before NMEA 2.3 some receivers sent no unit letters: true, magnetic, knots, km/h.
    ("GPVTG,054.7,034.4,005.5,010.2", .expected {
        $0.courseTrueMillidegrees = 54_700
        $0.courseMagneticMillidegrees = 34_400
        $0.speedMillimetresPerSecond = 2_829
    }),
    ("GPVTG,,,,", .expected { _ in }),
    // Speed in km/h only: 36 km/h is exactly 10 m/s.
    ("GPVTG,090.0,T,,M,,N,36.0,K,A", .expected {
        $0.courseTrueMillidegrees = 90_000
        $0.speedMillimetresPerSecond = 10_000
        $0.faaMode = UInt8(ascii: "A")
    }),
    ("GNVTG,,T,,M,,N,010.2,K,D", .expected {
        $0.speedMillimetresPerSecond = 2_833
        $0.faaMode = UInt8(ascii: "D")
    }),
    // Knots win over km/h when both are sent.
    ("GPVTG,,T,,M,0.02,N,99.9,K,A", .expected {
        $0.speedMillimetresPerSecond = 10
        $0.faaMode = UInt8(ascii: "A")
    }),
    ("GPVTG,,T,,M,,N,,K,N", .expected {
        $0.faaMode = UInt8(ascii: "N")
    }),
]

private let zdaCases: [(String, ZDA)] = [
    ("GPZDA,201530.00,04,07,2002,00,00", .expected {
        $0.time = timeOfDay(20, 15, 30)
        $0.date = CalendarDate(year: 2002, month: 7, day: 4)
        $0.zoneOffsetMinutes = 0
    }),
    ("GNZDA,000000.50,29,02,2024,-05,30", .expected {
        $0.time = timeOfDay(0, 0, 0, milliseconds: 500)
        $0.date = CalendarDate(year: 2024, month: 2, day: 29)
        $0.zoneOffsetMinutes = -330
    }),
    ("GPZDA,123456,31,12,1999,+13,", .expected {
        $0.time = timeOfDay(12, 34, 56)
        $0.date = CalendarDate(year: 1999, month: 12, day: 31)
        $0.zoneOffsetMinutes = 780
    }),
    // Before the receiver knows the date: time only, and no zone either.
    ("GPZDA,235959.00,,,,,", .expected {
        $0.time = timeOfDay(23, 59, 59)
    }),
    // One date part missing means no date.
    ("GPZDA,101010,,07,2002,,", .expected {
        $0.time = timeOfDay(10, 10, 10)
    }),
]

private let gstCases: [(String, GST)] = [
    ("GPGST,024603.00,3.2,6.6,4.7,47.3,5.8,5.6,22.0", .expected {
        $0.time = timeOfDay(2, 46, 3)
        $0.rmsCentimetres = 320
        $0.semiMajorCentimetres = 660
        $0.semiMinorCentimetres = 470
        $0.orientationMillidegrees = 47_300
        $0.latitudeErrorCentimetres = 580
        $0.longitudeErrorCentimetres = 560
        $0.altitudeErrorCentimetres = 2_200
    }),
    // u-blox leaves the ellipse empty and sends the per-axis errors; centimetres round half up.
    ("GNGST,091500.00,12,,,,0.015,0.024,1.005", .expected {
        $0.time = timeOfDay(9, 15, 0)
        $0.rmsCentimetres = 1_200
        $0.latitudeErrorCentimetres = 2
        $0.longitudeErrorCentimetres = 2
        $0.altitudeErrorCentimetres = 101
    }),
    ("GPGST,235959.00,,,,-12.5,,,", .expected {
        $0.time = timeOfDay(23, 59, 59)
        $0.orientationMillidegrees = -12_500
    }),
]

private let txtCases: [(String, TXT)] = [
    ("GPTXT,01,01,02,ANTSTATUS=OK", .expected {
        $0.total = 1
        $0.number = 1
        $0.identifier = 2
        $0.set(text: "ANTSTATUS=OK")
    }),
    // The text runs to the checksum, commas included.
    ("GNTXT,01,01,07,PF=3FF, rate 1 Hz", .expected {
        $0.total = 1
        $0.number = 1
        $0.identifier = 7
        $0.set(text: "PF=3FF, rate 1 Hz")
    }),
    ("GPTXT,,,,", .expected { _ in }),
]

@Suite("NMEA decoders: VTG, ZDA, GST, TXT")
struct NMEADecoderOtherTests {
    @Test(arguments: vtgCases)
    func vtg(_ body: String, _ expected: VTG) throws {
        #expect(try VTG.decoding(body) == expected)
        #expect(try decode(body) == .vtg(expected))
    }

    @Test(arguments: zdaCases)
    func zda(_ body: String, _ expected: ZDA) throws {
        #expect(try ZDA.decoding(body) == expected)
        #expect(try decode(body) == .zda(expected))
    }

    @Test(arguments: gstCases)
    func gst(_ body: String, _ expected: GST) throws {
        #expect(try GST.decoding(body) == expected)
        #expect(try decode(body) == .gst(expected))
    }

    @Test(arguments: txtCases)
    func txt(_ body: String, _ expected: TXT) throws {
        let txt = try TXT.decoding(body)
        #expect(txt == expected)
        #expect(txt.string == expected.string)
        #expect(try decode(body) == .txt(expected))
    }
}
