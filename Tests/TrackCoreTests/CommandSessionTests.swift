import Testing
@testable import TrackCore

@Suite("Command session")
struct CommandSessionTests {
    let t0 = MonotonicTime.seconds(100)

    // `#expect` and `#require` cannot call mutating methods: every step is a `let` first.

    @Test("a command acknowledged goes, the next follows")
    func acknowledged() throws {
        var session = CommandSession()
        session.enqueue(UBXCommands.messageRate(.gst, everyEpochs: 1))
        session.enqueue(UBXCommands.measurementRate(milliseconds: 1000))
        let first = session.commandToSend(now: t0)
        #expect(first?.purpose == .sentence(.gst, everyEpochs: 1))
        let second = session.commandToSend(now: t0)
        #expect(second == nil, "one at a time")
        #expect(session.nextDeadline == t0.adding(milliseconds: 1500))
        let other = session.observe(.ubxAcknowledged(.cfgRate), now: t0)
        #expect(other == nil, "an answer naming another message does not count")
        let done = session.observe(.ubxAcknowledged(.cfgMsg), now: t0.adding(milliseconds: 40))
        #expect(done?.status == .acknowledged)
        let next = session.commandToSend(now: t0.adding(milliseconds: 40))
        #expect(next?.purpose == .fixInterval(milliseconds: 1000))
        let rate = session.observe(.ubxAcknowledged(.cfgRate), now: t0.adding(milliseconds: 90))
        #expect(rate?.status == .acknowledged)
        #expect(session.isIdle)
        #expect(session.nextDeadline == nil)
        #expect(session[0].status.description == "acknowledged")
    }

    @Test("refusals, with the vendor's words", arguments: [
        (UBXCommands.messageRate(.gbs, everyEpochs: 1), ReceiverReply.ubxRefused(.cfgMsg),
         "refused (ACK-NAK)"),
        (PMTKCommands.sentences(.trackdDefault), .pmtkAcknowledgement(command: 314, flag: .unsupported),
         "refused (PMTK001 flag 1, unsupported command)"),
        (PMTKCommands.fixInterval(milliseconds: 100), .pmtkAcknowledgement(command: 220, flag: .failed),
         "refused (PMTK001 flag 2, valid command but the action failed)"),
        (QuectelCommands.fixInterval(milliseconds: 100), .pairAcknowledgement(command: 50, result: .badParameter),
         "refused (PAIR001 result 4, parameter error)"),
        (UBXCommands.versionPoll, .ubxRefused(.monVer), "refused (ACK-NAK)"),
    ] as [(ReceiverCommand, ReceiverReply, String)])
    func refused(_ command: ReceiverCommand, _ reply: ReceiverReply, _ words: String) {
        var session = CommandSession()
        session.enqueue(command)
        let sent = session.commandToSend(now: t0)
        #expect(sent == command)
        let done = session.observe(reply, now: t0)
        #expect(done?.status.description == words)
    }

    @Test("no reply: sent again, then given up after its attempts")
    func noReply() {
        var session = CommandSession(replyTimeoutMilliseconds: 1000)
        session.enqueue(PMTKCommands.sentences(.trackdDefault))
        var now = t0
        for attempt in 1...3 {
            let command = session.commandToSend(now: now)
            #expect(command?.name == "PMTK314", "attempt \(attempt)")
            #expect(session[0].status == .sent(attempt: attempt))
            let early = session.expire(now: now.adding(milliseconds: 999))
            #expect(early == nil, "not yet")
            now = now.adding(milliseconds: 1000)
            let expired = session.expire(now: now)
            if attempt < 3 {
                #expect(expired == nil)
                #expect(session[0].status == .waiting)
            } else {
                #expect(expired?.status == .noReply(attempts: 3))
                #expect(expired?.status.description == "no reply after 3 tries")
            }
        }
        #expect(session.isIdle)
    }

