import Testing
@testable import TrackCore

/// The simulated receivers against trackd's own commands, detector and session: the whole
/// command path in values, the clock passed in.
struct ControlLoop {
    var receiver: SimulatedReceiver
    var stream = ReceiverStream()
    var detector = ReceiverDetector()
    var session = CommandSession(replyTimeoutMilliseconds: 1000)
    var now = MonotonicTime.seconds(10)
    /// Baud trackd's port is at; bytes cross only when it is the receiver's.
    var portBaud: Int

    init(_ model: SimulatedReceiver.Model, baud: Int = 9600) {
        receiver = SimulatedReceiver(model, baud: baud)
        portBaud = baud
    }

    /// Runs the session until idle (or 200 steps of 100 ms), following baud changes when
    /// `follow`; returns the entries it finished, in order.
    mutating func run(follow: Bool = true) -> [CommandEntry] {
        let first = session.current
        for _ in 0..<200 {
            if let command = session.commandToSend(now: now) {
                var replies = TextBuffer()
                let agree = portBaud == receiver.baud
                let bytes = agree ? command.bytes : command.bytes.map(SimulatedReceiver.garbled)
                bytes.withUnsafeBytes { receiver.receive($0, replies: &replies) }
                if agree { take(&replies) }
                receiver.settle()
                if follow, case .baud(let rate) = command.effect { portBaud = rate }
            }
            _ = session.expire(now: now)
            if session.isIdle { break }
            now = now.adding(milliseconds: 100)
        }
        return (first..<session.current).map { session[$0] }
    }

    mutating func take(_ replies: inout TextBuffer) {
        var bytes: [UInt8] = []
        replies.withBytes { span in for index in span.indices { bytes.append(span[index]) } }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while let event = stream.next(raw, from: &offset) {
                guard event == .reply else { continue }
                detector.observe(stream.reply)
                _ = session.observe(stream.reply, now: now)
            }
        }
    }
}

@Suite("Simulated receivers")
struct SimulatedReceiverTests {
    static let settings = ReceiverSettings(fixIntervalMilliseconds: 200, baud: 115_200, sentences: .trackdDefault)

    @Test("each receiver is identified by its answers to the probes", arguments: [
        (SimulatedReceiver.Model.ubloxM8, ReceiverFamily.ublox, CommandDialect.ubxLegacy),
        (.ubloxM10, .ublox, .ubxValset),
        (.mediatek, .mediatek, .pmtk),
        (.quectel, .quectel, .pair),
    ] as [(SimulatedReceiver.Model, ReceiverFamily, CommandDialect)])
    func identification(_ model: SimulatedReceiver.Model, _ family: ReceiverFamily, _ dialect: CommandDialect) {
        var loop = ControlLoop(model)
        ReceiverPlan.identify(nil, into: &loop.session)
        _ = loop.run()
        #expect(loop.detector.identity?.family == family)
        #expect(loop.detector.identity?.dialect == dialect)
    }

    @Test("a receiver that ignores everything stays unknown, every probe unanswered")
    func silent() {
        var loop = ControlLoop(.silent)
        ReceiverPlan.identify(nil, into: &loop.session)
        let finished = loop.run()
        #expect(loop.detector.identity == nil)
        #expect(finished.map(\.status) == Array(repeating: .noReply(attempts: 2), count: 4))
    }

    @Test("configured in its own command set, every command is acknowledged and takes effect", arguments: [
        (SimulatedReceiver.Model.ubloxM8, CommandDialect.ubxLegacy), (.ubloxM10, .ubxValset), (.mediatek, .pmtk),
        (.quectel, .pair),
    ] as [(SimulatedReceiver.Model, CommandDialect)])
    func configuration(_ model: SimulatedReceiver.Model, _ dialect: CommandDialect) {
        var loop = ControlLoop(model)
        ReceiverPlan.configure(dialect, Self.settings, currentBaud: 9600, into: &loop.session)
        let finished = loop.run()
        #expect(finished.allSatisfy { $0.status == .acknowledged || $0.status == .written }, "\(finished.map(\.status))")
        #expect(loop.receiver.baud == 115_200)
        #expect(loop.receiver.fixIntervalMilliseconds == 200)
        var expected = SentenceRates.trackdDefault
        // What a command set cannot say stays as the receiver had it.
        if dialect == .pair { expected[.gst] = 0 }
        if dialect == .pmtk { expected[.gbs] = 0 }
        #expect(loop.receiver.sentences == expected)
        // After the baud change the port follows, and the receiver still answers.
        ReceiverPlan.identify(nil, into: &loop.session)
        _ = loop.run()
        #expect(loop.detector.identity?.dialect == dialect)
    }

