import Foundation
import Testing
import TrackCore

/// `Fixtures/receiver/commands.txt`: every command trackd builds against the bytes its vendor
/// documents (or published code prints), and the replies read from the documented bytes.
enum ReceiverFixture {
    /// Name → bytes, CR LF appended to the NMEA-style lines.
    static let entries: [String: [UInt8]] = {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil)?
            .appendingPathComponent("receiver/commands.txt"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var entries: [String: [UInt8]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 3 else { continue }
            let body = fields[1..<(fields.count - 1)]
            if body.first?.hasPrefix("$") == true {
                entries[fields[0]] = Array(body.joined(separator: " ").utf8) + [0x0D, 0x0A]
            } else {
                entries[fields[0]] = body.compactMap { UInt8($0, radix: 16) }
            }
        }
        return entries
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        try #require(entries[name], "no \(name) in Fixtures/receiver/commands.txt")
    }

    /// One CFG-VALSET item alone.
    static func valset(_ key: UBXConfigKey, _ value: UInt64) -> ReceiverCommand {
        var valset = UBXValset(purpose: .sentences)
        valset.set(key, value)
        return valset.finish()
    }

    /// Every command of the fixture, built by trackd.
    static let commands: [(String, ReceiverCommand)] = [
        ("ubx.mon-ver.poll", UBXCommands.versionPoll),
        ("ubx.cfg-prt.115200", UBXCommands.portBaud(115_200)),
        ("ubx.cfg-prt.57600", UBXCommands.portBaud(57_600)),
        ("ubx.cfg-msg.gga.off", UBXCommands.messageRate(.gga, everyEpochs: 0)),
        ("ubx.cfg-msg.gll.off", UBXCommands.messageRate(.gll, everyEpochs: 0)),
        ("ubx.cfg-msg.gsa.off", UBXCommands.messageRate(.gsa, everyEpochs: 0)),
        ("ubx.cfg-msg.gsv.off", UBXCommands.messageRate(.gsv, everyEpochs: 0)),
        ("ubx.cfg-msg.rmc.off", UBXCommands.messageRate(.rmc, everyEpochs: 0)),
        ("ubx.cfg-msg.vtg.off", UBXCommands.messageRate(.vtg, everyEpochs: 0)),
        ("ubx.cfg-rate.200ms", UBXCommands.measurementRate(milliseconds: 200)),
        ("ubx.cfg-rate.100ms", UBXCommands.measurementRate(milliseconds: 100)),
        ("ubx.cfg-rxm.power-save", UBXCommands.powerSaveMode(true)),
        ("ubx.cfg-rxm.continuous", UBXCommands.powerSaveMode(false)),
        ("ubx.rxm-pmreq.backup-uartrx", UBXCommands.backup(force: false)),
        ("ubx.valset.rate-meas.100ms", valset(.rateMeasurement, 100)),
        ("ubx.valset.rate-meas.250ms", valset(.rateMeasurement, 250)),
        ("ubx.valset.gga-uart1.off", valset(NMEAOutputSentence.gga.ubxUART1RateKey, 0)),
        ("ubx.valset.vtg-uart1.off", valset(NMEAOutputSentence.vtg.ubxUART1RateKey, 0)),
        ("ubx.valset.baud.115200", UBXValset.baud(115_200)),
        ("ubx.valset.baud.38400", UBXValset.baud(38_400)),
        ("pmtk.220.1000", PMTKCommands.fixInterval(milliseconds: 1000)),
        ("pmtk.220.200", PMTKCommands.fixInterval(milliseconds: 200)),
        ("pmtk.220.100", PMTKCommands.fixInterval(milliseconds: 100)),
        ("pmtk.300.1000", PMTKCommands.fixControl(milliseconds: 1000)),
        ("pmtk.300.200", PMTKCommands.fixControl(milliseconds: 200)),
        ("pmtk.251.9600", PMTKCommands.baud(9600)),
        ("pmtk.251.57600", PMTKCommands.baud(57_600)),
        ("pmtk.251.115200", PMTKCommands.baud(115_200)),
        ("pmtk.314.rmc-gga", PMTKCommands.sentences(SentenceRates(gga: 1, rmc: 1))),
        ("pmtk.314.rmc", PMTKCommands.sentences(SentenceRates(rmc: 1))),
        ("pmtk.314.all-six", PMTKCommands.sentences(SentenceRates(gga: 1, gll: 1, gsa: 1, gsv: 1, rmc: 1, vtg: 1))),
        ("pmtk.314.off", PMTKCommands.sentences(SentenceRates())),
        ("pmtk.161.standby", PMTKCommands.standby),
        ("pmtk.605.query", PMTKCommands.releaseQuery),
        ("pmtk.225.periodic", PMTKCommands.periodicStandby(runMilliseconds: 3000, sleepMilliseconds: 12_000,
                                                           secondRunMilliseconds: 18_000,
                                                           secondSleepMilliseconds: 72_000)),
        ("pmtk.225.normal", PMTKCommands.periodicOff),
        ("quectel.pqverno", QuectelCommands.versionQuery),
        ("quectel.pqtmverno", QuectelCommands.pairVersionQuery),
        ("quectel.pair050.1000", QuectelCommands.fixInterval(milliseconds: 1000)),
        ("quectel.pair864.115200", QuectelCommands.baud(115_200)),
        ("quectel.pair650", QuectelCommands.backup),
        ("quectel.pair062.gga.1", QuectelCommands.messageRate(.gga, everyEpochs: 1)!),
        ("quectel.pair062.zda.0", QuectelCommands.messageRate(.zda, everyEpochs: 0)!),
    ]