    @Test("identification probes are tried twice")
    func probesTwice() {
        var session = CommandSession(replyTimeoutMilliseconds: 500)
        session.enqueue(UBXCommands.versionPoll)
        var now = t0
        for _ in 0..<2 {
            let sent = session.commandToSend(now: now)
            #expect(sent != nil)
            now = now.adding(milliseconds: 500)
            _ = session.expire(now: now)
        }
        #expect(session[0].status == .noReply(attempts: 2))
    }

    @Test("a command nothing answers is written; its settle time holds back the next")
    func settle() {
        var session = CommandSession()
        session.enqueue(UBXCommands.portBaud(115_200))
        session.enqueue(UBXCommands.versionPoll)
        let baud = session.commandToSend(now: t0)
        #expect(baud?.effect == .baud(115_200))
        #expect(session[0].status == .written)
        let early = session.commandToSend(now: t0.adding(milliseconds: 99))
        #expect(early == nil)
        #expect(session.nextDeadline == t0.adding(milliseconds: 100))
        let due = session.commandToSend(now: t0.adding(milliseconds: 100))
        #expect(due != nil)
    }

    @Test("PAIR001 result 1 means wait for the outcome")
    func pairInProgress() {
        var session = CommandSession(replyTimeoutMilliseconds: 1000)
        session.enqueue(QuectelCommands.fixInterval(milliseconds: 200))
        _ = session.commandToSend(now: t0)
        let pending = session.observe(.pairAcknowledgement(command: 50, result: .inProgress), now: t0.adding(milliseconds: 900))
        #expect(pending == nil)
        let expired = session.expire(now: t0.adding(milliseconds: 1500))
        #expect(expired == nil, "the wait starts again at the in-progress answer")
        #expect(session[0].status == .sent(attempt: 1))
        let done = session.observe(.pairAcknowledgement(command: 50, result: .done), now: t0.adding(milliseconds: 1600))
        #expect(done?.status == .acknowledged)
    }

    @Test("answers to the version queries", arguments: [
        (UBXCommands.versionPoll, ReceiverReply.ubxVersion(UBXVersion(software: ReplyText("ROM CORE 3.01"),
                                                                      hardware: ReplyText("00080000"),
                                                                      protocolVersionHundredths: 1800, module: nil))),
        (PMTKCommands.releaseQuery, .pmtkRelease(ReplyText("AXN_2.31_3339_13101700,5632,PA6H,1.0"))),
        (QuectelCommands.versionQuery, .quectelVersion(ReplyText("R,L70BGR03A05S"))),
        (QuectelCommands.pairVersionQuery, .quectelPairVersion(ReplyText("LC29HEANR11A03S"))),
        (PMTKCommands.wakeUp, .pmtkSystem(2)),
    ] as [(ReceiverCommand, ReceiverReply)])
    func queries(_ command: ReceiverCommand, _ reply: ReceiverReply) {
        var session = CommandSession()
        session.enqueue(command)
        _ = session.commandToSend(now: t0)
        let done = session.observe(reply, now: t0)
        #expect(done?.status == .acknowledged)
    }

    @Test("cancelling, and a full queue making room from finished entries")
    func capacity() {
        var session = CommandSession()
        var accepted = 0
        for _ in 0..<CommandSession.capacity where session.enqueue(PMTKCommands.standby) { accepted += 1 }
        #expect(accepted == CommandSession.capacity)
        let overflow = session.enqueue(PMTKCommands.standby)
        #expect(!overflow, "24 unfinished: no room")
        _ = session.commandToSend(now: t0)
        _ = session.observe(.pmtkAcknowledgement(command: 161, flag: .done), now: t0)
        let room = session.enqueue(PMTKCommands.wakeUp)
        #expect(room, "the finished one made room")
        #expect(session.count == CommandSession.capacity)
        session.cancelAll()
        #expect(session.isIdle)
        #expect(session[0].status == .cancelled)
        let none = session.commandToSend(now: t0)
        #expect(none == nil)
        session.removeAll()
        #expect(session.count == 0)
    }
}