    @Test("the M10 refuses the M8's commands with ACK-NAK, the M8 refuses CFG-VALSET")
    func wrongDialect() {
        var m10 = ControlLoop(.ubloxM10)
        ReceiverPlan.configure(.ubxLegacy, ReceiverSettings(fixIntervalMilliseconds: 1000, sentences: .trackdDefault),
                               currentBaud: 9600, into: &m10.session)
        let refused = m10.run()
        #expect(refused.count == 10)
        #expect(refused.allSatisfy { $0.status == .refused(.ubxNak) })
        #expect(refused.first?.status.description == "refused (ACK-NAK)")
        var m8 = ControlLoop(.ubloxM8)
        ReceiverPlan.configure(.ubxValset, ReceiverSettings(fixIntervalMilliseconds: 1000), currentBaud: 9600, into: &m8.session)
        #expect(m8.run().map(\.status) == [.refused(.ubxNak)])
    }

    @Test("a baud change the port does not follow loses the receiver; following it finds it again")
    func lostAfterBaudChange() {
        var loop = ControlLoop(.mediatek)
        ReceiverPlan.configure(.pmtk, ReceiverSettings(baud: 38_400), currentBaud: 9600, into: &loop.session)
        _ = loop.run(follow: false)
        #expect(loop.receiver.baud == 38_400)
        ReceiverPlan.identify(.mediatek, into: &loop.session)
        #expect(loop.run().map(\.status) == [.noReply(attempts: 2)])
        loop.portBaud = 38_400
        ReceiverPlan.identify(.mediatek, into: &loop.session)
        #expect(loop.run().map(\.status) == [.acknowledged])
    }

    @Test("sleep and wake: standby ends at any byte (MediaTek), backup at UART RX (u-blox)", arguments: [
        (SimulatedReceiver.Model.mediatek, CommandDialect.pmtk), (.ubloxM8, .ubxLegacy), (.ubloxM10, .ubxValset),
    ] as [(SimulatedReceiver.Model, CommandDialect)])
    func sleepAndWake(_ model: SimulatedReceiver.Model, _ dialect: CommandDialect) {
        var loop = ControlLoop(model)
        ReceiverPlan.sleep(dialect, into: &loop.session)
        _ = loop.run()
        #expect(loop.receiver.isAsleep)
        ReceiverPlan.wake(dialect, into: &loop.session)
        let woken = loop.run()
        #expect(!loop.receiver.isAsleep)
        #expect(woken.last?.status == (dialect == .pmtk ? .acknowledged : .written))
    }

    @Test("the M10 stays awake without the force flag; the LC29H is not woken by the UART")
    func sleepDetails() {
        var m10 = ControlLoop(.ubloxM10)
        m10.session.enqueue(UBXCommands.backup(force: false))
        _ = m10.run()
        #expect(!m10.receiver.isAsleep)
        var quectel = ControlLoop(.quectel)
        quectel.session.enqueue(QuectelCommands.backup)
        #expect(quectel.run().map(\.status) == [.acknowledged])
        #expect(quectel.receiver.isAsleep)
        quectel.session.enqueue(PMTKCommands.wakeUp)
        _ = quectel.run()
        #expect(quectel.receiver.isAsleep)
    }

    @Test("unknown and malformed commands are refused in the vendor's words")
    func refusals() {
        var mediatek = ControlLoop(.mediatek)
        mediatek.session.enqueue(PMTKCommands.fixInterval(milliseconds: 20))
        mediatek.session.enqueue(QuectelCommands.fixInterval(milliseconds: 200))
        let statuses = mediatek.run().map(\.status)
        #expect(statuses == [.refused(.pmtk(.failed)), .noReply(attempts: 3)])
        var quectel = ControlLoop(.quectel)
        quectel.session.enqueue(QuectelCommands.fixInterval(milliseconds: 5000))
        #expect(quectel.run().map(\.status) == [.refused(.pair(.badParameter))])
    }

    @Test("the simulator follows the receiver: interval, sentence set, GST")
    func simulatorFollows() throws {
        let track = try GPXTrack(parsing: Array("""
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="48.0" lon="11.0"><ele>500</ele><time>2026-01-01T12:00:00Z</time></trkpt>
            <trkpt lat="48.001" lon="11.0"><ele>500</ele><time>2026-01-01T12:01:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """.utf8))
        var simulator = try NMEASimulator(track: track)
        simulator.outputRates = SentenceRates(gga: 1, rmc: 1, gst: 1, zda: 2)
        simulator.setEpochInterval(milliseconds: 200)
        var buffer = TextBuffer()
        for _ in 0..<4 { _ = simulator.writeEpoch(to: &buffer) }
        let text = buffer.string
        #expect(text.components(separatedBy: "$GPGST,").count - 1 == 4)
        #expect(text.components(separatedBy: "$GPZDA,").count - 1 == 2)
        #expect(!text.contains("$GPGSV") && !text.contains("$GPVTG"))
        #expect(text.contains("$GPRMC,120000.60,"), "epochs 200 ms apart")
        let fixes = receive(Array(text.utf8)).fixes
        #expect(fixes.count == 4)
        // GST's 1σ (0.5 m without noise) reaches the fix the filter judges.
        #expect(fixes.last?.latitudeErrorCentimetres == 50)
    }
}
