import Testing
import TrackCore

// One receiver at 52.52°N 13.405°E, 34.5 m above the geoid, moving east at 5 knots.
private let position = at(52_520_000_000, 13_405_000_000)
private func rmc(_ time: String, _ date: String = "150624", status: String = "A", mode: String = "A") -> String {
    "GNRMC,\(time),\(status),5231.2000,N,01324.3000,E,5.0,90.0,\(date),,,\(mode)"
}
private func gga(_ time: String, quality: Int = 1, satellites: String = "08", altitude: String = "34.5") -> String {
    "GNGGA,\(time),5231.2000,N,01324.3000,E,\(quality),\(satellites),1.0,\(altitude),M,39.7,M,,"
}
private func gsa(_ fixType: Int = 3) -> String {
    "GNGSA,A,\(fixType),01,03,08,11,14,17,22,28,,,,,1.6,0.9,1.3"
}

/// The fix that `rmc` + `gga` + `gsa` at `time` on 2024-06-15 should give.
private func fullFix(_ hour: Int32, _ minute: Int32, _ second: Int32) -> Fix {
    makeFix {
        $0.time = utc(2024, 6, 15, hour, minute, second)
        $0.mode = .threeD
        $0.quality = 1
        $0.position = position
        $0.altitudeMSLMillimetres = 34_500
        $0.geoidSeparationMillimetres = 39_700
        $0.speedMillimetresPerSecond = 2_572
        $0.courseMillidegrees = 90_000
        $0.satellitesUsed = 8
        // GSA's DOPs: it comes after GGA, whose HDOP (1.0) it replaces.
        $0.hdopCenti = 90
        $0.pdopCenti = 160
        $0.vdopCenti = 130
    }
}

@Suite("NMEA epoch assembly")
struct NMEAEpochTests {
    @Test("GGA, RMC and GSA with one time make one fix")
    func oneFixPerEpoch() {
        let result = receive(sentences: [
            rmc("120000.00"), gga("120000.00"), gsa(),
            rmc("120001.00"), gga("120001.00"), gsa(),
        ])
        #expect(result.fixes == [fullFix(12, 0, 0), fullFix(12, 0, 1)])
        #expect(result.counters.accepted == 6)
        #expect(result.counters.fixes == 2)
    }

    @Test("the order of sentences within an epoch does not matter")
    func orderWithinEpoch() {
        let result = receive(sentences: [gga("120000.00"), rmc("120000.00"), gsa()])
        #expect(result.fixes == [fullFix(12, 0, 0)])
    }

    @Test("GGA before any date has no time; RMC then gives the date")
    func ggaBeforeDate() {
        let result = receive(sentences: [
            gga("115959.00"),
            gga("120000.00"), rmc("120000.00"),
            gga("120001.00"),
        ])
        #expect(result.fixes.map(\.time) == [nil, utc(2024, 6, 15, 12, 0, 0), utc(2024, 6, 15, 12, 0, 1)])
        #expect(result.fixes.first?.mode == .threeD)
        #expect(result.fixes.first?.position == position)
    }

    @Test("GGA after a date rolls over at midnight", arguments: [
        ("311224", utc(2024, 12, 31, 23, 59, 59), utc(2025, 1, 1, 0, 0, 0)),
        ("280224", utc(2024, 2, 28, 23, 59, 59), utc(2024, 2, 29, 0, 0, 0)),
        ("290224", utc(2024, 2, 29, 23, 59, 59), utc(2024, 3, 1, 0, 0, 0)),
        ("280223", utc(2023, 2, 28, 23, 59, 59), utc(2023, 3, 1, 0, 0, 0)),
        ("300624", utc(2024, 6, 30, 23, 59, 59), utc(2024, 7, 1, 0, 0, 0)),
    ])
    func midnightRollover(_ date: String, _ before: UTCTime?, _ after: UTCTime?) {
        let result = receive(sentences: [
            rmc("235959.00", date), gga("235959.00"),
            gga("000000.00"), gga("000001.00"),
        ])
        let nextSecond = after.map { UTCTime(millisecondsSinceEpoch: $0.millisecondsSinceEpoch + 1000) }
        #expect(result.fixes.map(\.time) == [before, after, nextSecond])
    }

