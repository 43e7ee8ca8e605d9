// MQTT 3.1.1 (OASIS standard, 2014), the few packets a publishing client needs. Section
// numbers below are the standard's.

/// An MQTT control packet type, the high nibble of a packet's first byte (§2.2.1), e.g.
/// `.publish` is 3: a first byte `0x32` is a PUBLISH with QoS 1.
public enum MQTTPacketType: UInt8, Equatable, Sendable {
    case connect = 1
    case connectAcknowledgement = 2
    case publish = 3
    case publishAcknowledgement = 4
    case publishReceived = 5
    case publishRelease = 6
    case publishComplete = 7
    case subscribe = 8
    case subscribeAcknowledgement = 9
    case unsubscribe = 10
    case unsubscribeAcknowledgement = 11
    case pingRequest = 12
    case pingResponse = 13
    case disconnect = 14

    /// The standard's name, e.g. "PUBACK", for error messages.
    public var name: String {
        switch self {
        case .connect: "CONNECT"
        case .connectAcknowledgement: "CONNACK"
        case .publish: "PUBLISH"
        case .publishAcknowledgement: "PUBACK"
        case .publishReceived: "PUBREC"
        case .publishRelease: "PUBREL"
        case .publishComplete: "PUBCOMP"
        case .subscribe: "SUBSCRIBE"
        case .subscribeAcknowledgement: "SUBACK"
        case .unsubscribe: "UNSUBSCRIBE"
        case .unsubscribeAcknowledgement: "UNSUBACK"
        case .pingRequest: "PINGREQ"
        case .pingResponse: "PINGRESP"
        case .disconnect: "DISCONNECT"
        }
    }

    /// The low nibble the type's first byte must carry (§2.2.2): 0b0010 for PUBREL,
    /// SUBSCRIBE and UNSUBSCRIBE, 0 for the others; nil for PUBLISH, whose nibble is its flags.
    var requiredFlags: UInt8? {
        switch self {
        case .publish: nil
        case .publishRelease, .subscribe, .unsubscribe: 0b0010
        default: 0
        }
    }
}

/// A PUBLISH's quality of service (§4.3): 0 at most once, 1 at least once (PUBACK), 2 exactly
/// once (PUBREC, PUBREL, PUBCOMP). trackd publishes at 1.
public enum MQTTQoS: UInt8, Equatable, Sendable {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2
}

/// The server's answer to CONNECT (§3.2.2.3), e.g. `.badUserNameOrPassword` (4) for a wrong
/// password in mosquitto's password file.
public enum MQTTConnectReturnCode: UInt8, Equatable, Sendable {
    case accepted = 0
    case unacceptableProtocolVersion = 1
    case identifierRejected = 2
    case serverUnavailable = 3
    case badUserNameOrPassword = 4
    case notAuthorized = 5

    /// What it means, in the standard's words, e.g. "bad user name or password".
    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .unacceptableProtocolVersion: "unacceptable protocol version"
        case .identifierRejected: "client identifier rejected"
        case .serverUnavailable: "server unavailable"
        case .badUserNameOrPassword: "bad user name or password"
        case .notAuthorized: "not authorized"
        }
    }
}

/// What a CONNECT says (§3.1): the client id, the clean-session flag, the keep-alive and the
/// credentials (no will: a tracker's absence shows in its last `tst`), e.g.
/// `MQTTConnect(clientID: "trackd", keepAliveSeconds: 60, username: "tracker", password: "pw")`.
///
/// Strings are held as given at start-up (configuration); writing one copies its UTF-8 into
/// the packet buffer and allocates nothing.
public struct MQTTConnect: Equatable, Sendable {
    /// 1…65,535 bytes of UTF-8 (mosquitto takes any; the standard promises only 1…23 of
    /// `0-9a-zA-Z`), or empty with `cleanSession` (the server then names the client).
    public var clientID: String
    /// True: the server forgets the session at disconnect. False (trackd's default): QoS 1
    /// messages in flight survive a reconnect on the server's side too.
    public var cleanSession: Bool
    /// Seconds within which the client sends something (PINGREQ when idle), 0 for none; the
    /// server drops the client after 1.5 times that without a packet (§3.1.2.10).
    public var keepAliveSeconds: UInt16
    /// The user name, nil for none.
    public var username: String?
    /// The password, nil for none; needs a user name (§3.1.2.9).
    public var password: String?

    /// A CONNECT's fields.
    public init(clientID: String, cleanSession: Bool = false, keepAliveSeconds: UInt16 = 60,
                username: String? = nil, password: String? = nil) {
        self.clientID = clientID
        self.cleanSession = cleanSession
        self.keepAliveSeconds = keepAliveSeconds
        self.username = username
        self.password = password
    }
}

/// A PUBLISH as read (§3.3): its flags, packet id and where its topic and payload lie in the
/// reader's body (`MQTTReader.withBody`), e.g. topic 2..<25 and payload 27..<120.
public struct MQTTPublishHeader: Equatable, Sendable {
    public var qos: MQTTQoS
    public var retain: Bool
    /// Set on a re-delivery of a QoS 1 or 2 message.
    public var duplicate: Bool
    /// 1…65,535 for QoS 1 and 2, nil for QoS 0.
    public var packetID: UInt16?
    /// The topic name's bytes in the body.
    public var topic: Range<Int>
    /// The application message's bytes in the body.
    public var payload: Range<Int>
}

/// A CONNECT as read (a broker's view; the tests read trackd's own back): its flags and where
/// its strings lie in the reader's body.
public struct MQTTConnectHeader: Equatable, Sendable {
    public var cleanSession: Bool
    public var keepAliveSeconds: UInt16
    public var clientID: Range<Int>
    /// The will's topic and message, when the will flag is set.
    public var willTopic: Range<Int>?
    public var willMessage: Range<Int>?
    public var willQoS: MQTTQoS
    public var willRetain: Bool
    public var username: Range<Int>?
    public var password: Range<Int>?
}

/// One whole packet as `MQTTReader` reads it, e.g. `.publishAcknowledgement(packetID: 7)` for
/// the bytes `40 02 00 07`.
public enum MQTTPacket: Equatable, Sendable {
    case connect(MQTTConnectHeader)
    case connectAcknowledgement(sessionPresent: Bool, returnCode: MQTTConnectReturnCode)
    case publish(MQTTPublishHeader)
    case publishAcknowledgement(packetID: UInt16)
    case publishReceived(packetID: UInt16)
    case publishRelease(packetID: UInt16)
    case publishComplete(packetID: UInt16)
    /// A SUBSCRIBE; its topic filters stay in the body.
    case subscribe(packetID: UInt16)
    /// A SUBACK with its return codes in the body from byte 2 on.
    case subscribeAcknowledgement(packetID: UInt16)
    case unsubscribe(packetID: UInt16)
    case unsubscribeAcknowledgement(packetID: UInt16)
    case pingRequest
    case pingResponse
    case disconnect

    /// The packet's type.
    public var type: MQTTPacketType {
        switch self {
        case .connect: .connect
        case .connectAcknowledgement: .connectAcknowledgement
        case .publish: .publish
        case .publishAcknowledgement: .publishAcknowledgement
        case .publishReceived: .publishReceived
        case .publishRelease: .publishRelease
        case .publishComplete: .publishComplete
        case .subscribe: .subscribe
        case .subscribeAcknowledgement: .subscribeAcknowledgement
        case .unsubscribe: .unsubscribe
        case .unsubscribeAcknowledgement: .unsubscribeAcknowledgement
        case .pingRequest: .pingRequest
        case .pingResponse: .pingResponse
        case .disconnect: .disconnect
        }
    }
}
