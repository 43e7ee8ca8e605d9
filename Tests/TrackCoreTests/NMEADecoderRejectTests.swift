import Testing
import TrackCore

/// A GGA with one field replaced: `ggaWith(2, "4860.000")` puts an impossible latitude in.
private func ggaWith(_ field: Int, _ value: String) -> String {
    var fields = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,".split(
        separator: ",", omittingEmptySubsequences: false).map(String.init)
    fields[field] = value
    return fields.joined(separator: ",")
}

private let rejects: [(String, NMEAError)] = [
    // GGA: positions.
    (ggaWith(2, "4860.000"), .outOfRange(.gga, field: 2)),
    (ggaWith(2, "4899.999"), .outOfRange(.gga, field: 2)),
    (ggaWith(4, "01160.000"), .outOfRange(.gga, field: 4)),
    (ggaWith(2, "9000.001"), .outOfRange(.gga, field: 2)),
    (ggaWith(2, "9100.000"), .outOfRange(.gga, field: 2)),
    (ggaWith(4, "18000.001"), .outOfRange(.gga, field: 4)),
    (ggaWith(4, "18100.000"), .outOfRange(.gga, field: 4)),
    (ggaWith(3, "X"), .malformedField(.gga, field: 3)),
    (ggaWith(3, "E"), .malformedField(.gga, field: 3)),
    (ggaWith(5, "N"), .malformedField(.gga, field: 5)),
    (ggaWith(3, "NN"), .malformedField(.gga, field: 3)),
    (ggaWith(2, "07.038"), .malformedField(.gga, field: 2)),
    (ggaWith(4, "123456.0"), .malformedField(.gga, field: 4)),
    (ggaWith(2, "-4807.038"), .malformedField(.gga, field: 2)),
    (ggaWith(2, "48.07.038"), .malformedField(.gga, field: 2)),
    (ggaWith(2, "4807,038"), .malformedField(.gga, field: 3)),
    // GGA: time.
    (ggaWith(1, "240000"), .outOfRange(.gga, field: 1)),
    (ggaWith(1, "126000"), .outOfRange(.gga, field: 1)),
    (ggaWith(1, "123561"), .outOfRange(.gga, field: 1)),
    (ggaWith(1, "12351"), .malformedField(.gga, field: 1)),
    (ggaWith(1, "1235a9"), .malformedField(.gga, field: 1)),
    (ggaWith(1, "123519:5"), .malformedField(.gga, field: 1)),
    (ggaWith(1, "123519.5a"), .malformedField(.gga, field: 1)),
    // GGA: numbers.
    (ggaWith(9, "12a.4"), .malformedField(.gga, field: 9)),
    (ggaWith(8, "1.2.3"), .malformedField(.gga, field: 8)),
    (ggaWith(9, "."), .malformedField(.gga, field: 9)),
    (ggaWith(9, "-"), .malformedField(.gga, field: 9)),
    (ggaWith(9, "1e3"), .malformedField(.gga, field: 9)),
    (ggaWith(9, " 545.4"), .malformedField(.gga, field: 9)),
    (ggaWith(9, "1000001"), .outOfRange(.gga, field: 9)),
    (ggaWith(8, "-0.9"), .outOfRange(.gga, field: 8)),
    (ggaWith(6, "9a"), .malformedField(.gga, field: 6)),
    (ggaWith(6, "10"), .outOfRange(.gga, field: 6)),
    (ggaWith(7, "-1"), .malformedField(.gga, field: 7)),
    (ggaWith(7, "256"), .outOfRange(.gga, field: 7)),
    (ggaWith(7, "1234567890"), .malformedField(.gga, field: 7)),
    // RMC.
    ("GPRMC,120000,A,,,,,,,310223,,,A", .outOfRange(.rmc, field: 9)),
    ("GPRMC,120000,A,,,,,,,290223,,,A", .outOfRange(.rmc, field: 9)),
    ("GPRMC,120000,A,,,,,,,000124,,,A", .outOfRange(.rmc, field: 9)),
    ("GPRMC,120000,A,,,,,,,011324,,,A", .outOfRange(.rmc, field: 9)),
    ("GPRMC,120000,A,,,,,,,31022,,,A", .malformedField(.rmc, field: 9)),
    ("GPRMC,120000,A,,,,,,,3102a3,,,A", .malformedField(.rmc, field: 9)),
    ("GPRMC,120000,A,,,,,-1.0,,010124,,,A", .outOfRange(.rmc, field: 7)),
    ("GPRMC,120000,A,,,,,,360.1,010124,,,A", .outOfRange(.rmc, field: 8)),
    ("GPRMC,120000,AV,,,,,,,010124,,,A", .malformedField(.rmc, field: 2)),
    ("GPRMC,120000,A,,,,,,,010124,,,AD", .malformedField(.rmc, field: 12)),
    ("GPRMC,120000,A,4807.038,N,01131.000,Q,,,010124,,,A", .malformedField(.rmc, field: 6)),
    // GSA.
    ("GPGSA,A,4,04,05,,,,,,,,,,,2.5,1.3,2.1", .outOfRange(.gsa, field: 2)),
    ("GPGSA,A,3D,04,05,,,,,,,,,,,2.5,1.3,2.1", .malformedField(.gsa, field: 2)),
    ("GPGSA,A,3,1000,05,,,,,,,,,,,2.5,1.3,2.1", .outOfRange(.gsa, field: 3)),
    ("GPGSA,A,3,04,05,,,,,,,,,,,1.2.3,1.3,2.1", .malformedField(.gsa, field: 15)),
    ("GNGSA,A,3,04,05,,,,,,,,,,,2.5,1.3,2.1,16", .outOfRange(.gsa, field: 18)),
    // GSV.
    ("GPGSV,2,3,08,01,40,083,46", .outOfRange(.gsv, field: 2)),
    ("GPGSV,0,0,08", .outOfRange(.gsv, field: 1)),
    ("GPGSV,,1,08", .malformedField(.gsv, field: 1)),
    ("GPGSV,1,,08", .malformedField(.gsv, field: 2)),
    ("GPGSV,1,1,01,01,91,083,46", .outOfRange(.gsv, field: 5)),
    ("GPGSV,1,1,01,01,40,361,46", .outOfRange(.gsv, field: 6)),
    ("GPGSV,1,1,01,01,40,083,100", .outOfRange(.gsv, field: 7)),
    ("GPGSV,1,1,01,a1,40,083,46", .malformedField(.gsv, field: 4)),
    // VTG.
    ("GPVTG,360.5,T,,M,1.0,N,,K,A", .outOfRange(.vtg, field: 1)),
    ("GPVTG,054.7,T,,M,1.2.3,N,,K,A", .malformedField(.vtg, field: 5)),
    ("GPVTG,054.7,T,,M,,N,-1,K,A", .outOfRange(.vtg, field: 7)),
    ("GPVTG,054.7,361,005.5,010.2", .outOfRange(.vtg, field: 2)),
    // GLL.
    ("GPGLL,4960.00,N,12311.12,W,225444,A,A", .outOfRange(.gll, field: 1)),
    ("GPGLL,4916.45,N,12311.12,W,225444,AA,A", .malformedField(.gll, field: 6)),
    ("GPGLL,4916.45,N,12311.12,W,246000,A,A", .outOfRange(.gll, field: 5)),
    // GNS.
    ("GNGNS,224749.00,9333.4268,N,11153.3538,W,D,19,0.6,406.1,-26.3,,,S", .outOfRange(.gns, field: 2)),
    ("GNGNS,224749.00,3333.4268,N,11153.3538,W,D,256,0.6,406.1,-26.3,,,S", .outOfRange(.gns, field: 7)),
    ("GNGNS,224749.00,3333.4268,N,11153.3538,W,D,19,0.6,406.1,-26.3,,,SS", .malformedField(.gns, field: 13)),
    // ZDA.
    ("GPZDA,201530.00,31,02,2023,00,00", .outOfRange(.zda, field: 4)),
    ("GPZDA,201530.00,32,07,2002,00,00", .outOfRange(.zda, field: 2)),
    ("GPZDA,201530.00,04,13,2002,00,00", .outOfRange(.zda, field: 3)),
    ("GPZDA,201530.00,04,07,1979,00,00", .outOfRange(.zda, field: 4)),
    ("GPZDA,201530.00,04,07,02,00,00", .outOfRange(.zda, field: 4)),
    ("GPZDA,201530.00,04,07,2002,14,00", .outOfRange(.zda, field: 5)),
    ("GPZDA,201530.00,04,07,2002,01,60", .outOfRange(.zda, field: 6)),
    ("GPZDA,206030.00,04,07,2002,00,00", .outOfRange(.zda, field: 1)),
    // GST.
    ("GPGST,024603.00,-3.2,6.6,4.7,47.3,5.8,5.6,22.0", .outOfRange(.gst, field: 2)),
    ("GPGST,024603.00,12a.4,6.6,4.7,47.3,5.8,5.6,22.0", .malformedField(.gst, field: 2)),
    ("GPGST,024603.00,3.2,6.6,4.7,361,5.8,5.6,22.0", .outOfRange(.gst, field: 5)),
    // TXT.
    ("GPTXT,1a,01,02,ANTSTATUS=OK", .malformedField(.txt, field: 1)),
    ("GPTXT,01,01,100,ANTSTATUS=OK", .outOfRange(.txt, field: 3)),
    // Too few fields, for every decoder (the count includes the address).
    ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9", .tooFewFields(.gga, count: 9)),
    ("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4", .tooFewFields(.rmc, count: 9)),
    ("GPGSA,A", .tooFewFields(.gsa, count: 2)),
    ("GPGSV,1,1", .tooFewFields(.gsv, count: 3)),
    ("GPVTG,054.7,T,034.4", .tooFewFields(.vtg, count: 4)),
    ("GPGLL,4916.45,N,12311.12", .tooFewFields(.gll, count: 4)),
    ("GNGNS,224749.00,3333.4268304,N,11153.3538273,W", .tooFewFields(.gns, count: 6)),
    ("GPZDA,201530.00,04,07", .tooFewFields(.zda, count: 4)),
    ("GPGST,024603.00,3.2,6.6,4.7,47.3,5.8,5.6", .tooFewFields(.gst, count: 8)),
    ("GPTXT,01,01,02", .tooFewFields(.txt, count: 4)),
    ("GPGGA", .tooFewFields(.gga, count: 1)),
]

