/// Finds out what the receiver is from what it sends — never by guessing: a UBX frame, a TXT
/// naming u-blox, MediaTek or Quectel, a PMTK or PAIR sentence, a version answer. Fed every
/// reply the stream reads; the first family seen stays (until `reset`, after a reopen), and
/// later replies only add what was missing (the command set, the model) or narrow MediaTek to
/// Quectel when the receiver names Quectel.
///
/// Example: `$GPTXT,01,01,02,u-blox ag - www.u-blox.com*50` → u-blox, command set unknown;
/// then MON-VER with `PROTVER=18.00` → u-blox, `.ubxLegacy`.
public struct ReceiverDetector: Sendable {
    /// What is known so far; nil until the receiver has said anything.
    public private(set) var identity: ReceiverIdentity?

    /// Protocol versions from 27.00 take CFG-VALSET (u-blox 9 and 10; the M8 ends at 23.01).
    public static var valsetProtocolHundredths: Int { 2700 }

    /// A detector that knows nothing.
    public init() {}

    /// Forgets the receiver (a reopened port may have another one behind it).
    public mutating func reset() { identity = nil }

    /// Takes a reply; true when it added to what is known.
    @discardableResult
    public mutating func observe(_ reply: ReceiverReply) -> Bool {
        let before = identity
        switch reply {
        case .ubxAcknowledged, .ubxRefused, .ubxMessage:
            learn(.ublox, evidence: .ubxFrame)
        case .ubxVersion(let version):
            learn(.ublox, evidence: .ubxVersion)
            if let protocolVersion = version.protocolVersionHundredths {
                learnProtocol(protocolVersion)
            } else if version.hardware.contains("00190000") || version.hardware.contains("000A0000") {
                // M9 and M10 hardware without a PROTVER extension: both take CFG-VALSET.
                learnDialect(.ubxValset)
            } else if version.hardware.contains("00080000") || version.hardware.contains("00070000") {
                learnDialect(.ubxLegacy)
            }
            if identity?.model == nil, let module = version.module { identity?.model = module }
        case .text(let text):
            observeText(text)
        case .pmtkAcknowledgement, .pmtkSystem, .pmtkText, .pmtkMessage:
            learn(.mediatek, evidence: .pmtkSentence)
            learnDialect(.pmtk)
        case .pmtkRelease(let release):
            learn(release.contains("QUECTEL") ? .quectel : .mediatek, evidence: .pmtkRelease)
            learnDialect(.pmtk)
            if identity?.model == nil { identity?.model = release }
        case .quectelVersion(let version):
            learn(.quectel, evidence: .quectelVersion)
            learnDialect(.pmtk)
            if identity?.model == nil { identity?.model = version }
        case .quectelPairVersion(let version):
            learn(.quectel, evidence: .quectelVersion)
            learnDialect(.pair)
            if identity?.model == nil { identity?.model = version }
        case .pairAcknowledgement:
            learn(.quectel, evidence: .pairAcknowledgement)
            learnDialect(.pair)
        }
        return identity != before
    }

    /// u-blox's start-up TXTs, as in gpsd's captures: `u-blox ag - www.u-blox.com`,
    /// `HW UBX-M80xx 00080000`, `ANTARIS ATR062x HW 80040001` (u-blox 4), `PROTVER 15.00` (or
    /// `PROTVER=18.00`), `MOD LEA-5H-0` (or `MOD=NEO-M8N-0`); Quectel's and MediaTek's names.
    mutating func observeText(_ text: ReplyText) {
        if text.contains("U-BLOX") || text.contains("UBX-") || text.contains("ANTARIS") {
            learn(.ublox, evidence: .text)
        } else if text.contains("QUECTEL") {
            learn(.quectel, evidence: .text)
        } else if text.contains("MEDIATEK") {
            learn(.mediatek, evidence: .text)
        }
        guard identity?.family == .ublox else { return }
        if let version = text.hundredths(after: "PROTVER=") ?? text.hundredths(after: "PROTVER ") {
            learnProtocol(version)
        }
        if identity?.model == nil, text.firstOffset(of: "MOD=") == 0 || text.firstOffset(of: "MOD ") == 0 {
            var model = ReplyText()
            text.withBytes { bytes in model = ReplyText(bytes, 4..<bytes.count) }
            identity?.model = model
        }
    }

    mutating func learn(_ family: ReceiverFamily, evidence: DetectionEvidence) {
        guard let known = identity else {
            identity = ReceiverIdentity(family: family, dialect: nil, model: nil, protocolVersionHundredths: nil,
                                        evidence: evidence)
            return
        }
        // A MediaTek inside a Quectel module says so in its release or version answer.
        if known.family == .mediatek && family == .quectel {
            identity?.family = .quectel
            identity?.evidence = evidence
        }
    }

    mutating func learnDialect(_ dialect: CommandDialect) {
        if identity?.dialect == nil { identity?.dialect = dialect }
    }

    mutating func learnProtocol(_ hundredths: Int) {
        guard identity?.family == .ublox else { return }
        identity?.protocolVersionHundredths = hundredths
        learnDialect(hundredths >= Self.valsetProtocolHundredths ? .ubxValset : .ubxLegacy)
    }
}
