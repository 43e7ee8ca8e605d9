/// What a command waits for before the next one may go.
public enum ReplyExpectation: Equatable, Sendable {
    /// Nothing comes back: a baud change (the answer would come at the new rate, if at all),
    /// a sleep request, the bytes that wake a receiver.
    case nothing
    /// UBX ACK-ACK (taken) or ACK-NAK (refused) naming this message.
    case ubxAcknowledgement(UBXMessageID)
    /// A UBX message of this id in answer to a poll, e.g. MON-VER; ACK-NAK naming it refuses.
    case ubxMessage(UBXMessageID)
    /// `$PMTK001,<command>,<flag>` for this command number, e.g. 314.
    case pmtkAcknowledgement(Int)
    /// A `$PMTK<number>` sentence in answer to a query, e.g. 705 for PMTK605.
    case pmtkMessage(Int)
    /// `$PAIR001,<command>,<result>` for this command number, e.g. 50 for PAIR050.
    case pairAcknowledgement(Int)
    /// Quectel's version sentence: `$PQVERNO,R,…` (L70/L76/L80).
    case quectelVersion
    /// Quectel's version sentence: `$PQTMVERNO,…` (LC29H/LC79H).
    case quectelPairVersion
}

/// Why a command is sent: the words status and doctor use for it.
public enum CommandPurpose: Equatable, Sendable {
    /// Ask the receiver what it is (MON-VER, PMTK605, PQVERNO).
    case identify
    /// Change the receiver's baud to this rate.
    case baud(Int)
    /// Set the fix interval in ms (1000: 1 Hz).
    case fixInterval(milliseconds: Int)
    /// Set one sentence's interval in epochs (0: off).
    case sentence(NMEAOutputSentence, everyEpochs: Int)
    /// Set the whole sentence set at once (PMTK314, one CFG-VALSET).
    case sentences
    /// Turn the receiver's own power save on or off.
    case powerSave(Bool)
    /// Put the receiver to sleep until woken.
    case sleep
    /// Wake a sleeping receiver.
    case wake

    /// A short phrase, e.g. `"set GST to every epoch"`, `"set the baud to 115200"`.
    public var description: String {
        switch self {
        case .identify: "identify the receiver"
        case .baud(let rate): String(joining: "set the baud to ", String(rate))
        case .fixInterval(let milliseconds): String(joining: "set the fix interval to ", String(milliseconds), " ms")
        case .sentence(let sentence, 0): String(joining: "turn ", sentence.text, " off")
        case .sentence(let sentence, 1): String(joining: "set ", sentence.text, " to every epoch")
        case .sentence(let sentence, let every): String(joining: "set ", sentence.text, " to every ", String(every), " epochs")
        case .sentences: "set the sentences"
        case .powerSave(let on): on ? "turn power save on" : "turn power save off"
        case .sleep: "put the receiver to sleep"
        case .wake: "wake the receiver"
        }
    }
}

/// What the port must do once a command has been written.
public enum CommandEffect: Equatable, Sendable {
    /// Nothing.
    case none
    /// Follow the receiver to this baud.
    case baud(Int)
    /// The receiver stops sending: silence is not a fault until it is woken.
    case sleep
    /// The receiver sends again.
    case wake
}

/// One command for the receiver: the bytes to write, what answers it and what it changes.
/// A value of fixed size (96 bytes of command), built by `UBXCommands`, `PMTKCommands` and
/// `QuectelCommands`; nothing allocates.
///
/// Example: `UBXCommands.messageRate(.gst, everyEpochs: 1)` is the 11 bytes
/// `B5 62 06 01 03 00 F0 07 01 02 1E`, waits for ACK-ACK naming CFG-MSG, changes nothing.
public struct ReceiverCommand: Equatable, Sendable {
    /// Longest command in bytes.
    public static var capacity: Int { 96 }

    var storage: InlineArray<96, UInt8>
    /// Bytes of the command.
    public private(set) var count: Int
    /// What answers it.
    public var expectation: ReplyExpectation
    /// Why it is sent.
    public var purpose: CommandPurpose
    /// How long the line stays quiet after it before the next command, in ms (a receiver
    /// changing its baud or waking up drops what comes meanwhile).
    public var settleMilliseconds: Int64
    /// How many times it is sent before it counts as unanswered (2 for identification probes,
    /// which most receivers do not answer; 3 for the rest).
    public var attempts: Int

    /// An empty command.
    init(expectation: ReplyExpectation, purpose: CommandPurpose, settleMilliseconds: Int64 = 0) {
        storage = InlineArray(repeating: 0)
        count = 0
        self.expectation = expectation
        self.purpose = purpose
        self.settleMilliseconds = settleMilliseconds
        attempts = purpose == .identify ? 2 : 3
    }

    /// What the port does once the command is out, from its purpose.
    public var effect: CommandEffect {
        switch purpose {
        case .baud(let rate): .baud(rate)
        case .sleep: .sleep
        case .wake: .wake
        default: .none
        }
    }

    /// Appends one byte; the builders stay within `capacity` (a programming error otherwise).
    mutating func append(_ byte: UInt8) {
        precondition(count < Self.capacity, "receiver command longer than its buffer")
        storage[count] = byte
        count += 1
    }

    /// The byte at `offset` (< `count`).
    public subscript(offset: Int) -> UInt8 { storage[offset] }

    /// Calls `body` with the command's bytes, e.g. to write them to the port.
    public func withBytes<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(storage.span.extracting(0..<count))
    }

    /// The bytes as an array (tests and tools).
    public var bytes: [UInt8] {
        var copy: [UInt8] = []
        copy.reserveCapacity(count)
        for offset in 0..<count { copy.append(storage[offset]) }
        return copy
    }

    /// The protocol's name of the command: a UBX message's name (`"CFG-MSG"`) or a text
    /// command's address (`"PMTK314"`); for status and doctor.
    public var name: String {
        if count >= 4 && storage[0] == 0xB5 && storage[1] == 0x62 {
            return UBXMessageID(storage[2], storage[3]).name
        }
        guard count > 1 && storage[0] == UInt8(ascii: "$") else { return "bytes" }
        var letters: [UInt8] = []
        for offset in 1..<count {
            let byte = storage[offset]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "*") { break }
            letters.append(byte)
        }
        return String(decoding: letters, as: UTF8.self)
    }

    public static func == (lhs: ReceiverCommand, rhs: ReceiverCommand) -> Bool {
        guard lhs.count == rhs.count, lhs.expectation == rhs.expectation, lhs.purpose == rhs.purpose,
              lhs.settleMilliseconds == rhs.settleMilliseconds, lhs.attempts == rhs.attempts else { return false }
        for offset in 0..<lhs.count where lhs.storage[offset] != rhs.storage[offset] { return false }
        return true
    }
}
