import Foundation
import Testing
@testable import TrackCore

@Suite("Receiver detection")
struct ReceiverDetectorTests {
    static func detect(_ replies: [ReceiverReply]) -> ReceiverIdentity? {
        var detector = ReceiverDetector()
        for reply in replies { detector.observe(reply) }
        return detector.identity
    }

    static func detect(bytes: [UInt8]) -> ReceiverIdentity? { detect(StreamSupport.run(bytes).replies) }

    @Test("each reply names its family and command set", arguments: [
        (ReceiverReply.ubxAcknowledged(.cfgMsg), ReceiverFamily.ublox, nil as CommandDialect?),
        (.ubxMessage(UBXMessageID(0x01, 0x07)), .ublox, nil),
        (.pmtkAcknowledgement(command: 314, flag: .done), .mediatek, .pmtk),
        (.pmtkSystem(1), .mediatek, .pmtk),
        (.pmtkRelease(ReplyText("AXN_2.31_3339_13101700,5632,PA6H,1.0")), .mediatek, .pmtk),
        (.pmtkRelease(ReplyText("AXN_2.51_3339_19071200,0002,QUECTEL-L70,1.0")), .quectel, .pmtk),
        (.quectelVersion(ReplyText("R,L70BGR03A05S,2019/10/09,21:12")), .quectel, .pmtk),
        (.quectelPairVersion(ReplyText("LC29HEANR11A03S,2023/07/14,14:45:13")), .quectel, .pair),
        (.pairAcknowledgement(command: 50, result: .done), .quectel, .pair),
        (.text(ReplyText("u-blox ag - www.u-blox.com")), .ublox, nil),
        (.text(ReplyText("HW UBX-M80xx 00080000 ")), .ublox, nil),
        (.text(ReplyText("Quectel L76")), .quectel, nil),
    ] as [(ReceiverReply, ReceiverFamily, CommandDialect?)])
    func oneReply(_ reply: ReceiverReply, _ family: ReceiverFamily, _ dialect: CommandDialect?) {
        let identity = Self.detect([reply])
        #expect(identity?.family == family)
        #expect(identity?.dialect == dialect)
    }

    @Test("text that names nobody identifies nobody", arguments: [
        "ANTENNA OK", "ANTSTATUS=OK", "txbuf alloc", "DEFAULT PVT CONFIGURATION", "TELIT SW Version: SL869 v3.1.2.1",
    ])
    func noGuessing(_ text: String) {
        #expect(Self.detect([.text(ReplyText(text))]) == nil)
    }

    @Test("the protocol version chooses the u-blox command set", arguments: [
        ("PROTVER 15.00", CommandDialect.ubxLegacy, 1500), ("PROTVER=18.00", .ubxLegacy, 1800),
        ("PROTVER=23.01", .ubxLegacy, 2301), ("PROTVER=27.12", .ubxValset, 2712), ("PROTVER=34.10", .ubxValset, 3410),
    ] as [(String, CommandDialect, Int)])
    func protocolVersion(_ text: String, _ dialect: CommandDialect, _ hundredths: Int) {
        let identity = Self.detect([.text(ReplyText("u-blox AG - www.u-blox.com")), .text(ReplyText(text))])
        #expect(identity?.dialect == dialect)
        #expect(identity?.protocolVersionHundredths == hundredths)
    }

    @Test("MON-VER without PROTVER: the hardware version decides")
    func hardwareVersion() {
        func version(_ hardware: String) -> ReceiverReply {
            .ubxVersion(UBXVersion(software: ReplyText("ROM SPG 5.10 (7b202e)"), hardware: ReplyText(hardware),
                                   protocolVersionHundredths: nil, module: nil))
        }
        #expect(Self.detect([version("000A0000")])?.dialect == .ubxValset)
        #expect(Self.detect([version("00190000")])?.dialect == .ubxValset)
        #expect(Self.detect([version("00080000")])?.dialect == .ubxLegacy)
        #expect(Self.detect([version("00040007")])?.dialect == nil)
    }

    @Test("a MediaTek becomes a Quectel when it says so, never the other way")
    func narrowing() {
        let quectel = Self.detect([.pmtkAcknowledgement(command: 220, flag: .done),
                                   .quectelVersion(ReplyText("R,L80RNR01A02S"))])
        #expect(quectel?.family == .quectel)
        #expect(quectel?.dialect == .pmtk)
        let ublox = Self.detect([.text(ReplyText("u-blox AG")), .pmtkAcknowledgement(command: 220, flag: .done)])
        #expect(ublox?.family == .ublox)
    }

    /// gpsd's real captures: only what each receiver itself says.
    @Test("gpsd's captures identify themselves", .enabled(if: NMEACaptureChunkingTests.captures != nil,
                                                          "../shared/data/gpsd-regress is absent"),
          arguments: [
              ("bt451.log", ReceiverFamily.ublox, nil as CommandDialect?, nil as String?),
              ("nl2008u.log", .ublox, .ubxLegacy, nil),
              ("nl551e.log", .ublox, nil, "LEA-5H-0"),
              ("ublox-lea-5h.log", .ublox, nil, nil),
              ("mtk-3301.log", .mediatek, .pmtk, nil),
              ("quectel-L70.log", .quectel, .pmtk, "AXN_2.51_3339_19071200,0002,QUECTEL-L70,1.0"),
          ] as [(String, ReceiverFamily, CommandDialect?, String?)])
    func captures(_ file: String, _ family: ReceiverFamily, _ dialect: CommandDialect?, _ model: String?) throws {
        let url = try #require(NMEACaptureChunkingTests.captures).appendingPathComponent(file)
        let identity = Self.detect(bytes: Array(try Data(contentsOf: url)))
        #expect(identity?.family == family, "\(file)")
        #expect(identity?.dialect == dialect, "\(file)")
        if let model { #expect(identity?.model?.string == model, "\(file)") }
    }

    @Test("captures of receivers that name nobody stay unknown",
          .enabled(if: NMEACaptureChunkingTests.captures != nil, "../shared/data/gpsd-regress is absent"),
          arguments: ["ublox-f9p-hpnmea.log", "st-teseo-liv4f.log", "quectel-l76k-nmea.log", "neo-m8n.log",
                      "garmin48.log", "skytraq.log"])
    func silentCaptures(_ file: String) throws {
        let url = try #require(NMEACaptureChunkingTests.captures).appendingPathComponent(file)
        #expect(Self.detect(bytes: Array(try Data(contentsOf: url))) == nil, "\(file)")
    }
}
