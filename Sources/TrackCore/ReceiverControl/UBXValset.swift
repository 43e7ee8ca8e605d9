/// CFG-VALSET (u-blox 9 and 10): configuration items by key, in RAM only — trackd sends its
/// settings after every open, so nothing is written to the receiver's flash or battery-backed
/// RAM and a receiver reset to its defaults is a known state (UBX-21035062, section 3.10.26:
/// version 0, layers bit 0 = RAM, two reserved bytes, then key/value pairs, values
/// little-endian of the size the key names).
///
/// Example: CFG-RATE-MEAS = 100 ms → `B5 62 06 8A 0A 00 00 01 00 00 01 00 21 30 64 00 51 B9`.
public struct UBXValset: Sendable {
    var frame: UBXFrame.Builder
    /// Items added.
    public private(set) var itemCount = 0

    /// Most items in one command (a key and up to eight value bytes each within 96 bytes).
    public static var maximumItems: Int { 10 }

    /// An empty CFG-VALSET for `purpose`, answered by ACK-ACK or ACK-NAK (`expectsAnswer`
    /// false for a baud change, whose answer would come at the new rate).
    public init(purpose: CommandPurpose, expectsAnswer: Bool = true, settleMilliseconds: Int64 = 0) {
        frame = UBXFrame.Builder(.cfgValset, expectation: expectsAnswer ? .ubxAcknowledgement(.cfgValset) : .nothing,
                                 purpose: purpose, settleMilliseconds: settleMilliseconds)
        frame.u8(0)  // version 0: no transaction
        frame.u8(0x01)  // layers: RAM
        frame.zeros(2)  // reserved
    }

    /// Adds `key` = `value` (the low bytes the key's size names); false, adding nothing, for
    /// a key of undefined size or past `maximumItems`.
    @discardableResult
    public mutating func set(_ key: UBXConfigKey, _ value: UInt64) -> Bool {
        guard let size = key.valueByteCount, itemCount < Self.maximumItems else { return false }
        frame.u32(key.rawValue)
        frame.value(value, byteCount: size)
        itemCount += 1
        return true
    }

    /// The finished command.
    public consuming func finish() -> ReceiverCommand { frame.finish() }

    /// The UART1 rate of every sentence trackd knows and the measurement interval, in one
    /// command (9 sentences and CFG-RATE-MEAS: 63 bytes).
    public static func output(_ rates: SentenceRates, fixIntervalMilliseconds: Int) -> ReceiverCommand {
        var valset = UBXValset(purpose: .sentences)
        for sentence in NMEAOutputSentence.allCases {
            valset.set(sentence.ubxUART1RateKey, UInt64(rates[sentence]))
        }
        valset.set(.rateMeasurement, UInt64(clamping: fixIntervalMilliseconds))
        return valset.finish()
    }

    /// CFG-UART1-BAUDRATE alone: nothing is waited for, the port follows after 100 ms.
    public static func baud(_ baud: Int) -> ReceiverCommand {
        var valset = UBXValset(purpose: .baud(baud), expectsAnswer: false, settleMilliseconds: 100)
        valset.set(.uart1Baudrate, UInt64(clamping: baud))
        return valset.finish()
    }

    /// CFG-PM-OPERATEMODE: 2 (PSMCT, cyclic tracking, the M8's PSM) or 0 (full power).
    public static func powerSave(_ on: Bool) -> ReceiverCommand {
        var valset = UBXValset(purpose: .powerSave(on))
        valset.set(.powerOperateMode, on ? 2 : 0)
        return valset.finish()
    }
}
