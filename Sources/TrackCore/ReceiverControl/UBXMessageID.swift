/// A UBX message's class and id, e.g. CFG-MSG is class 0x06, id 0x01.
///
/// The names and numbers are u-blox's ("u-blox 8 / u-blox M8 Receiver description including
/// protocol specification", UBX-13003221, section 32.8 "UBX Class IDs"; the M10 SPG 5.10
/// interface description, UBX-21035062, section 3.8, keeps the same numbers).
public struct UBXMessageID: Equatable, Hashable, Sendable {
    /// The class byte, e.g. 0x06 for CFG.
    public var messageClass: UInt8
    /// The id byte within the class, e.g. 0x01 for CFG-MSG.
    public var id: UInt8

    /// A message id from its two bytes, e.g. `UBXMessageID(0x05, 0x01)` is ACK-ACK.
    public init(_ messageClass: UInt8, _ id: UInt8) {
        self.messageClass = messageClass
        self.id = id
    }

    /// ACK-NAK: the receiver refused the message named in its payload.
    public static var ackNak: UBXMessageID { UBXMessageID(0x05, 0x00) }
    /// ACK-ACK: the receiver took the message named in its payload.
    public static var ackAck: UBXMessageID { UBXMessageID(0x05, 0x01) }
    /// CFG-PRT: port settings (M8 and older; M10 has only CFG-VALSET).
    public static var cfgPrt: UBXMessageID { UBXMessageID(0x06, 0x00) }
    /// CFG-MSG: one message's output rate.
    public static var cfgMsg: UBXMessageID { UBXMessageID(0x06, 0x01) }
    /// CFG-RATE: measurement and navigation rate.
    public static var cfgRate: UBXMessageID { UBXMessageID(0x06, 0x08) }
    /// CFG-RXM: continuous or power save mode.
    public static var cfgRxm: UBXMessageID { UBXMessageID(0x06, 0x11) }
    /// CFG-PM2: the power save mode's cycle.
    public static var cfgPm2: UBXMessageID { UBXMessageID(0x06, 0x3B) }
    /// CFG-VALSET: configuration items by key (u-blox 9 and 10).
    public static var cfgValset: UBXMessageID { UBXMessageID(0x06, 0x8A) }
    /// RXM-PMREQ: a power management request (software backup).
    public static var rxmPmreq: UBXMessageID { UBXMessageID(0x02, 0x41) }
    /// MON-VER: software, hardware and protocol versions.
    public static var monVer: UBXMessageID { UBXMessageID(0x0A, 0x04) }

    /// u-blox's name where trackd uses the message, else the two bytes, e.g. `"CFG-MSG"`,
    /// `"0x01 0x07"`.
    public var name: String {
        switch self {
        case .ackNak: "ACK-NAK"
        case .ackAck: "ACK-ACK"
        case .cfgPrt: "CFG-PRT"
        case .cfgMsg: "CFG-MSG"
        case .cfgRate: "CFG-RATE"
        case .cfgRxm: "CFG-RXM"
        case .cfgPm2: "CFG-PM2"
        case .cfgValset: "CFG-VALSET"
        case .rxmPmreq: "RXM-PMREQ"
        case .monVer: "MON-VER"
        default: HexDigit.byteText(messageClass) + " " + HexDigit.byteText(id)
        }
    }
}
