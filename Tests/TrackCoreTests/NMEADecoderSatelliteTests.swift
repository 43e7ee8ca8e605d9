import Testing
import TrackCore

extension GSA: BlankDecodable { static var blankBody: String { "GPGSA,,,,,,,,,,,,,,,,," } }
extension GSV: BlankDecodable { static var blankBody: String { "GPGSV,1,1," } }

extension GSA {
    /// Sets the satellites used, in order.
    mutating func set(satellites ids: [UInt16]) {
        for (index, id) in ids.enumerated() { satellites[index] = id }
        satelliteCount = ids.count
    }
}

extension GSV {
    /// Sets the satellites in view, in order.
    mutating func set(satellites list: [SatelliteInView]) {
        for (index, satellite) in list.enumerated() { satellites[index] = satellite }
        satelliteCount = list.count
    }
}

/// A satellite entry, e.g. `sat(1, 40, 83, 46)`.
private func sat(_ id: UInt16, _ elevation: Int8?, _ azimuth: Int16?, _ snr: UInt8?) -> SatelliteInView {
    SatelliteInView(id: id, elevationDegrees: elevation, azimuthDegrees: azimuth, snr: snr)
}

/// The Navior CH-4701's GSA: 24 satellite slots instead of 12, so 30 fields in all.
private func naviorGSA(_ ids: [String]) -> String {
    (["GPGSA", "A", "3"] + ids + Array(repeating: "", count: 24 - ids.count) + ["09.2", "07.2", "05.7"])
        .joined(separator: ",")
}

private let fourteen: [UInt16] = [1, 2, 3, 5, 6, 9, 12, 14, 17, 19, 22, 24, 25, 31]

private let gsaCases: [(String, GSA)] = [
    ("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", .expected {
        $0.selection = UInt8(ascii: "A")
        $0.fixType = 3
        $0.set(satellites: [4, 5, 9, 12, 24])
        $0.pdopCenti = 250
        $0.hdopCenti = 130
        $0.vdopCenti = 210
    }),
    ("GPGSA,M,2,05,12,,,,,,,,,,,3.1,2.9,1.0", .expected {
        $0.selection = UInt8(ascii: "M")
        $0.fixType = 2
        $0.set(satellites: [5, 12])
        $0.pdopCenti = 310
        $0.hdopCenti = 290
        $0.vdopCenti = 100
    }),
    // NMEA 4.1: a system ID after VDOP (2 GLONASS, 3 Galileo), one GSA per constellation.
    ("GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2", .expected {
        $0.selection = UInt8(ascii: "A")
        $0.fixType = 3
        $0.set(satellites: [80, 71, 73, 79, 69])
        $0.pdopCenti = 183
        $0.hdopCenti = 109
        $0.vdopCenti = 147
        $0.systemID = 2
    }),
    ("GNGSA,A,3,07,11,19,26,30,,,,,,,,1.40,0.78,1.16,3", .expected {
        $0.selection = UInt8(ascii: "A")
        $0.fixType = 3
        $0.set(satellites: [7, 11, 19, 26, 30])
        $0.pdopCenti = 140
        $0.hdopCenti = 78
        $0.vdopCenti = 116
        $0.systemID = 3
    }),
    (naviorGSA(["23", "13", "07", "25"]), .expected {
        $0.selection = UInt8(ascii: "A")
        $0.fixType = 3
        $0.set(satellites: [23, 13, 7, 25])
        $0.pdopCenti = 920
        $0.hdopCenti = 720
        $0.vdopCenti = 570
    }),
    (naviorGSA(fourteen.map { String($0) }), .expected {
        $0.selection = UInt8(ascii: "A")
        $0.fixType = 3
        $0.set(satellites: fourteen)
        $0.pdopCenti = 920
        $0.hdopCenti = 720
        $0.vdopCenti = 570
    }),
    // The i.Trek M3 without a fix sends only the mode: short, but usable.
    ("GPGSA,A,1,,,,", .expected {
        $0.selection = UInt8(ascii: "A")
        $0.fixType = 1
    }),
    // Antaris puts `E` (dead reckoning) in the fix type; 99.99 is the BT-451's "no DOP".
    ("GPGSA,A,E,,,,,,,,,,,,,99.99,99.99,99.99", .expected {
        $0.selection = UInt8(ascii: "A")
    }),
]

