/// MediaTek PMTK commands (MT3318, MT3329, MT3339 and the modules on them: GlobalTop/CDtop,
/// Quectel L70/L76/L80/L86), from MediaTek's "PMTK command packet" manual; each one answered
/// by `$PMTK001,<command>,<flag>` (flag 3 done, 0 invalid, 1 unsupported, 2 failed) unless
/// said otherwise. Checked against published strings in `Fixtures/receiver/commands.txt`.
public enum PMTKCommands {
    /// PMTK605, the firmware release query, answered by `$PMTK705,<release>,<build>,…`:
    /// `$PMTK605*31`.
    public static var releaseQuery: ReceiverCommand {
        TextCommand("PMTK605", expectation: .pmtkMessage(705), purpose: .identify).finish()
    }

    /// PMTK220, the position fix interval in ms (100…10000), e.g. `$PMTK220,1000*1F`.
    public static func fixInterval(milliseconds: Int) -> ReceiverCommand {
        var command = TextCommand("PMTK220", expectation: .pmtkAcknowledgement(220),
                                  purpose: .fixInterval(milliseconds: milliseconds))
        command.field(milliseconds)
        return command.finish()
    }

    /// PMTK300, the older fix control (MT3318/3329; gpsd sends it): interval in ms and four
    /// zero fields, e.g. `$PMTK300,1000,0,0,0,0*1C`.
    public static func fixControl(milliseconds: Int) -> ReceiverCommand {
        var command = TextCommand("PMTK300", expectation: .pmtkAcknowledgement(300),
                                  purpose: .fixInterval(milliseconds: milliseconds))
        command.field(milliseconds)
        for _ in 0..<4 { command.field(0) }
        return command.finish()
    }

    /// PMTK251, the baud (4800…115200), e.g. `$PMTK251,115200*1F`. Not acknowledged: the
    /// receiver switches at once and the port follows after 100 ms. (A Quectel L80 falls back
    /// to its default after a cold start: trackd sends it again after every open.)
    public static func baud(_ baud: Int) -> ReceiverCommand {
        var command = TextCommand("PMTK251", expectation: .nothing, purpose: .baud(baud), settleMilliseconds: 100)
        command.field(baud)
        return command.finish()
    }

    /// PMTK314, the sentence set: 19 fields, each the interval in fixes (0…5) of GLL, RMC,
    /// VTG, GGA, GSA, GSV, GRS, GST, five reserved, PMTKALM, PMTKEPH, PMTKDGP, PMTKDBG, ZDA,
    /// PMTKCHN; GRS and the PMTK outputs stay off. RMC and GGA only →
    /// `$PMTK314,0,1,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0*28`.
    public static func sentences(_ rates: SentenceRates) -> ReceiverCommand {
        var fields: InlineArray<19, UInt8> = InlineArray(repeating: 0)
        for sentence in NMEAOutputSentence.allCases {
            guard let field = sentence.pmtk314Field else { continue }
            fields[field] = UInt8(min(rates[sentence], 5))
        }
        var command = TextCommand("PMTK314", expectation: .pmtkAcknowledgement(314), purpose: .sentences)
        for field in 0..<19 { command.field(Int(fields[field])) }
        return command.finish()
    }

    /// PMTK161, standby (`$PMTK161,0*28`), acknowledged by `$PMTK001,161,3` before output
    /// stops; any byte wakes it (`wakeUp`).
    public static var standby: ReceiverCommand {
        var command = TextCommand("PMTK161", expectation: .pmtkAcknowledgement(161), purpose: .sleep)
        command.field(0)
        return command.finish()
    }

    /// Wakes a receiver in standby: any byte does; CR LF disturbs nothing else. The receiver
    /// answers `$PMTK010,002` (wake-up) and sends again.
    public static var wakeUp: ReceiverCommand {
        var command = ReceiverCommand(expectation: .pmtkMessage(10), purpose: .wake)
        command.append(0x0D)
        command.append(0x0A)
        return command
    }

    /// PMTK225 periodic mode 2 (periodic standby): `runMilliseconds` on, `sleepMilliseconds`
    /// in standby, the same for the second period, e.g. (3000, 12000, 18000, 72000) →
    /// `$PMTK225,2,3000,12000,18000,72000*15` (MediaTek's example).
    public static func periodicStandby(runMilliseconds: Int, sleepMilliseconds: Int,
                                       secondRunMilliseconds: Int? = nil, secondSleepMilliseconds: Int? = nil)
        -> ReceiverCommand {
        var command = TextCommand("PMTK225", expectation: .pmtkAcknowledgement(225), purpose: .powerSave(true))
        command.field(2)
        command.field(runMilliseconds)
        command.field(sleepMilliseconds)
        command.field(secondRunMilliseconds ?? runMilliseconds)
        command.field(secondSleepMilliseconds ?? sleepMilliseconds)
        return command.finish()
    }

    /// PMTK225 mode 0, back to normal operation: `$PMTK225,0*2B`.
    public static var periodicOff: ReceiverCommand {
        var command = TextCommand("PMTK225", expectation: .pmtkAcknowledgement(225), purpose: .powerSave(false))
        command.field(0)
        return command.finish()
    }
}
