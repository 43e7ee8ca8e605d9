/// Who made the receiver, as far as its own output says.
public enum ReceiverFamily: Equatable, Sendable {
    case ublox
    case mediatek
    case quectel

    /// `ublox`, `mediatek`, `quectel`: the config's `[receiver] type` words.
    public var name: StaticString {
        switch self {
        case .ublox: "ublox"
        case .mediatek: "mediatek"
        case .quectel: "quectel"
        }
    }
}

/// Which command set the receiver takes.
public enum CommandDialect: Equatable, Sendable {
    /// u-blox M8 and older: CFG-PRT, CFG-MSG, CFG-RATE, CFG-RXM.
    case ubxLegacy
    /// u-blox 9 and 10 (protocol 27 and later): CFG-VALSET.
    case ubxValset
    /// MediaTek and the Quectel modules on MediaTek (L70, L76, L80, L86): PMTK.
    case pmtk
    /// Quectel modules on Airoha (LC29H, LC79H, LC79D): PAIR.
    case pair

    /// A short name for status, e.g. `"UBX CFG-VALSET"`.
    public var name: StaticString {
        switch self {
        case .ubxLegacy: "UBX legacy CFG"
        case .ubxValset: "UBX CFG-VALSET"
        case .pmtk: "PMTK"
        case .pair: "PAIR"
        }
    }
}

/// What told the detector, for status and doctor ("identified by its MON-VER reply").
public enum DetectionEvidence: Equatable, Sendable {
    /// A UBX frame with a good checksum.
    case ubxFrame
    /// The MON-VER answer.
    case ubxVersion
    /// A TXT sentence naming the maker or the protocol version.
    case text
    /// A PMTK sentence (`$PMTK001`, `$PMTK010`, `$PMTK011`, …).
    case pmtkSentence
    /// The PMTK705 release string.
    case pmtkRelease
    /// Quectel's PQVERNO or PQTMVERNO answer.
    case quectelVersion
    /// A `$PAIR001` acknowledgement.
    case pairAcknowledgement

    /// Words, e.g. `"its MON-VER reply"`.
    public var description: StaticString {
        switch self {
        case .ubxFrame: "a UBX frame"
        case .ubxVersion: "its MON-VER reply"
        case .text: "its TXT sentences"
        case .pmtkSentence: "a PMTK sentence"
        case .pmtkRelease: "its PMTK705 release"
        case .quectelVersion: "its Quectel version reply"
        case .pairAcknowledgement: "a PAIR001 acknowledgement"
        }
    }
}

/// The receiver as detected: its family, the command set once that is known, a model or
/// version text when the receiver gave one, and what said so.
public struct ReceiverIdentity: Equatable, Sendable {
    /// The maker.
    public var family: ReceiverFamily
    /// The command set; nil while only the family is known (a u-blox whose protocol version
    /// has not been seen yet).
    public var dialect: CommandDialect?
    /// Model or version text, e.g. `NEO-M8N`, `AXN_2.51_3339_19071200,0002,QUECTEL-L70,1.0`.
    public var model: ReplyText?
    /// The protocol version in hundredths (u-blox), e.g. 1800.
    public var protocolVersionHundredths: Int?
    /// What identified it.
    public var evidence: DetectionEvidence
}