private let gsvCases: [(String, GSV)] = [
    ("GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45", .expected {
        $0.total = 2
        $0.number = 1
        $0.satellitesInView = 8
        $0.set(satellites: [sat(1, 40, 83, 46), sat(2, 17, 308, 41), sat(12, 7, 344, 39), sat(14, 22, 228, 45)])
    }),
    // The last of a set: fewer entries; an untracked satellite has no SNR.
    ("GPGSV,2,2,08,15,12,100,,16,05,200,30", .expected {
        $0.total = 2
        $0.number = 2
        $0.satellitesInView = 8
        $0.set(satellites: [sat(15, 12, 100, nil), sat(16, 5, 200, 30)])
    }),
    // NMEA 4.1 signal ID after the groups (Galileo E5b = 7); a satellite with no position yet.
    ("GAGSV,1,1,03,02,48,112,40,11,,,35,36,10,300,,7", .expected {
        $0.total = 1
        $0.number = 1
        $0.satellitesInView = 3
        $0.set(satellites: [sat(2, 48, 112, 40), sat(11, nil, nil, 35), sat(36, 10, 300, nil)])
        $0.signalID = 7
    }),
    ("GLGSV,1,1,00", .expected {
        $0.total = 1
        $0.number = 1
        $0.satellitesInView = 0
    }),
    ("GBGSV,1,1,00,1", .expected {
        $0.total = 1
        $0.number = 1
        $0.satellitesInView = 0
        $0.signalID = 1
    }),
    // An empty slot is skipped, not read as satellite 0.
    ("GPGSV,1,1,02,,,,,07,10,020,33", .expected {
        $0.total = 1
        $0.number = 1
        $0.satellitesInView = 2
        $0.set(satellites: [sat(7, 10, 20, 33)])
    }),
    // Quectel's QZSS talker `PQ`, with the two trailing fields its firmware appends: the signal
    // ID and the system ID (gpsd 3.27 reads them so), and no satellite.
    ("PQGSV,1,1,04,193,45,120,38,194,30,250,,195,,,,199,05,010,,0,4", .expected {
        $0.total = 1
        $0.number = 1
        $0.satellitesInView = 4
        $0.signalID = 0
        $0.systemID = 4
        $0.set(satellites: [sat(193, 45, 120, 38), sat(194, 30, 250, nil), sat(195, nil, nil, nil), sat(199, 5, 10, nil)])
    }),
]

@Suite("NMEA decoders: satellites")
struct NMEADecoderSatelliteTests {
    @Test(arguments: gsaCases)
    func gsa(_ body: String, _ expected: GSA) throws {
        let gsa = try GSA.decoding(body)
        #expect(gsa == expected)
        #expect(Array(0..<gsa.satelliteCount).map { gsa.satellites[$0] }
            == Array(0..<expected.satelliteCount).map { expected.satellites[$0] })
        #expect(try decode(body) == .gsa(expected))
    }

    @Test func naviorGSAHasThirtyFields() throws {
        #expect(try NMEASentence(parsing: nmea(naviorGSA(["23"]))).fieldCount == 30)
    }

    @Test(arguments: gsvCases)
    func gsv(_ body: String, _ expected: GSV) throws {
        let gsv = try GSV.decoding(body)
        #expect(gsv == expected)
        #expect(Array(0..<gsv.satelliteCount).map { gsv.satellites[$0] }
            == Array(0..<expected.satelliteCount).map { expected.satellites[$0] })
        #expect(try decode(body) == .gsv(expected))
    }
}
