import Testing
import TrackCore

/// A decoder whose expected values are written as "all fields empty, then these set".
protocol BlankDecodable: Equatable, Sendable {
    /// A sentence of this type with every field empty.
    static var blankBody: String { get }
    init(_ s: borrowing NMEASentence) throws(NMEAError)
}

extension BlankDecodable {
    /// The blank sentence decoded (every optional nil), changed by `configure`.
    static func expected(_ configure: (inout Self) -> Void) -> Self {
        // The blank bodies are constants that decode; a failure here is a broken test table.
        var value = try! Self(NMEASentence(parsing: nmea(blankBody)))
        configure(&value)
        return value
    }

    /// Decodes one sentence body (checksum added).
    static func decoding(_ body: String) throws(NMEAError) -> Self {
        try Self(NMEASentence(parsing: nmea(body)))
    }
}

extension GGA: BlankDecodable { static var blankBody: String { "GPGGA,,,,,,,,,,,,,," } }
extension RMC: BlankDecodable { static var blankBody: String { "GPRMC,,,,,,,,,,,," } }
extension GLL: BlankDecodable { static var blankBody: String { "GPGLL,,,,,,," } }
extension GNS: BlankDecodable { static var blankBody: String { "GNGNS,,,,,,,,,,,,," } }

/// Nanodegree coordinates, e.g. `at(48_117_300_000, 11_516_666_667)`.
func at(_ latitude: Int64, _ longitude: Int64) -> Coordinate {
    Coordinate(latitudeNanodegrees: latitude, longitudeNanodegrees: longitude)
}

private let ggaCases: [(String, GGA)] = [
    ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", .expected {
        $0.time = timeOfDay(12, 35, 19)
        $0.position = at(48_117_300_000, 11_516_666_667)
        $0.quality = 1
        $0.satellitesUsed = 8
        $0.hdopCenti = 90
        $0.altitudeMSLMillimetres = 545_400
        $0.geoidSeparationMillimetres = 46_900
    }),
    // Southern and western hemispheres, negative altitude and separation, DGPS age and station.
    ("GNGGA,000000.00,3351.0000,S,15112.5000,W,2,12,0.75,-12.3,M,-34.0,M,1.5,0123", .expected {
        $0.time = timeOfDay(0, 0, 0)
        $0.position = at(-33_850_000_000, -151_208_333_333)
        $0.quality = 2
        $0.satellitesUsed = 12
        $0.hdopCenti = 75
        $0.altitudeMSLMillimetres = -12_300
        $0.geoidSeparationMillimetres = -34_000
        $0.dgpsAgeMilliseconds = 1_500
        $0.dgpsStation = 123
    }),
    // Survey receivers: seven decimals of minutes; altitude rounded half away from zero.
    ("GNGGA,101010.20,3723.2475123,N,12158.3416789,W,4,24,0.5,12.0345,M,-32.1,M,2,1023", .expected {
        $0.time = timeOfDay(10, 10, 10, milliseconds: 200)
        $0.position = at(37_387_458_538, -121_972_361_315)
        $0.quality = 4
        $0.satellitesUsed = 24
        $0.hdopCenti = 50
        $0.altitudeMSLMillimetres = 12_035
        $0.geoidSeparationMillimetres = -32_100
        $0.dgpsAgeMilliseconds = 2_000
        $0.dgpsStation = 1023
    }),
    // No fix: what the receiver sends is kept (0 satellites is data); what it leaves out is nil.
    ("GPGGA,235959.999,,,,,0,00,99.99,,M,,M,,", .expected {
        $0.time = timeOfDay(23, 59, 59, milliseconds: 999)
        $0.quality = 0
        $0.satellitesUsed = 0
        $0.hdopCenti = 9999
    }),
    // A leap second reads 23:59:60.
    ("GPGGA,235960,0000.0001,N,18000.000,W,1,4,2.0,0,M,0,M,,", .expected {
        $0.time = TimeOfDay(millisecondsSinceMidnight: 86_400_000)
        $0.position = at(1_667, -180_000_000_000)
        $0.quality = 1
        $0.satellitesUsed = 4
        $0.hdopCenti = 200
        $0.altitudeMSLMillimetres = 0
        $0.geoidSeparationMillimetres = 0
    }),
]

