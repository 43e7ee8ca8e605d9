/// The flag of `$PMTK001,<command>,<flag>` (MediaTek's PMTK manual; gpsd's
/// `drivers/driver_nmea0183.c` reads it the same: "Invalid", "Unsupported", "Valid but
/// Failed", "Valid success").
public enum PMTKFlag: Equatable, Sendable {
    /// 0: the receiver could not read the command.
    case invalid
    /// 1: it read it and does not support it.
    case unsupported
    /// 2: it supports it and the action failed.
    case failed
    /// 3: done.
    case done
    /// Any other number.
    case other(Int)

    /// The flag from its number.
    public init(_ number: Int) {
        switch number {
        case 0: self = .invalid
        case 1: self = .unsupported
        case 2: self = .failed
        case 3: self = .done
        default: self = .other(number)
        }
    }

    /// Words for status, e.g. `"flag 1, unsupported command"`.
    public var description: String {
        switch self {
        case .invalid: "flag 0, invalid command"
        case .unsupported: "flag 1, unsupported command"
        case .failed: "flag 2, valid command but the action failed"
        case .done: "flag 3, done"
        case .other(let number): String(joining: "flag ", String(number), ", unknown")
        }
    }
}

/// The result of `$PAIR001,<command>,<result>` (Quectel's LC29H&LC79H protocol
/// specification, PAIR001).
public enum PAIRResult: Equatable, Sendable {
    /// 0: done.
    case done
    /// 1: in progress; a second PAIR001 follows with the outcome.
    case inProgress
    /// 2: the command failed.
    case failed
    /// 3: the command id is not supported.
    case unsupported
    /// 4: a parameter was out of range or missing.
    case badParameter
    /// 5: the receiver was busy; try again.
    case busy
    /// Any other number.
    case other(Int)

    /// The result from its number.
    public init(_ number: Int) {
        switch number {
        case 0: self = .done
        case 1: self = .inProgress
        case 2: self = .failed
        case 3: self = .unsupported
        case 4: self = .badParameter
        case 5: self = .busy
        default: self = .other(number)
        }
    }

    /// Words for status, e.g. `"result 3, unsupported command"`.
    public var description: String {
        switch self {
        case .done: "result 0, done"
        case .inProgress: "result 1, in progress"
        case .failed: "result 2, failed"
        case .unsupported: "result 3, unsupported command"
        case .badParameter: "result 4, parameter error"
        case .busy: "result 5, busy"
        case .other(let number): String(joining: "result ", String(number), ", unknown")
        }
    }
}

/// A u-blox's MON-VER: software and hardware version, and from its extensions the protocol
/// version and module, e.g. `ROM CORE 3.01 (107888)`, `00080000`, PROTVER 18.00, `NEO-M8N`.
public struct UBXVersion: Equatable, Sendable {
    /// swVersion, e.g. `ROM CORE 3.01 (107888)`.
    public var software: ReplyText
    /// hwVersion, e.g. `00080000` (M8), `00190000` (M9), `000A0000` (M10).
    public var hardware: ReplyText
    /// `PROTVER=18.00` (or `PROTVER 14.00` before the M8) in hundredths; nil when absent.
    public var protocolVersionHundredths: Int?
    /// `MOD=NEO-M8N` → `NEO-M8N`; nil when absent.
    public var module: ReplyText?
}

/// Something a receiver sent that concerns its control, read from a UBX frame or from an
/// NMEA sentence (proprietary or TXT); everything else is the fix path's.
public enum ReceiverReply: Equatable, Sendable {
    /// UBX ACK-ACK naming a message the receiver took.
    case ubxAcknowledged(UBXMessageID)
    /// UBX ACK-NAK naming a message the receiver refused.
    case ubxRefused(UBXMessageID)
    /// UBX MON-VER.
    case ubxVersion(UBXVersion)
    /// Any other UBX frame with a good checksum.
    case ubxMessage(UBXMessageID)
    /// `$PMTK001,<command>,<flag>`; command -1: the receiver did not know the sentence.
    case pmtkAcknowledgement(command: Int, flag: PMTKFlag)
    /// `$PMTK705,<release>,…`: everything after `PMTK705,`, e.g.
    /// `AXN_2.51_3339_19071200,0002,QUECTEL-L70,1.0`.
    case pmtkRelease(ReplyText)
    /// `$PMTK010,<message>`: 1 start-up, 2 woken (after PMTK161), 3 normal mode again.
    case pmtkSystem(Int)
    /// `$PMTK011,<text>`, e.g. `MTKGPS` at start-up.
    case pmtkText(ReplyText)
    /// Any other `$PMTK…` sentence: its number (`$PMTK869` → 869), nil when letters follow
    /// `PMTK` (`$PMTKCHN`, channel status).
    case pmtkMessage(Int?)
    /// `$PAIR001,<command>,<result>`.
    case pairAcknowledgement(command: Int, result: PAIRResult)
    /// `$PQVERNO,R,<version>,…` (L70/L76/L80, PMTK inside): everything after the address.
    case quectelVersion(ReplyText)
    /// `$PQTMVERNO,<version>,…` (LC29H/LC79H, PAIR inside): everything after the address.
    case quectelPairVersion(ReplyText)
    /// A TXT sentence's text, e.g. `u-blox ag - www.u-blox.com`.
    case text(ReplyText)
}
