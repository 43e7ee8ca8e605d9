import Testing
import TrackCore

/// The sky after sentence bodies (checksums added) went through a fresh receiver.
private func sky(after bodies: [String]) -> SkyView {
    var receiver = NMEAReceiver()
    let bytes = bodies.flatMap(nmeaLine)
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while receiver.next(raw, from: &offset) != nil {}
    }
    return receiver.assembler.sky
}

/// (PRN, used) of each satellite in the view, in order.
private func listed(_ view: SkyView) -> [String] {
    (0..<view.count).map { "\(view.satellites[$0].prn)\(view.satellites[$0].used ? "u" : "")" }
}

// The expectations follow gpsd's processGSV/processGSA (driver_nmea0183.c), worked by hand.
struct SkyViewTests {
    // The u-blox M8 of gpsd's ublox-8 capture sends GNGSA per constellation, then GPGSV and GLGSV.
    static let cycle = [
        "GNRMC,000941.00,A,4404.13387,N,12118.85628,W,0.029,,100117,,,A",
        "GNGSA,A,3,23,09,16,,,,,,,,,,1.71,1.01,1.38",
        "GNGSA,A,3,80,70,,,,,,,,,,,1.71,1.01,1.38",
        "GPGSV,2,1,05,09,40,083,46,16,17,308,41,23,07,344,,26,22,228,45",
        "GPGSV,2,2,05,27,05,100,30",
        "GLGSV,1,1,02,70,33,151,38,80,12,020,25",
    ]

    @Test func setsOfConsecutiveTalkersAccumulateAndGSAMarksUsed() {
        let view = sky(after: Self.cycle)
        #expect(view.complete)
        // 23 is in GSA but not tracked (no signal): not used, as gpsd says.
        #expect(listed(view) == ["9u", "16u", "23", "26", "27", "70u", "80u"])
        #expect(view.usedSatellites == 4)
        #expect(view.satellites[0].elevationDegrees == 40 && view.satellites[0].azimuthDegrees == 83)
        #expect(view.satellites[0].snr == 46 && view.satellites[2].snr == nil)
    }

    @Test func aPartialSetIsNotComplete() {
        let view = sky(after: Array(Self.cycle.prefix(4)))
        #expect(!view.complete)
        #expect(view.count == 4)
    }

    @Test func aNewRunStartsAfresh() {
        // The next cycle: the GSV run after the RMC starts again, GSA's list too.
        let next = [
            "GNRMC,000942.00,A,4404.13387,N,12118.85628,W,0.029,,100117,,,A",
            "GNGSA,A,3,27,,,,,,,,,,,,1.71,1.01,1.38",
            "GPGSV,1,1,02,27,05,100,30,09,40,083,46",
        ]
        let view = sky(after: Self.cycle + next)
        #expect(listed(view) == ["27u", "9"])
    }

    @Test func gsvsOfOneRunAccumulateAcrossSignalsAndTalkers() {
        // The Quectel EG25-G sends GLGSV before GPGSV; a u-blox M8 sends GPGSV for L1 (signal
        // 1) then for L2 (signal 6); gpsd keeps them all.
        let view = sky(after: [
            "GLGSV,1,1,01,78,38,036,22,1",
            "GPGSV,1,1,01,09,40,083,46,1",
            "GPGSV,1,1,01,09,40,083,40,6",
        ])
        #expect(listed(view) == ["78", "9", "9"])
        #expect(view.complete)
    }

    @Test func quectelsSystemIDNamesTheConstellation() {
        // Quectel's PQGSV carries the signal and the system ID (4: BeiDou).
        let view = sky(after: ["PQGSV,1,1,02,02,20,116,,05,34,137,31,0,4"])
        #expect(listed(view) == ["402", "405"])
    }

    @Test func allAzimuthsZeroEmptiesTheView() {
        // SiRFstar II's "hairball" when it sees nothing.
        let view = sky(after: ["GPGSV,1,1,02,09,40,000,,16,17,000,"])
        #expect(view.count == 0 && !view.complete)
    }

    @Test(arguments: [
        (9, 0x4750, 9), (11, 0x4741, 311), (5, 0x4244, 405), (5, 0x4742, 405), (5, 0x5051, 197),
        (3, 0x474C, 67), (2, 0x515A, 194), (70, 0x474C, 70), (40, 0x4750, 40), (209, 0x4742, 409),
        (311, 0x474E, 311), (100, 0x4750, 0), (0, 0x4750, 0), (999, 0x4750, 0), (4, 0x4749, 504),
        (111, 0x4741, 311), (311, 0x4741, 311), (405, 0x4742, 405),
    ])
    func gpsdPRNsByTalker(id: Int, talker: Int, prn: Int) {
        let system = SkyView.system(talker: UInt16(talker))
        #expect(SkyView.prn(id, system: system, talker: UInt16(talker)) == UInt16(prn))
    }