private let rmcCases: [(String, RMC)] = [
    ("GPRMC,225446.33,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E,A", .expected {
        $0.time = timeOfDay(22, 54, 46, milliseconds: 330)
        $0.status = UInt8(ascii: "A")
        $0.position = at(49_274_166_667, -123_185_333_333)
        $0.speedMillimetresPerSecond = 257
        $0.courseMillidegrees = 54_700
        $0.date = CalendarDate(year: 1994, month: 11, day: 19)
        $0.magneticVariationMillidegrees = 20_300
        $0.faaMode = UInt8(ascii: "A")
    }),
    // NMEA 2.0: no FAA mode field; westerly variation is negative.
    ("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", .expected {
        $0.time = timeOfDay(12, 35, 19)
        $0.status = UInt8(ascii: "A")
        $0.position = at(48_117_300_000, 11_516_666_667)
        $0.speedMillimetresPerSecond = 11_524
        $0.courseMillidegrees = 84_400
        $0.date = CalendarDate(year: 1994, month: 3, day: 23)
        $0.magneticVariationMillidegrees = -3_100
    }),
    // Warning status with the date only; `0.0,E` is how many receivers say "variation unknown".
    ("GNRMC,235959.00,V,,,,,,,010124,0.0,E,N", .expected {
        $0.time = timeOfDay(23, 59, 59)
        $0.status = UInt8(ascii: "V")
        $0.date = CalendarDate(year: 2024, month: 1, day: 1)
        $0.faaMode = UInt8(ascii: "N")
    }),
    // Two-digit years: 80 is 1980 (GPS began in 1980), 79 is 2079; 29 Feb of a leap year.
    ("GPRMC,000000,A,0000.000,S,00000.000,E,0,0,060180,,,A", .expected {
        $0.time = timeOfDay(0, 0, 0)
        $0.status = UInt8(ascii: "A")
        $0.position = at(0, 0)
        $0.speedMillimetresPerSecond = 0
        $0.courseMillidegrees = 0
        $0.date = CalendarDate(year: 1980, month: 1, day: 6)
        $0.faaMode = UInt8(ascii: "A")
    }),
    ("GPRMC,120000,A,,,,,,,291279,,,D", .expected {
        $0.time = timeOfDay(12, 0, 0)
        $0.status = UInt8(ascii: "A")
        $0.date = CalendarDate(year: 2079, month: 12, day: 29)
        $0.faaMode = UInt8(ascii: "D")
    }),
    ("GPRMC,120000,A,,,,,,,290224,,,A", .expected {
        $0.time = timeOfDay(12, 0, 0)
        $0.status = UInt8(ascii: "A")
        $0.date = CalendarDate(year: 2024, month: 2, day: 29)
        $0.faaMode = UInt8(ascii: "A")
    }),
    // Variation sentinels that must not reject the sentence: CAT MS352 `999.9,E`, Motorola
    // T805 `0,A` (a mode letter where E/W belongs).
    ("GPRMC,120000,A,,,,,,,010124,999.9,E,A", .expected {
        $0.time = timeOfDay(12, 0, 0)
        $0.status = UInt8(ascii: "A")
        $0.date = CalendarDate(year: 2024, month: 1, day: 1)
        $0.faaMode = UInt8(ascii: "A")
    }),
    ("GPRMC,120000,A,,,,,,,010124,0,A", .expected {
        $0.time = timeOfDay(12, 0, 0)
        $0.status = UInt8(ascii: "A")
        $0.date = CalendarDate(year: 2024, month: 1, day: 1)
    }),
]

private let gllCases: [(String, GLL)] = [
    ("GPGLL,4916.45,N,12311.12,W,225444,A,A", .expected {
        $0.position = at(49_274_166_667, -123_185_333_333)
        $0.time = timeOfDay(22, 54, 44)
        $0.status = UInt8(ascii: "A")
        $0.faaMode = UInt8(ascii: "A")
    }),
    // The Garmin 65 sends neither time nor status.
    ("GPGLL,5130.1234,N,00007.5000,W", .expected {
        $0.position = at(51_502_056_667, -125_000_000)
    }),
    ("GNGLL,,,,,091500.00,V,N", .expected {
        $0.time = timeOfDay(9, 15, 0)
        $0.status = UInt8(ascii: "V")
        $0.faaMode = UInt8(ascii: "N")
    }),
]