    @Test("GSA's fix type decides 2D/3D", arguments: [(1, FixMode.noFix), (2, .twoD), (3, .threeD)])
    func gsaFixType(_ fixType: Int, _ mode: FixMode) {
        let result = receive(sentences: [rmc("120000.00"), gga("120000.00"), gsa(fixType)])
        #expect(result.fixes.map(\.mode) == [mode])
    }

    @Test("without GSA: a position with an altitude is 3D, a position alone 2D")
    func modeWithoutGSA() {
        #expect(receive(sentences: [gga("120000.00")]).fixes.map(\.mode) == [.threeD])
        #expect(receive(sentences: [gga("120000.00", altitude: "")]).fixes.map(\.mode) == [.twoD])
        #expect(receive(sentences: [rmc("120000.00")]).fixes.map(\.mode) == [.twoD])
        // A 3D receiver that sends only RMC in some epochs stays 3D.
        let mixed = receive(sentences: [rmc("120000.00"), gga("120000.00"), rmc("120001.00")])
        #expect(mixed.fixes.map(\.mode) == [.threeD, .threeD])
    }

    @Test("RMC status V or FAA mode N means no fix", arguments: [
        rmc("120001.00", status: "V"),
        rmc("120001.00", mode: "N"),
        "GNRMC,120001.00,V,,,,,,,150624,,,N",
    ])
    func rmcInvalid(_ body: String) {
        let result = receive(sentences: [rmc("120000.00"), body])
        #expect(result.fixes.map(\.mode) == [.twoD, .noFix])
        #expect(result.fixes.last?.time == utc(2024, 6, 15, 12, 0, 1))
        #expect(result.fixes.last?.position == nil)
        #expect(result.fixes.last?.speedMillimetresPerSecond == nil)
    }

    @Test("GGA quality 0 means no fix")
    func ggaQualityZero() {
        let result = receive(sentences: [
            rmc("120000.00", status: "V"), gga("120000.00", quality: 0),
            "GNGGA,120001.00,,,,,0,00,99.99,,M,,M,,",
        ])
        #expect(result.fixes.map(\.mode) == [.noFix, .noFix])
        #expect(result.fixes.allSatisfy { $0.position == nil && $0.altitudeMSLMillimetres == nil })
        #expect(json(result.fixes[1]) == #"{"class":"TPV","mode":1}"#)
    }

    @Test("GSAs of one epoch add up the satellites used; the next epoch starts again")
    func severalGSA() {
        let epoch = [
            "GNGSA,A,3,05,13,15,18,23,,,,,,,,1.20,0.70,0.98,1",
            "GNGSA,A,3,66,67,76,77,,,,,,,,,1.20,0.70,0.98,2",
            "GNGSA,A,3,04,09,36,,,,,,,,,,1.20,0.70,0.98,3",
        ]
        let result = receive(sentences: [rmc("120000.00"), gga("120000.00", satellites: "14")] + epoch
            + [rmc("120001.00"), gga("120001.00", satellites: "14")] + epoch)
        #expect(result.fixes.map(\.satellitesUsed) == [12, 12])
        #expect(result.fixes.map(\.hdopCenti) == [70, 70])
        // GGA's count stands when no GSA lists satellites.
        #expect(receive(sentences: [gga("120000.00", satellites: "14")]).fixes.map(\.satellitesUsed) == [14])
    }

