/// Builds an NMEA-style command (`$` body `*hh` CR LF, hh the XOR of the body's bytes in upper
/// case hex, NMEA 0183 section 5.3) in a command's buffer: PMTK, PAIR and PQ commands.
struct TextCommand {
    var command: ReceiverCommand
    var sum: UInt8 = 0

    /// A command starting with `$` and `address`, e.g. `"PMTK220"`.
    init(_ address: StaticString, expectation: ReplyExpectation, purpose: CommandPurpose, settleMilliseconds: Int64 = 0) {
        command = ReceiverCommand(expectation: expectation, purpose: purpose, settleMilliseconds: settleMilliseconds)
        command.append(UInt8(ascii: "$"))
        text(address)
    }

    mutating func byte(_ value: UInt8) {
        command.append(value)
        sum ^= value
    }

    mutating func text(_ literal: StaticString) {
        for offset in 0..<literal.utf8CodeUnitCount { byte(literal.utf8Start[offset]) }
    }

    /// `,` and the decimal `value`, e.g. `,-1`.
    mutating func field(_ value: Int) {
        byte(UInt8(ascii: ","))
        if value < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: InlineArray<20, UInt8> = InlineArray(repeating: 0)
        var used = 0
        repeat {
            digits[used] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 48
            magnitude /= 10
            used += 1
        } while magnitude > 0
        while used > 0 {
            used -= 1
            byte(digits[used])
        }
    }

    /// `,` and the text, e.g. `,R`.
    mutating func field(_ literal: StaticString) {
        byte(UInt8(ascii: ","))
        text(literal)
    }

    /// `*hh` CR LF; the finished command.
    consuming func finish() -> ReceiverCommand {
        command.append(UInt8(ascii: "*"))
        command.append(HexDigit.character(sum >> 4, uppercase: true))
        command.append(HexDigit.character(sum, uppercase: true))
        command.append(0x0D)
        command.append(0x0A)
        return command
    }
}