private let gnsCases: [(String, GNS)] = [
    ("GPGNS,224749.00,3333.4268304,N,11153.3538273,W,D,19,0.6,406.110,-26.294,6.0,0138,S", .expected {
        $0.time = timeOfDay(22, 47, 49)
        $0.position = at(33_557_113_840, -111_889_230_455)
        $0.mode = UInt8(ascii: "D")
        $0.satellitesUsed = 19
        $0.hdopCenti = 60
        $0.altitudeMSLMillimetres = 406_110
        $0.geoidSeparationMillimetres = -26_294
        $0.navigationStatus = UInt8(ascii: "S")
    }),
    // One mode letter per constellation: the first (GPS) is kept. No navigation status before 4.1.
    ("GNGNS,014035.00,3515.7612,N,13942.2083,E,ANN,08,1.2,45.0,39.5,,", .expected {
        $0.time = timeOfDay(1, 40, 35)
        $0.position = at(35_262_686_667, 139_703_471_667)
        $0.mode = UInt8(ascii: "A")
        $0.satellitesUsed = 8
        $0.hdopCenti = 120
        $0.altitudeMSLMillimetres = 45_000
        $0.geoidSeparationMillimetres = 39_500
    }),
]

@Suite("NMEA decoders: position sentences")
struct NMEADecoderTests {
    @Test(arguments: ggaCases)
    func gga(_ body: String, _ expected: GGA) throws {
        #expect(try GGA.decoding(body) == expected)
        #expect(try decode(body) == .gga(expected))
    }

    @Test(arguments: rmcCases)
    func rmc(_ body: String, _ expected: RMC) throws {
        #expect(try RMC.decoding(body) == expected)
        #expect(try decode(body) == .rmc(expected))
    }

    @Test(arguments: gllCases)
    func gll(_ body: String, _ expected: GLL) throws {
        #expect(try GLL.decoding(body) == expected)
        #expect(try decode(body) == .gll(expected))
    }

    @Test(arguments: gnsCases)
    func gns(_ body: String, _ expected: GNS) throws {
        #expect(try GNS.decoding(body) == expected)
        #expect(try decode(body) == .gns(expected))
    }

    @Test("latitude field (longitude fixed at 01131.000,E)", arguments: [
        ("4807.038", "N", Int64?.some(48_117_300_000)),
        ("4807.038", "S", -48_117_300_000),
        ("4807", "N", 48_116_666_667),
        ("4807.", "N", 48_116_666_667),
        ("807.038", "N", 8_117_300_000),
        ("4807.0380000", "N", 48_117_300_000),
        ("4807.0381", "N", 48_117_301_667),
        // Digits past the ninth decimal of a minute are below a micrometre and dropped.
        ("4807.03812345678", "N", 48_117_302_058),
        ("0000.000", "N", 0),
        ("9000.000", "N", 90_000_000_000),
        ("9000.000", "S", -90_000_000_000),
        // Absent data is nil, never 0: an empty value, or a value without its hemisphere.
        ("", "N", nil),
        ("", "", nil),
        ("4807.038", "", nil),
    ])
    func latitude(_ value: String, _ hemisphere: String, _ expected: Int64?) throws {
        let gga = try GGA.decoding("GPGGA,123519,\(value),\(hemisphere),01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(gga.position?.latitudeNanodegrees == expected)
        if expected != nil { #expect(gga.position?.longitudeNanodegrees == 11_516_666_667) }
    }

    @Test("time field", arguments: [
        ("123519", Int32?.some(45_319_000)),
        ("123519.5", 45_319_500),
        ("123519.50", 45_319_500),
        ("123519.123", 45_319_123),
        ("123519.1239", 45_319_123),
        ("123519.", 45_319_000),
        ("000000", 0),
        ("235959.999", 86_399_999),
        ("235960", 86_400_000),
        ("", nil),
    ])
    func time(_ field: String, _ milliseconds: Int32?) throws {
        let gga = try GGA.decoding("GPGGA,\(field),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(gga.time?.millisecondsSinceMidnight == milliseconds)
    }

    @Test("decimal field (altitude, scale 3)", arguments: [
        ("545.4", Int32?.some(545_400)),
        ("545", 545_000),
        ("+5", 5_000),
        ("-12.3456", -12_346),
        ("0.0005", 1),
        ("-0.0005", -1),
        ("0.0004", 0),
        (".5", 500),
        ("5.", 5_000),
        ("000123.4000000", 123_400),
        ("1000000", 1_000_000_000),
        ("-1000000", -1_000_000_000),
        ("", nil),
    ])
    func decimal(_ field: String, _ millimetres: Int32?) throws {
        let gga = try GGA.decoding("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,\(field),M,46.9,M,,")
        #expect(gga.altitudeMSLMillimetres == millimetres)
    }
}