    /// Every reply of the fixture and what it reads as.
    static let replies: [(String, ReceiverReply)] = [
        ("ubx.ack-ack.cfg-msg", .ubxAcknowledged(.cfgMsg)),
        ("ubx.ack-nak.cfg-msg", .ubxRefused(.cfgMsg)),
        ("pmtk.001.314-done", .pmtkAcknowledgement(command: 314, flag: .done)),
        ("pmtk.001.161-done", .pmtkAcknowledgement(command: 161, flag: .done)),
        ("pmtk.010.awake", .pmtkSystem(2)),
        ("quectel.pair001.050-done", .pairAcknowledgement(command: 50, result: .done)),
    ]

    /// The replies `bytes` hold, through the stream as the daemon reads them.
    static func replies(in bytes: [UInt8]) -> [ReceiverReply] {
        var stream = ReceiverStream()
        var found: [ReceiverReply] = []
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while let event = stream.next(raw, from: &offset) {
                if event == .reply { found.append(stream.reply) }
            }
        }
        return found
    }
}

@Suite("Receiver commands against the vendors' bytes")
struct ReceiverCommandGoldenTests {
    @Test("every command's bytes", arguments: ReceiverFixture.commands.map(\.0))
    func command(_ name: String) throws {
        let built = try #require(ReceiverFixture.commands.first { $0.0 == name }?.1)
        #expect(built.bytes == (try ReceiverFixture.bytes(name)), "\(name)")
    }

    @Test("every reply reads as documented", arguments: ReceiverFixture.replies.map(\.0))
    func reply(_ name: String) throws {
        let expected = try #require(ReceiverFixture.replies.first { $0.0 == name }?.1)
        #expect(ReceiverFixture.replies(in: try ReceiverFixture.bytes(name)) == [expected], "\(name)")
    }

    @Test("every fixture line is used by a test")
    func fixtureIsCovered() {
        let used = Set(ReceiverFixture.commands.map(\.0) + ReceiverFixture.replies.map(\.0))
        #expect(ReceiverFixture.entries.count >= 45)
        #expect(Set(ReceiverFixture.entries.keys) == used)
    }