    @Test("GSV satellites in view are summed over talkers and carried to the next epoch")
    func satellitesInView() {
        let result = receive(sentences: [
            rmc("120000.00"), gga("120000.00"),
            "GPGSV,3,1,11,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45",
            "GPGSV,3,2,11,15,12,100,,16,05,200,30,17,60,045,44,19,33,150,40",
            "GPGSV,3,3,11,22,10,010,,24,71,270,48,25,02,180,",
            "GLGSV,2,1,07,65,20,030,35,66,45,100,40,67,30,200,38,75,10,300,",
            "GLGSV,2,2,07,76,55,150,42,77,25,250,36,84,05,330,",
            "GAGSV,1,1,04,04,33,060,41,09,48,120,43,11,12,240,,36,70,300,45",
            rmc("120001.00"), gga("120001.00"),
            "GPGSV,3,1,10,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45",
        ])
        #expect(result.fixes.map(\.satellitesInView) == [22, 21])
    }

    @Test("finish emits the epoch in progress")
    func finishEmitsLastEpoch() {
        var receiver = NMEAReceiver()
        var fixes: [Fix] = []
        let bytes = [rmc("120000.00"), gga("120000.00"), gsa()].flatMap(nmeaLine)
        bytes.withUnsafeBytes { raw in receiver.consume(raw) { fixes.append(copy $0) } }
        #expect(fixes.isEmpty)
        #expect(receiver.counters.fixes == 0)
        receiver.finish { fixes.append(copy $0) }
        #expect(fixes == [fullFix(12, 0, 0)])
        #expect(receiver.counters.fixes == 1)
        receiver.finish { fixes.append(copy $0) }
        #expect(fixes.count == 1, "a second finish has nothing to emit")
    }

    @Test("a lone ZDA gives a time-only fix with mode unknown")
    func loneZDA() {
        let result = receive(sentences: ["GPZDA,201530.00,04,07,2002,00,00"])
        #expect(result.fixes == [makeFix { $0.time = utc(2002, 7, 4, 20, 15, 30) }])
        #expect(result.fixes.first?.mode == .unknown)
        #expect(result.fixes.map(json) == [#"{"class":"TPV","mode":0,"time":"2002-07-04T20:15:30.000Z"}"#])
    }

    @Test("ZDA gives the date to the GGAs after it")
    func zdaDate() {
        let result = receive(sentences: ["GPZDA,235959.00,31,12,2023,00,00", gga("235959.00"), gga("000000.00")])
        #expect(result.fixes.map(\.time) == [utc(2023, 12, 31, 23, 59, 59), utc(2024, 1, 1, 0, 0, 0)])
    }

