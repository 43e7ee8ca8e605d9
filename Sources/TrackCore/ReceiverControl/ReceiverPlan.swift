/// The commands for each job, per command set, queued straight into a `CommandSession` (no
/// arrays: plans are made again after every reopen, in the loop).
///
/// The order is the same for every receiver: what the receiver sends first (sentences, rate),
/// at the baud it was found at, so that their answers come back readable; the baud change
/// last, after which the port follows (`CommandEffect.baud`).
public enum ReceiverPlan {
    /// Asks an unknown receiver what it is (`type = auto`): MON-VER poll, PMTK605, PQTMVERNO,
    /// PQVERNO. Each is harmless to the others (a MediaTek ignores UBX bytes, a u-blox an
    /// unknown `$P` sentence) and tried twice; the first answer identifies the receiver and the
    /// rest can be cancelled. Returns the number queued.
    @discardableResult
    public static func identify(_ family: ReceiverFamily?, into session: inout CommandSession) -> Int {
        var queued = 0
        if family == nil || family == .ublox { queued += session.enqueue(UBXCommands.versionPoll) ? 1 : 0 }
        if family == nil || family == .mediatek || family == .quectel {
            queued += session.enqueue(PMTKCommands.releaseQuery) ? 1 : 0
        }
        if family == nil || family == .quectel {
            queued += session.enqueue(QuectelCommands.pairVersionQuery) ? 1 : 0
            queued += session.enqueue(QuectelCommands.versionQuery) ? 1 : 0
        }
        return queued
    }

    /// Configures a receiver of `dialect` with `settings`; `currentBaud` is the port's (no baud
    /// change is sent when they agree). Returns the number queued (0 when the session is full).
    @discardableResult
    public static func configure(_ dialect: CommandDialect, _ settings: ReceiverSettings, currentBaud: Int?,
                                 into session: inout CommandSession) -> Int {
        var queued = 0
        func add(_ command: ReceiverCommand) { if session.enqueue(command) { queued += 1 } }
        let baud = settings.baud.flatMap { $0 == currentBaud ? nil : $0 }
        switch dialect {
        case .ubxLegacy:
            if let rates = settings.sentences {
                for sentence in NMEAOutputSentence.allCases {
                    add(UBXCommands.messageRate(sentence, everyEpochs: rates[sentence]))
                }
            }
            if let interval = settings.fixIntervalMilliseconds { add(UBXCommands.measurementRate(milliseconds: interval)) }
            if let baud { add(UBXCommands.portBaud(baud)) }
        case .ubxValset:
            if let rates = settings.sentences {
                add(UBXValset.output(rates, fixIntervalMilliseconds: settings.fixIntervalMilliseconds ?? 1000))
            } else if let interval = settings.fixIntervalMilliseconds {
                var valset = UBXValset(purpose: .fixInterval(milliseconds: interval))
                valset.set(.rateMeasurement, UInt64(interval))
                add(valset.finish())
            }
            if let baud { add(UBXValset.baud(baud)) }
        case .pmtk:
            if let rates = settings.sentences { add(PMTKCommands.sentences(rates)) }
            if let interval = settings.fixIntervalMilliseconds { add(PMTKCommands.fixInterval(milliseconds: interval)) }
            if let baud { add(PMTKCommands.baud(baud)) }
        case .pair:
            if let rates = settings.sentences {
                for sentence in NMEAOutputSentence.allCases {
                    if let command = QuectelCommands.messageRate(sentence, everyEpochs: rates[sentence]) { add(command) }
                }
            }
            if let interval = settings.fixIntervalMilliseconds { add(QuectelCommands.fixInterval(milliseconds: interval)) }
            if let baud { add(QuectelCommands.baud(baud)) }
        }
        return queued
    }

    /// Puts the receiver to sleep until woken: u-blox software backup (RXM-PMREQ, woken by
    /// UART RX), MediaTek standby (PMTK161, woken by any byte). False for PAIR receivers,
    /// which Quectel wakes by a pin, not by the UART.
    @discardableResult
    public static func sleep(_ dialect: CommandDialect, into session: inout CommandSession) -> Bool {
        switch dialect {
        case .ubxLegacy, .ubxValset: session.enqueue(UBXCommands.backup(force: true))
        case .pmtk: session.enqueue(PMTKCommands.standby)
        case .pair: false
        }
    }

    /// Wakes a sleeping receiver. After it the whole configuration is sent again
    /// (`configure`): a receiver back from backup has restarted.
    @discardableResult
    public static func wake(_ dialect: CommandDialect, into session: inout CommandSession) -> Bool {
        switch dialect {
        case .ubxLegacy, .ubxValset: session.enqueue(UBXCommands.wakeUp)
        case .pmtk: session.enqueue(PMTKCommands.wakeUp)
        case .pair: false
        }
    }

    /// The receiver's own power save, on or off: u-blox PSM (CFG-RXM on the M8, CFG-PM-
    /// OPERATEMODE on the 9/10), MediaTek periodic standby (PMTK225 mode 2, `runMilliseconds`
    /// on and `sleepMilliseconds` off). False for PAIR receivers.
    @discardableResult
    public static func powerSave(_ on: Bool, _ dialect: CommandDialect, runMilliseconds: Int = 3000,
                                 sleepMilliseconds: Int = 12_000, into session: inout CommandSession) -> Bool {
        switch dialect {
        case .ubxLegacy: session.enqueue(UBXCommands.powerSaveMode(on))
        case .ubxValset: session.enqueue(UBXValset.powerSave(on))
        case .pmtk:
            session.enqueue(on ? PMTKCommands.periodicStandby(runMilliseconds: runMilliseconds,
                                                              sleepMilliseconds: sleepMilliseconds)
                               : PMTKCommands.periodicOff)
        case .pair: false
        }
    }
}