/// Every decodable type with all its fields empty.
private let blanks: [String] = [
    GGA.blankBody, RMC.blankBody, GLL.blankBody, GNS.blankBody, GSA.blankBody, VTG.blankBody,
    ZDA.blankBody, GST.blankBody, TXT.blankBody,
    "GPVTG,,,,", "GPGSA,,,,,,", "GNGSA,,,,,,,,,,,,,,,,,,", "GPGLL,,,,", "GNGNS,,,,,,",
]

/// The decoded value inside a message, for reflection.
private func payload(_ message: NMEAMessage) -> Any? {
    switch message {
    case .gga(let value): value
    case .rmc(let value): value
    case .gsa(let value): value
    case .gsv(let value): value
    case .vtg(let value): value
    case .gll(let value): value
    case .gns(let value): value
    case .zda(let value): value
    case .gst(let value): value
    case .txt(let value): value
    case .other, .unknown, .proprietary: nil
    }
}

/// Names of the optional properties of `value` that hold something.
private func presentOptionals(_ value: Any) -> [String] {
    Mirror(reflecting: value).children.compactMap { child in
        let mirror = Mirror(reflecting: child.value)
        guard mirror.displayStyle == .optional, !mirror.children.isEmpty else { return nil }
        return child.label ?? "?"
    }
}