    @Test func aGNGSASystemIDNamesTheConstellation() {
        // The u-blox NEO-M9N: one GNGSA per system ID, Galileo's numbers 1–36 under ID 3.
        let view = sky(after: [
            "GNRMC,223745.00,A,3806.62964,N,12237.61382,W,0.040,,110720,,,D,V",
            "GNGSA,A,3,29,44,,,,,,,,,,,0.99,0.54,0.83,1",
            "GNGSA,A,3,03,,,,,,,,,,,,0.99,0.54,0.83,3",
            "GPGSV,1,1,03,29,46,133,43,44,45,171,45,03,10,100,30,1",
            "GAGSV,1,1,01,03,44,149,40,7",
        ])
        #expect(listed(view) == ["29u", "44u", "3", "303u"])
    }

    @Test func theViewHoldsGpsdsMostSatellitesAndEmptiesPastThem() {
        // 35 sentences of 4 satellites: gpsd's MAXCHANNELS, 140, all kept.
        func set(_ sentences: Int) -> [String] {
            (1...sentences).map { part in
                let entries = (0..<4).map { "\(((part - 1) * 4 + $0) % 32 + 1),10,100,30" }.joined(separator: ",")
                return "GPGSV,\(sentences),\(part),\(sentences * 4),\(entries)"
            }
        }
        let full = sky(after: set(35))
        #expect(full.count == SkyView.capacity && full.completeCount == 140)
        // Five more sentences: the 141st satellite empties the view, as gpsd's "too many
        // satellites" does; the set's last four sentences make a view of 16.
        let past = sky(after: set(40))
        #expect(past.count == 16 && past.complete)
    }

    /// gpsd's SKY reports of one epoch: one at the end of each set, none at a GPGSV set's end
    /// once another constellation's GSV was seen (gpsd: "assumes GLGSV or BDGSV group, if
    /// present, is emitted after the GPGSV"), each the count of the view then.
    @Test func eachSetsEndIsAReportButAGPSSetsAfterOthers() {
        // The Quectel LC79D of gpsd's capture: GPGSV (L1, and L5 in its last sentence), GLGSV,
        // GAGSV with a signal per sentence. Its first epoch has not seen GLONASS yet.
        let epoch = [
            "GPGSV,2,1,05,01,38,160,35,03,80,057,29,04,65,211,44,09,26,227,36,1",
            "GPGSV,2,2,05,01,38,160,38,8",
            "GLGSV,1,1,02,70,31,264,38,79,13,116,37,1",
            "GAGSV,1,1,01,103,35,240,43,6",
        ]
        let rmc = { (time: String) in "GNRMC,\(time),A,5002.453527,N,01958.831794,E,0.0,16.6,301120,,,A,V" }
        let first = sky(after: [rmc("080359.00")] + epoch + [rmc("080400.00")])
        #expect((0..<first.reportsInEpoch).map(first.reports) == [5, 7, 8])
        let second = sky(after: [rmc("080359.00")] + epoch + [rmc("080400.00")] + epoch + [rmc("080401.00")])
        #expect((0..<second.reportsInEpoch).map(second.reports) == [7, 8])
        #expect(listed(second) == ["1", "3", "4", "9", "1", "70", "79", "303"])
    }

    /// A view emptied within the epoch (the Teseo LIV4F restarting in mid-epoch) takes the
    /// epoch's earlier reports with it: they listed satellites that are gone.
    @Test func aNewRunDropsTheEpochsEarlierReports() {
        let view = sky(after: [
            "GNRMC,135817.000,A,4723.00453,N,00045.88245,E,0.4,287.4,210325,,,A",
            "GAGSV,1,1,01,24,68,279,37,7",
            "PSTMVER,GNSSLIB_9749c549631df_ARM",
            "GAGSV,1,1,02,24,68,279,37,16,43,305,43,2",
            "GNRMC,135818.000,A,4723.00453,N,00045.88245,E,0.4,287.4,210325,,,A",
        ])
        #expect((0..<view.reportsInEpoch).map(view.reports) == [2])
    }

    /// gpsd's "skip bogus fields": a satellite number 0 is no satellite.
    @Test func satelliteNumberZeroIsNoSatellite() {
        let view = sky(after: ["GPGSV,1,1,03,00,10,100,30,09,40,083,46,,,,"])
        #expect(listed(view) == ["9"])
    }

    /// NMEA 4.11's signal ID is a hex digit: the Teseo's `B` is signal 11, not a bad sentence.
    @Test func aHexSignalIDIsASignal() throws {
        var receiver = NMEAReceiver()
        let bytes = nmeaLine("BDGSV,1,1,01,44,61,062,10,B")
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while receiver.next(raw, from: &offset) != nil {}
        }
        #expect(receiver.counters.accepted == 1)
        #expect(listed(receiver.assembler.sky) == ["444"])
    }
}
