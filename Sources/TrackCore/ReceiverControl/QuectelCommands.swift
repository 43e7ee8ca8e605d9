/// Quectel's own commands. Two families:
/// * L70, L76, L80, L86 (MediaTek inside) take every `PMTKCommands` command; Quectel adds
///   `$PQVERNO,R` for the firmware version (answered `$PQVERNO,R,L70BGR03A05S,2019/10/09,21:12`
///   in gpsd's capture `quectel-L70.log`);
/// * LC29H, LC79H, LC79D (Airoha inside) take PAIR commands, answered by
///   `$PAIR001,<command>,<result>` (0 done, 1 in progress — an answer follows, 2 failed,
///   3 unsupported, 4 bad parameter, 5 busy), and `$PQTMVERNO` for the version (Quectel's
///   "LC29H&LC79H Series GNSS Protocol Specification").
/// The L76K (a CASIC AT6558R, gpsd's `quectel-l76k-nmea.log`) speaks neither: trackd sends it
/// nothing.
public enum QuectelCommands {
    /// `$PQVERNO,R*3F`, the L70/L76/L80 version query.
    public static var versionQuery: ReceiverCommand {
        var command = TextCommand("PQVERNO", expectation: .quectelVersion, purpose: .identify)
        command.field("R")
        return command.finish()
    }

    /// `$PQTMVERNO*58`, the LC29H/LC79H version query.
    public static var pairVersionQuery: ReceiverCommand {
        TextCommand("PQTMVERNO", expectation: .quectelPairVersion, purpose: .identify).finish()
    }

    /// PAIR050, the fix interval in ms, e.g. `$PAIR050,1000*12`.
    public static func fixInterval(milliseconds: Int) -> ReceiverCommand {
        var command = TextCommand("PAIR050", expectation: .pairAcknowledgement(50),
                                  purpose: .fixInterval(milliseconds: milliseconds))
        command.field(milliseconds)
        return command.finish()
    }

    /// PAIR062, one sentence's interval in fixes (0 off … 20), e.g. GGA every fix →
    /// `$PAIR062,0,1*3F`; nil for a sentence PAIR062 has no documented type for.
    public static func messageRate(_ sentence: NMEAOutputSentence, everyEpochs: Int) -> ReceiverCommand? {
        guard let type = sentence.pair062Type else { return nil }
        var command = TextCommand("PAIR062", expectation: .pairAcknowledgement(62),
                                  purpose: .sentence(sentence, everyEpochs: everyEpochs))
        command.field(type)
        command.field(min(max(everyEpochs, 0), SentenceRates.maximumInterval))
        return command.finish()
    }

    /// PAIR864, the baud of UART 0 (port type 0, index 0), e.g. `$PAIR864,0,0,115200*1B`; not
    /// waited for, the port follows after 100 ms.
    public static func baud(_ baud: Int) -> ReceiverCommand {
        var command = TextCommand("PAIR864", expectation: .nothing, purpose: .baud(baud), settleMilliseconds: 100)
        command.field(0)
        command.field(0)
        command.field(baud)
        return command.finish()
    }

    /// PAIR650, backup (RTC) mode until woken (`$PAIR650,0*25`); acknowledged before output
    /// stops. Quectel's specification wakes the module from it by hardware (its WAKEUP or
    /// reset pin), not by UART bytes, so trackd's power rule does not send it: a board file
    /// would have to name that pin first.
    public static var backup: ReceiverCommand {
        var command = TextCommand("PAIR650", expectation: .pairAcknowledgement(650), purpose: .sleep)
        command.field(0)
        return command.finish()
    }
}