/// Counts (`satelliteCount`, `length`) of `value` that are not zero.
private func nonZeroCounts(_ value: Any) -> [String] {
    Mirror(reflecting: value).children.compactMap { child in
        guard let count = child.value as? Int, count != 0 else { return nil }
        return child.label ?? "?"
    }
}

@Suite("NMEA decoders: rejects, empty fields, talkers")
struct NMEADecoderRejectTests {
    @Test(arguments: rejects)
    func rejected(_ body: String, _ error: NMEAError) {
        #expect(throws: error) { try decode(body) }
    }

    @Test("empty fields decode to nil, never 0", arguments: blanks)
    func emptyFieldsAreNil(_ body: String) throws {
        let message = try decode(body)
        let value = try #require(payload(message))
        #expect(presentOptionals(value) == [])
        #expect(nonZeroCounts(value) == [])
    }

    @Test("an empty GSV keeps its numbering, says nothing else")
    func emptyGSV() throws {
        let gsv = try GSV.decoding("GPGSV,1,1,,,,,")
        #expect(gsv.satellitesInView == nil)
        #expect(gsv.satelliteCount == 0)
        #expect(gsv.signalID == nil)
    }

    @Test("standard talkers decode alike", arguments: ["GP", "GL", "GA", "GB", "BD", "GQ", "QZ", "GN", "GI"])
    func talkers(_ talker: String) throws {
        let bytes = Array(talker.utf8)
        let packed = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        let bodies = [
            "GGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "RMC,225446.33,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E,A",
            "GSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1",
            "GSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45",
        ]
        for body in bodies {
            let sentence = try NMEASentence(parsing: nmea(talker + body))
            #expect(sentence.talker == packed)
            #expect(try NMEAMessage(sentence) == decode("GP" + body), "\(talker)\(body)")
        }
    }