@Suite("Receiver plans")
struct ReceiverPlanTests {
    static func plan(_ dialect: CommandDialect, _ settings: ReceiverSettings, currentBaud: Int? = 9600) -> [ReceiverCommand] {
        var session = CommandSession()
        ReceiverPlan.configure(dialect, settings, currentBaud: currentBaud, into: &session)
        return (0..<session.count).map { session[$0].command }
    }

    @Test("u-blox M8: one CFG-MSG per sentence, CFG-RATE, the baud last")
    func ubxLegacy() {
        let commands = Self.plan(.ubxLegacy, ReceiverSettings(fixIntervalMilliseconds: 1000, baud: 115_200,
                                                               sentences: .trackdDefault))
        #expect(commands.map(\.name) == Array(repeating: "CFG-MSG", count: 9) + ["CFG-RATE", "CFG-PRT"])
        #expect(commands[6].purpose == .sentence(.gst, everyEpochs: 1))
        #expect(commands[3].purpose == .sentence(.gsv, everyEpochs: 5))
        #expect(commands[1].purpose == .sentence(.gll, everyEpochs: 0))
        #expect(commands.last?.effect == .baud(115_200))
    }

    @Test("u-blox 9/10: one CFG-VALSET for sentences and rate, one for the baud")
    func ubxValset() {
        let commands = Self.plan(.ubxValset, ReceiverSettings(fixIntervalMilliseconds: 200, baud: 38_400,
                                                               sentences: .trackdDefault))
        #expect(commands.map(\.name) == ["CFG-VALSET", "CFG-VALSET"])
        #expect(commands[1].effect == .baud(38_400))
        #expect(Self.plan(.ubxValset, ReceiverSettings(fixIntervalMilliseconds: 200)).map(\.purpose)
            == [.fixInterval(milliseconds: 200)])
    }

    @Test("MediaTek: PMTK314, PMTK220, PMTK251; Quectel PAIR: PAIR062 per sentence, PAIR050, PAIR864")
    func textDialects() {
        let settings = ReceiverSettings(fixIntervalMilliseconds: 1000, baud: 57_600, sentences: .trackdDefault)
        #expect(Self.plan(.pmtk, settings).map(\.name) == ["PMTK314", "PMTK220", "PMTK251"])
        #expect(Self.plan(.pair, settings).map(\.name) == Array(repeating: "PAIR062", count: 7) + ["PAIR050", "PAIR864"])
    }

    @Test("no baud change at the baud already in use; nothing asked, nothing sent")
    func nothingToDo() {
        #expect(Self.plan(.pmtk, ReceiverSettings(baud: 9600), currentBaud: 9600).isEmpty)
        #expect(Self.plan(.ubxLegacy, ReceiverSettings()).isEmpty)
    }

    @Test("identification, sleep, wake and power save per command set")
    func otherJobs() {
        var session = CommandSession()
        let queued = [
            ReceiverPlan.identify(nil, into: &session) == 4, ReceiverPlan.identify(.ublox, into: &session) == 1,
            ReceiverPlan.sleep(.ubxValset, into: &session), ReceiverPlan.sleep(.pmtk, into: &session),
            !ReceiverPlan.sleep(.pair, into: &session), ReceiverPlan.wake(.ubxLegacy, into: &session),
            ReceiverPlan.powerSave(true, .pmtk, into: &session), ReceiverPlan.powerSave(true, .ubxLegacy, into: &session),
            !ReceiverPlan.powerSave(true, .pair, into: &session),
        ]
        #expect(queued == Array(repeating: true, count: 9))
        let names = (0..<session.count).map { session[$0].command.name }
        #expect(names == ["MON-VER", "PMTK605", "PQTMVERNO", "PQVERNO", "MON-VER", "RXM-PMREQ", "PMTK161", "bytes",
                          "PMTK225", "CFG-RXM"])
    }
}