    @Test("10 Hz GGA with 1 Hz RMC: one fix per GGA, RMC's data only in its own epoch")
    func tenHertz() throws {
        var bodies = [rmc("120000.00")]
        for tenth in 0..<10 { bodies.append(gga("120000.\(tenth)0")) }
        bodies.append(rmc("120001.00"))
        bodies.append(gga("120001.00"))
        let result = receive(sentences: bodies)
        #expect(result.fixes.count == 11)
        let start = try #require(utc(2024, 6, 15, 12, 0, 0)).millisecondsSinceEpoch
        #expect(result.fixes.map(\.time) == (0...10).map { UTCTime(millisecondsSinceEpoch: start + Int64($0) * 100) })
        #expect(result.fixes.map { $0.speedMillimetresPerSecond != nil }
            == [true] + Array(repeating: false, count: 9) + [true])
    }

    @Test("timestamps within 10 ms are one epoch; the latest wins")
    func jitteredTimestamps() {
        // The Magellan eXplorist 210 stamps one epoch's sentences a few milliseconds apart.
        let result = receive(sentences: [rmc("120000.00"), gga("120000.005"), rmc("120000.02")])
        #expect(result.fixes.map(\.time) == [utc(2024, 6, 15, 12, 0, 0, milliseconds: 5), utc(2024, 6, 15, 12, 0, 0, milliseconds: 20)])
    }

    @Test("VTG and GST fill speed, course and error estimates of the epoch")
    func vtgAndGST() {
        let result = receive(sentences: [
            gga("120000.00"),
            "GNVTG,270.0,T,,M,,N,36.0,K,A",
            "GNGST,120000.00,1.2,,,,0.50,0.60,1.20",
        ])
        let fix = result.fixes.first
        #expect(fix?.courseMillidegrees == 270_000)
        #expect(fix?.speedMillimetresPerSecond == 10_000)
        #expect(fix?.latitudeErrorCentimetres == 50)
        #expect(fix?.longitudeErrorCentimetres == 60)
        #expect(fix?.altitudeErrorCentimetres == 120)
        // FAA mode N: the VTG says nothing.
        let invalid = receive(sentences: [gga("120000.00"), "GNVTG,270.0,T,,M,,N,36.0,K,N"])
        #expect(invalid.fixes.first?.speedMillimetresPerSecond == nil)
    }

    @Test("GNS fills the epoch like GGA")
    func gnsEpoch() {
        let result = receive(sentences: ["GNGNS,120000.00,5231.2000,N,01324.3000,E,AAN,10,0.9,34.5,39.7,,,S"])
        #expect(result.fixes == [makeFix {
            $0.mode = .threeD
            $0.position = position
            $0.altitudeMSLMillimetres = 34_500
            $0.geoidSeparationMillimetres = 39_700
            $0.satellitesUsed = 10
            $0.hdopCenti = 90
        }])
        #expect(receive(sentences: ["GNGNS,120000.00,,,,,NNN,00,,,,,,V"]).fixes.map(\.mode) == [.noFix])
    }

    // NMEA 4.10's navigational status V means "the equipment gives no navigational status", not
    // "the position is invalid": u-blox receivers send V in every GNS, and so does the Furuno
    // in gpsd's furuno_gl_ga capture, alongside RMC status A and GGA quality 2.
    @Test("GNS navigation status V (no status given) keeps its position")
    func gnsNavigationStatusV() {
        let result = receive(sentences: ["GNGNS,120000.00,5231.2000,N,01324.3000,E,AAN,10,0.9,34.5,39.7,,,V"])
        #expect(result.fixes.first?.position == position)
        #expect(result.fixes.first?.mode == .threeD)
    }

    // The SiRF, MediaTek and many other receivers send GGA before RMC, so the epoch after
    // midnight starts with a GGA that must roll the date over by itself.
    @Test("GGA before RMC in each epoch: the epoch after midnight gets the new date")
    func midnightRolloverGGAFirst() {
        let result = receive(sentences: [
            gga("235958.00"), rmc("235958.00", "311224"),
            gga("235959.00"), rmc("235959.00", "311224"),
            gga("000000.00"), rmc("000000.00", "010125"),
            gga("000001.00"), rmc("000001.00", "010125"),
        ])
        #expect(result.fixes.count == 4)
        #expect(result.fixes.map(\.time) == [
            utc(2024, 12, 31, 23, 59, 58), utc(2024, 12, 31, 23, 59, 59),
            utc(2025, 1, 1, 0, 0, 0), utc(2025, 1, 1, 0, 0, 1),
        ])
    }

    @Test("rejected and undecoded sentences do not end or change an epoch")
    func rejectsLeaveEpochAlone() {
        var bytes = nmeaLine(rmc("120000.00"))
        bytes += Array("$GNGGA,120001.00,5231.2000,N,01324.3000,E,1,08,1.0,34.5,M,39.7,M,,*00\r\n".utf8)
        bytes += nmeaLine("PUBX,00,120001.00") + nmeaLine("GPGRS,120001.00,1,-0.1,-0.3,-0.1,,,,,,,,,")
        bytes += nmeaLine(gga("120000.00")) + nmeaLine(gsa())
        let result = receive(bytes)
        #expect(result.fixes == [fullFix(12, 0, 0)])
        #expect(result.counters.badChecksum == 1)
        #expect(result.counters.proprietary == 1)
        #expect(result.counters.unknown == 1)
        #expect(result.counters.accepted == 3)
    }
}