    @Test("$PQGSV is Quectel's QZSS talker: decoded as GSV")
    func quectelQZSS() throws {
        let body = "GSV,1,1,02,193,45,120,38,194,30,250,35"
        let sentence = try NMEASentence(parsing: nmea("PQ" + body))
        #expect(sentence.type == .gsv)
        #expect(sentence.talker == 0x5051)
        #expect(try NMEAMessage(sentence) == decode("QZ" + body))
    }

    @Test("proprietary and unknown sentences are recognised, not decoded", arguments: [
        ("PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0",
         NMEAMessage.proprietary),
        ("PUBX,04,073731.00,091202,113851.00,1196,15D,1930035,-2660.664,43", .proprietary),
        ("PGRME,15.0,M,45.0,M,25.0,M", .proprietary),
        ("PMTK001,314,3", .proprietary),
        ("PSRF150,1", .proprietary),
        ("GPGRS,112257.00,1,-0.1,-0.3,-0.1,,,,,,,,,", .unknown),
        ("GPRMB,A,0.66,L,003,004,4917.24,N,12309.57,W,001.3,052.5,000.5,V", .unknown),
        ("GNGRS,091500.00,1,-0.3,0.5,,,,,,,,,,", .unknown),
        ("GPHDT,274.07,T", .unknown),
    ])
    func notDecoded(_ body: String, _ expected: NMEAMessage) throws {
        #expect(try decode(body) == expected)
    }
}

@Suite("NMEA decoders: receiver quirks and limits")
struct NMEADecoderQuirkTests {
    // Garmin's `$PGRMC` (sensor configuration) is proprietary, but its last three letters are
    // `RMC`: only the `PQ` talker (Quectel QZSS) should turn a `$P…` address into a decoded one.
    @Test("Garmin $PGRMC is proprietary, not an RMC")
    func garminPGRMC() throws {
        #expect(try decode("PGRMC,A,218.8,100,6378137.000,298.257223563,0.0,0.0,0.0,A,3,1,1,4,30") == .proprietary)
        let counters = receive(sentences: ["PGRMC,A,218.8,100,6378137.000,298.257223563,0.0,0.0,0.0,A,3,1,1,4,30"]).counters
        #expect(counters.proprietary == 1)
        #expect(counters.malformed == 0)
    }

    // Sixteen nines at scale 3 (or seventeen at scale 2) do not fit Int64 once scaled: a
    // sentence with a good checksum must be rejected as malformed, never trap.
    @Test("a 16-digit number in a decimal field is rejected, not a trap", arguments: [
        "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,9999999999999999,M,46.9,M,,",
        "GPGGA,123519,4807.038,N,01131.000,E,1,08,99999999999999999,545.4,M,46.9,M,,",
        "GPVTG,054.7,T,,M,9999999999999999,N,,K,A",
    ])
    func hugeDecimal(_ body: String) async {
        await #expect(processExitsWith: .success, observing: []) { [body] in
            _ = try? decode(body)
        }
        #expect(throws: NMEAError.self) { try decode(body) }
    }

    @Test("15 digits still decode and are range-checked")
    func fifteenDigits() {
        #expect(throws: NMEAError.outOfRange(.gga, field: 9)) {
            try decode("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,123456789012345,M,46.9,M,,")
        }
    }
}