    @Test("what each command waits for and does")
    func expectations() {
        #expect(UBXCommands.messageRate(.gst, everyEpochs: 1).expectation == .ubxAcknowledgement(.cfgMsg))
        #expect(UBXCommands.versionPoll.expectation == .ubxMessage(.monVer))
        #expect(UBXCommands.portBaud(115_200).expectation == .nothing)
        #expect(UBXCommands.portBaud(115_200).effect == .baud(115_200))
        #expect(UBXCommands.backup(force: true).effect == .sleep)
        #expect(UBXCommands.wakeUp.effect == .wake)
        #expect(UBXValset.output(.trackdDefault, fixIntervalMilliseconds: 1000).expectation
            == .ubxAcknowledgement(.cfgValset))
        #expect(PMTKCommands.sentences(.trackdDefault).expectation == .pmtkAcknowledgement(314))
        #expect(PMTKCommands.baud(38_400).expectation == .nothing)
        #expect(PMTKCommands.standby.expectation == .pmtkAcknowledgement(161))
        #expect(PMTKCommands.wakeUp.expectation == .pmtkMessage(10))
        #expect(QuectelCommands.fixInterval(milliseconds: 200).expectation == .pairAcknowledgement(50))
        #expect(QuectelCommands.messageRate(.gst, everyEpochs: 1) == nil)
        #expect(UBXCommands.messageRate(.gsv, everyEpochs: 5).name == "CFG-MSG")
        #expect(PMTKCommands.sentences(.trackdDefault).name == "PMTK314")
    }

    /// Commands without a published frame: the layout worked out from the vendor's tables, the
    /// checksum from the frame itself.
    @Test("frames with no published example follow the layout")
    func derivedFrames() {
        // CFG-MSG GST every epoch: class F0, id 07, rate 1.
        #expect(UBXCommands.messageRate(.gst, everyEpochs: 1).bytes == [0xB5, 0x62, 0x06, 0x01, 0x03, 0x00, 0xF0, 0x07, 0x01, 0x02, 0x1E])
        // RXM-PMREQ with force (0x06) on the M10.
        let forced = UBXCommands.backup(force: true).bytes
        #expect(forced.count == 24 && forced[14] == 0x06 && forced[18] == 0x08)
        // trackd's default sentences on a u-blox 9/10: 9 rates and RATE-MEAS, 55 payload bytes.
        let output = UBXValset.output(.trackdDefault, fixIntervalMilliseconds: 1000).bytes
        #expect(output.count == 63 && output[4] == 55)
        #expect(Array(output[10..<15]) == [0xBB, 0x00, 0x91, 0x20, 0x01])  // GGA every epoch
        #expect(Array(output[25..<30]) == [0xC5, 0x00, 0x91, 0x20, 0x05])  // GSV every fifth
        #expect(Array(output[55..<61]) == [0x01, 0x00, 0x21, 0x30, 0xE8, 0x03])  // 1000 ms
        // PMTK314 with trackd's default: GST field 7, GSV every fifth.
        #expect(String(decoding: PMTKCommands.sentences(.trackdDefault).bytes, as: UTF8.self)
            == "$PMTK314,0,1,0,1,1,5,0,1,0,0,0,0,0,0,0,0,0,0,0*2D\r\n")
    }
}

@Suite("Sentence lists")
struct SentenceRatesParseTests {
    @Test("lists read", arguments: [
        ("rmc gga gsa gst gsv/5", SentenceRates.trackdDefault),
        ("RMC,gga  gsv/5", SentenceRates(gga: 1, gsv: 5, rmc: 1)),
        ("", SentenceRates()),
        ("zda/20 gbs", SentenceRates(zda: 20, gbs: 1)),
    ] as [(String, SentenceRates)])
    func reads(_ text: String, _ rates: SentenceRates) throws {
        #expect(try SentenceRates(parsing: Array(text.utf8)) == rates)
        #expect(try SentenceRates(parsing: Array(rates.text.utf8)) == rates, "round trip")
    }

    @Test("mistakes say what and why", arguments: [
        ("rmc gsx", SentenceRatesError.unknownSentence("gsx")),
        ("gsv/0", .badInterval("gsv/0")),
        ("gsv/21", .badInterval("gsv/21")),
        ("gsv/", .badInterval("gsv/")),
        ("gsv/x", .badInterval("gsv/x")),
        ("rmc gga rmc/2", .repeated("rmc/2")),
        ("grs", .unknownSentence("grs")),
    ] as [(String, SentenceRatesError)])
    func mistakes(_ text: String, _ error: SentenceRatesError) {
        #expect(throws: error) { try SentenceRates(parsing: Array(text.utf8)) }
    }
}
