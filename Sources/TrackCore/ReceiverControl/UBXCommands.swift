/// u-blox commands as UBX frames: the legacy CFG messages of the M8 and older
/// (UBX-13003221, section 32.10), CFG-VALSET of the u-blox 9 and 10 (UBX-21035062, section
/// 3.10.26) and the power requests. Layouts and field values are u-blox's; every frame is
/// checked byte for byte against published frames in `Fixtures/receiver/commands.txt`.
public enum UBXCommands {
    /// MON-VER poll (empty payload), answered by MON-VER: `B5 62 0A 04 00 00 0E 34`.
    public static var versionPoll: ReceiverCommand {
        UBXFrame.Builder(.monVer, expectation: .ubxMessage(.monVer), purpose: .identify).finish()
    }

    /// CFG-PRT for UART1: 8N1 at `baud`, UBX+NMEA+RTCM in, UBX+NMEA out (UBX out carries the
    /// ACKs), e.g. 115200 → `B5 62 06 00 14 00 01 00 00 00 D0 08 00 00 00 C2 01 00 07 00 03
    /// 00 00 00 00 00 C0 7E`. The receiver switches at once: no answer is waited for, the
    /// port follows (`effect`) after 100 ms.
    public static func portBaud(_ baud: Int) -> ReceiverCommand {
        var frame = UBXFrame.Builder(.cfgPrt, expectation: .nothing, purpose: .baud(baud), settleMilliseconds: 100)
        frame.u8(1)  // portID: UART1
        frame.u8(0)  // reserved1
        frame.u16(0)  // txReady: off
        // mode: charLen 8 bits (bits 6-7 = 11), parity none (bits 9-11 = 100), 1 stop bit.
        frame.u32(0x0000_08D0)
        frame.u32(UInt32(truncatingIfNeeded: baud))
        frame.u16(0x0007)  // inProtoMask: UBX, NMEA, RTCM2 (the receiver's default)
        frame.u16(0x0003)  // outProtoMask: UBX, NMEA
        frame.u16(0)  // flags
        frame.u16(0)  // reserved2
        return frame.finish()
    }

    /// CFG-MSG (three-byte form: the port it arrives on) for one NMEA sentence, e.g. GLL off
    /// → `B5 62 06 01 03 00 F0 01 00 FB 11`.
    public static func messageRate(_ sentence: NMEAOutputSentence, everyEpochs: Int) -> ReceiverCommand {
        var frame = UBXFrame.Builder(.cfgMsg, expectation: .ubxAcknowledgement(.cfgMsg),
                                     purpose: .sentence(sentence, everyEpochs: everyEpochs))
        frame.u8(0xF0)  // class: NMEA standard messages
        frame.u8(sentence.ubxID)
        frame.u8(UInt8(clamping: everyEpochs))
        return frame.finish()
    }

    /// CFG-RATE: one measurement every `milliseconds`, one solution per measurement, aligned
    /// to GPS time, e.g. 200 ms (5 Hz) → `B5 62 06 08 06 00 C8 00 01 00 01 00 DE 6A`.
    public static func measurementRate(milliseconds: Int) -> ReceiverCommand {
        var frame = UBXFrame.Builder(.cfgRate, expectation: .ubxAcknowledgement(.cfgRate),
                                     purpose: .fixInterval(milliseconds: milliseconds))
        frame.u16(UInt16(clamping: milliseconds))  // measRate, ms
        frame.u16(1)  // navRate: cycles per solution
        frame.u16(1)  // timeRef: GPS time
        return frame.finish()
    }

    /// CFG-RXM: power save mode (1) or continuous (0) with the CFG-PM2 cycle the receiver has
    /// (trackd leaves CFG-PM2 at its default: cyclic tracking, 1 s), e.g. on → `B5 62 06 11 02
    /// 00 08 01 22 92`. reserved1 is 8, as u-blox documents it.
    public static func powerSaveMode(_ on: Bool) -> ReceiverCommand {
        var frame = UBXFrame.Builder(.cfgRxm, expectation: .ubxAcknowledgement(.cfgRxm), purpose: .powerSave(on))
        frame.u8(0x08)
        frame.u8(on ? 1 : 0)
        return frame.finish()
    }

    /// RXM-PMREQ, the 16-byte version 0 (protocol 18 and later): software backup for
    /// `durationMilliseconds` (0: until woken), woken by activity on UART RX. `force` is the
    /// flag the M10 needs to enter backup (UBX-21035062: "The force flag must be set").
    ///
    /// The flags are u-blox's: backup = bit 1 (0x02), force = bit 2 (0x04); wake-up sources
    /// uartrx = bit 3 (0x08), extint0 = bit 5, extint1 = bit 6, spics = bit 7. (gpsd's
    /// `gps/ubx.py` decodes `rxm_pmreq_flags` as 1 = backup, 2 = force and the sources as
    /// 4 = uartrx … 0x40 = spics: each one bit low.) Nothing answers: the receiver goes down.
    public static func backup(durationMilliseconds: UInt32 = 0, force: Bool) -> ReceiverCommand {
        var frame = UBXFrame.Builder(.rxmPmreq, expectation: .nothing, purpose: .sleep)
        frame.u8(0)  // version
        frame.zeros(3)  // reserved1
        frame.u32(durationMilliseconds)
        frame.u32(0x02 | (force ? 0x04 : 0))
        frame.u32(0x08)  // wakeupSources: uartrx
        return frame.finish()
    }

    /// The bytes that wake a u-blox in software backup: an edge on UART RX wakes it, and what
    /// arrives while it wakes is lost, so four 0xFF and a second's quiet before the next
    /// command.
    public static var wakeUp: ReceiverCommand {
        var command = ReceiverCommand(expectation: .nothing, purpose: .wake, settleMilliseconds: 1000)
        for _ in 0..<4 { command.append(0xFF) }
        return command
    }
}
