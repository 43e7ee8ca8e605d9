import Foundation
import Testing
import TrackCore
@testable import TrackDaemon
@testable import TrackIO

/// Receiver control in the real daemon, in-process: the scripted source with the simulator's
/// receiver on its line (`ScriptedSource.Line`) records every byte the daemon writes and
/// answers it as that receiver does; every time is the test's.
@Suite("receiver control in-process")
struct ReceiverControlTests {
    /// `seconds` epochs at 1 Hz from `start` ms, standing still (0 knots) at one place.
    static func still(_ seconds: Int, from start: Int64 = 0) -> [ScriptedSource.Chunk] {
        (0..<seconds).map { second in
            ScriptedSource.Chunk(atMilliseconds: start + Int64(second) * 1_000,
                                 bytes: NMEA.epoch(second: Int(start / 1_000) + second, latitude: 48.5231, longitude: 9.0663))
        }
    }

    static func json(_ harness: InProcessDaemon) throws -> [String: Any] {
        let reply = harness.request("status json")
        let body = try #require(reply.split(separator: "\n").dropFirst().first, "\(reply)")
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8))
        return try #require(object as? [String: Any])
    }

    static func control(_ harness: InProcessDaemon) throws -> [String: Any] {
        let receiver = try #require(json(harness)["receiver"] as? [String: Any])
        return try #require(receiver["control"] as? [String: Any])
    }

    static func written(_ harness: InProcessDaemon) -> [[UInt8]] {
        harness.daemon.receiver.source.line?.written.map(\.bytes) ?? []
    }

    /// The commands written, by their protocol names (`CFG-MSG`, `PMTK314`, `bytes`).
    static func names(_ harness: InProcessDaemon) -> [String] {
        written(harness).map { bytes in
            if bytes.count >= 4 && bytes[0] == 0xB5 && bytes[1] == 0x62 { return UBXMessageID(bytes[2], bytes[3]).name }
            guard bytes.first == UInt8(ascii: "$") else { return "bytes" }
            return String(decoding: bytes.dropFirst().prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "*") },
                          as: UTF8.self)
        }
    }

    static func receiver(_ harness: InProcessDaemon) -> SimulatedReceiver? { harness.daemon.receiver.source.line?.receiver }

    @Test("each receiver type is identified by its answer and set up; every command acknowledged", arguments: [
        (SimulatedReceiver.Model.ubloxM8, 9600, "UBX legacy CFG", ["MON-VER"] + Array(repeating: "CFG-MSG", count: 9) + ["CFG-RATE"]),
        (.ubloxM10, 38_400, "UBX CFG-VALSET", ["MON-VER", "CFG-VALSET"]),
        // The probes go in turn, each twice: a MediaTek ignores MON-VER, the LC29H PMTK605 too.
        (.mediatek, 9600, "PMTK", ["MON-VER", "MON-VER", "PMTK605", "PMTK314", "PMTK220"]),
        (.quectel, 115_200, "PAIR", ["MON-VER", "MON-VER", "PMTK605", "PMTK605", "PQTMVERNO"]
            + Array(repeating: "PAIR062", count: 7) + ["PAIR050"]),
    ] as [(SimulatedReceiver.Model, Int, String, [String])])
    func identifiedAndConfigured(_ model: SimulatedReceiver.Model, _ baud: Int, _ dialect: String, _ commands: [String]) throws {
        let source = ScriptedSource(Self.still(20), receiver: model, receiverBaud: baud, portBaud: baud)
        let harness = try InProcessDaemon(source)
        harness.run(until: 20_000)
        #expect(Self.names(harness) == commands)
        let control = try Self.control(harness)
        #expect(control["phase"] as? String == "configured")
        #expect(control["dialect"] as? String == dialect)
        #expect(control["refused"] as? Int == 0)
        #expect(control["unanswered"] as? Int == 0)
        let taken = try #require(Self.receiver(harness)).commandsTaken
        #expect(taken == control["acknowledged"] as? Int, "every answered command counted once")
        #expect(Self.receiver(harness)?.fixIntervalMilliseconds == 1000)
        if model != .quectel {
            #expect(Self.receiver(harness)?.sentences == .trackdDefault, "the sentences trackd asked for")
        }
        let doctor = harness.request("doctor")
        #expect(doctor.contains("ok receiver control: "), "\(doctor)")
        #expect(doctor.contains("ok all links work"), "\(doctor)")
        let info = harness.request("receiver info")
        #expect(info.hasPrefix("ok\nreceiver  "), "\(info)")
        #expect(info.contains(": acknowledged"), "\(info)")
    }

    @Test("a receiver that ignores everything: every probe twice, then nothing; named in doctor, the fixes still logged")
    func silentReceiver() throws {
        let harness = try InProcessDaemon(ScriptedSource(Self.still(30), receiver: .silent))
        harness.run(until: 30_000)
        #expect(Self.names(harness) == ["MON-VER", "MON-VER", "PMTK605", "PMTK605", "PQTMVERNO", "PQTMVERNO",
                                        "PQVERNO", "PQVERNO"])
        let control = try Self.control(harness)
        #expect(control["phase"] as? String == "unidentified")
        #expect(control["probes"] as? Int == 8)
        let doctor = harness.request("doctor")
        #expect(doctor.contains("error receiver control: the receiver did not answer (8 probes): receiver control is off for it"),
                "\(doctor)")
        #expect(doctor.contains("ok the chain from port to log works; the errors above are beside it"), "\(doctor)")
        #expect(harness.request("receiver rate 5").hasPrefix("error receiver: the receiver answered none of the probes"))
        let (records, _) = try harness.stopAndReadLog()
        #expect(records.contains { if case .fix = $0 { true } else { false } })
    }

    @Test("a u-blox whose MON-VER answers never come gets the legacy plan; an M10 refuses it (ACK-NAK) and gets CFG-VALSET")
    func nakSwitchesToValset() throws {
        var source = ScriptedSource(Self.still(20), receiver: .ubloxM10, receiverBaud: 38_400, portBaud: 38_400)
        source.line?.dropReplies = 2
        let harness = try InProcessDaemon(source, configure: { $0.receiver.type = .ublox })
        harness.run(until: 20_000)
        #expect(Self.names(harness) == ["MON-VER", "MON-VER", "CFG-MSG", "CFG-VALSET"])
        let control = try Self.control(harness)
        #expect(control["dialect"] as? String == "UBX CFG-VALSET")
        #expect(control["refused"] as? Int == 1)
        #expect(control["unanswered"] as? Int == 0, "a probe nobody answers is no fault")
        #expect(control["lastRefused"] as? String == "turn GGA on every epoch" || control["lastRefused"] as? String == "set GGA to every epoch")
        #expect(Self.receiver(harness)?.sentences == .trackdDefault)
        let doctor = harness.request("doctor")
        #expect(doctor.contains("error receiver control: the receiver refused 1 of "), "\(doctor)")
        #expect(doctor.contains("refused (ACK-NAK)"), "\(doctor)")
        let status = harness.request("status")
        #expect(status.contains("refused: set GGA to every epoch (CFG-MSG): refused (ACK-NAK)"), "\(status)")
    }

    @Test("set-baud: the receiver is moved, the port follows, the sentences come at the new rate", arguments: [nil, 9600] as [Int?])
    func baudSwitch(_ portBaud: Int?) throws {
        let source = ScriptedSource(Self.still(30), receiver: .ubloxM8, receiverBaud: 9600, portBaud: portBaud)
        let harness = try InProcessDaemon(source, configure: { config in
            config.receiver.setBaud = 115_200
            if let portBaud { config.receiver.baud = .fixed(bitsPerSecond: UInt32(portBaud)) }
        })
        harness.run(until: 30_000)
        #expect(Self.names(harness).last == "CFG-PRT")
        #expect(Self.receiver(harness)?.baud == 115_200)
        let portBaudNow = harness.daemon.receiver.source.line?.baud
        #expect(portBaudNow == 115_200)
        let control = try Self.control(harness)
        #expect(control["lostAfterBaud"] == nil)
        let json = try Self.json(harness)
        #expect((json["receiver"] as? [String: Any])?["baud"] as? Int == 115_200)
        #expect(harness.request("receiver info").contains("receiver sends at 115200"))
    }

    @Test("a baud switch that loses the receiver: named, the port goes back (auto-baud or by itself), found again, set up again without it, nothing logged lost",
          arguments: [nil, 9600] as [Int?])
    func baudSwitchLosesTheReceiver(_ portBaud: Int?) throws {
        var source = ScriptedSource(Self.still(60), receiver: .ubloxM8, receiverBaud: 9600, portBaud: portBaud)
        source.line?.receiver.keepsBaud = true
        let harness = try InProcessDaemon(source, configure: { config in
            config.receiver.setBaud = 115_200
            if let portBaud { config.receiver.baud = .fixed(bitsPerSecond: UInt32(portBaud)) }
        })
        harness.run(until: 60_000)
        let control = try Self.control(harness)
        #expect(control["lostAfterBaud"] as? Int == 115_200)
        #expect(control["foundAtBaud"] as? Int == 9600)
        #expect(control["phase"] as? String == "configured")
        let portBaudNow = harness.daemon.receiver.source.line?.baud
        #expect(portBaudNow == 9600)
        // Set up twice (after the open, after it was found again), CFG-PRT only the first time.
        let names = Self.names(harness)
        #expect(names.filter { $0 == "CFG-PRT" }.count == 1, "\(names)")
        #expect(names.filter { $0 == "CFG-RATE" }.count == 2, "\(names)")
        let doctor = harness.request("doctor")
        #expect(doctor.contains("error receiver control: the receiver was lost after switching to 115200 baud (found again at 9600 baud"),
                "\(doctor)")
        // The fixes came again: the last good one is recent.
        let lastGood = try #require(harness.daemon.fixes.lastGoodFixAt)
        #expect(lastGood.nanoseconds / 1_000_000 >= 58_000)
        let (records, problems) = try harness.stopAndReadLog()
        #expect(problems.isEmpty)
        #expect(!records.contains { if case .gap = $0 { true } else { false } }, "no gap: the receiver was never lost to the log")
    }

    @Test("type = none writes nothing, ever; a replay-like source takes no commands")
    func noneWritesNothing() throws {
        let harness = try InProcessDaemon(ScriptedSource(Self.still(10), receiver: .ubloxM8),
                                          configure: { $0.receiver.type = .none })
        harness.run(until: 10_000)
        #expect(Self.written(harness).isEmpty)
        #expect(try Self.control(harness)["phase"] as? String == "off")
        #expect(harness.request("receiver info").contains("receiver  not identified yet"))
        #expect(harness.request("receiver sleep").hasPrefix("error receiver: receiver control is off ([receiver] type = none)"))
        let scripted = try InProcessDaemon(ScriptedSource(Self.still(5)))
        scripted.run(until: 5_000)
        #expect(scripted.request("receiver wake").hasPrefix("error receiver: the source is a replay: it takes no commands"))
    }

    @Test("trackctl receiver rate, sentences and baud: queued in the receiver's command set, acknowledged, kept")
    func requests() throws {
        let harness = try InProcessDaemon(ScriptedSource(Self.still(30), receiver: .mediatek))
        harness.run(until: 5_000)
        #expect(harness.request("receiver rate 5").hasPrefix("ok\nqueued for the receiver"))
        #expect(harness.request("receiver sentences rmc gga gst/2").hasPrefix("ok\nqueued"))
        harness.run(until: 10_000)
        #expect(Self.receiver(harness)?.fixIntervalMilliseconds == 200)
        #expect(Self.receiver(harness)?.sentences?[.gst] == 2)
        #expect(Self.receiver(harness)?.sentences?[.gsa] == 0)
        let kept = harness.daemon.receiver.controller.settings.receiver.fixIntervalMilliseconds
        #expect(kept == 200, "kept for the next plan")
        #expect(harness.request("receiver baud 38400").hasPrefix("ok\nqueued"))
        harness.run(until: 20_000)
        #expect(Self.receiver(harness)?.baud == 38_400)
        let portBaudNow = harness.daemon.receiver.source.line?.baud
        #expect(portBaudNow == 38_400)
        let info = harness.request("receiver info")
        #expect(info.contains("command   set the fix interval to 200 ms (PMTK220): acknowledged"), "\(info)")
        #expect(info.contains("command   set the baud to 38400 (PMTK251): written (nothing answers it)"), "\(info)")
        #expect(info.contains("receiver sends at 38400"), "\(info)")
    }

    @Test("bad receiver requests are refused with their usage", arguments: [
        "receiver", "receiver rate 3", "receiver rate fast", "receiver baud 1234", "receiver sentences gsx",
        "receiver sentences rmc rmc", "receiver sentences", "receiver info now", "receiver reboot",
    ])
    func badRequests(_ text: String) {
        let line = ControlLine(Array(text.utf8))
        guard case .refused(let message) = line.withSpan({ ControlRequest.parse($0) }) else {
            Issue.record("\(text) was not refused")
            return
        }
        #expect(message.description.hasPrefix("error usage: receiver"))
    }

    @Test("requests parse into their values", arguments: [
        ("receiver info", ReceiverRequest.info), ("receiver rate 10", .rate(milliseconds: 100)),
        ("receiver baud 115200", .baud(115_200)), ("receiver sleep", .sleep), ("receiver wake", .wake),
        ("receiver sentences rmc,gga gsv/5", .sentences(SentenceRates(gga: 1, gsv: 5, rmc: 1))),
    ] as [(String, ReceiverRequest)])
    func goodRequests(_ text: String, _ request: ReceiverRequest) {
        let line = ControlLine(Array(text.utf8))
        guard case .receiver(let parsed) = line.withSpan({ ControlRequest.parse($0) }) else {
            Issue.record("\(text) did not parse")
            return
        }
        #expect(parsed == request)
    }

    /// A still MediaTek with power save after 30 s, the track profile's 60 s heartbeat.
    static func sleeper(_ seconds: Int = 200) throws -> InProcessDaemon {
        try InProcessDaemon(ScriptedSource(still(seconds), receiver: .mediatek), configure: { config in
            config.receiver.powerSave = true
            config.receiver.powerSaveAfterMilliseconds = 30_000
        })
    }

    static func sleeps(_ records: [LogRecord]) -> [(Int64, Int64)] {
        records.compactMap {
            if case .receiverAsleep(let from, let to) = $0 { (from.millisecondsSinceEpoch, to.millisecondsSinceEpoch) } else { nil }
        }
    }

    @Test("standing still: asleep after power-save-after, woken for each heartbeat, the sleep logged as a stop, led-fix blips")
    func sleepsWhileStill() throws {
        let harness = try Self.sleeper()
        var asleepAt40: String = ""
        harness.run(until: 200_000, at: [(40_000, { asleepAt40 = $0.request("doctor") })])
        #expect(asleepAt40.contains("ok receiver: asleep (power save) for "), "\(asleepAt40)")
        #expect(asleepAt40.contains("ok permission: always"), "\(asleepAt40)")
        let names = Self.names(harness)
        let standbys = names.filter { $0 == "PMTK161" }.count
        #expect(standbys >= 3, "\(names)")
        #expect(names.filter { $0 == "bytes" }.count >= standbys - 1, "woken by CR LF each time: \(names)")
        // Each wake sets it up again.
        #expect(names.filter { $0 == "PMTK314" }.count >= standbys, "\(names)")
        let control = try Self.control(harness)
        let percent = try #require(control["asleepPercent"] as? Double)
        #expect(percent > 50 && percent < 100, "asleep \(percent) % of the time")
        // led-fix: the 50 ms blip of a sleeping receiver, not "silent" (dark) or a port error.
        let fix = harness.edges(.fix)
        let blips = zip(fix, fix.dropFirst()).filter { on, off in
            guard on.hasPrefix("1@"), off.hasPrefix("0@"), let start = Int(on.dropFirst(2)), let end = Int(off.dropFirst(2)) else {
                return false
            }
            return end - start == 50
        }
        #expect(blips.count >= 5, "\(fix)")
        let (records, problems) = try harness.stopAndReadLog()
        #expect(problems.isEmpty)
        #expect(!records.contains { if case .gap = $0 { true } else { false } })
        let sleeps = Self.sleeps(records)
        #expect(sleeps.count >= 2, "\(records)")
        // The heartbeat fixes still come, one a minute.
        let fixes = records.compactMap { if case .fix(let fix) = $0 { fix.time.millisecondsSinceEpoch } else { nil } }
        #expect(fixes.count >= 3)
        // The trips read the sleep as the stop it is: no trip, no gap.
        var cutter = TripCutter(TripSettings())
        var trips: [Trip] = []
        for record in records { cutter.consume(record) { trips.append($0) } }
        cutter.finish { trips.append($0) }
        #expect(trips.isEmpty, "standing still is no trip: \(trips)")
    }

    @Test("asleep, the button, the in-use input and trackctl receiver wake each wake it; receiver sleep puts it to sleep at once")
    func wakeUpConditions() throws {
        let harness = try Self.sleeper()
        var replies: [String] = []
        harness.run(until: 120_000, at: [
            (40_000, { replies.append($0.request("button short")) }),
            (41_000, { replies.append($0.request("receiver info")) }),
            (50_000, { replies.append($0.request("receiver sleep")) }),
            (52_000, { replies.append($0.request("receiver info")) }),
            (53_000, { replies.append($0.request("receiver wake")) }),
            (54_000, { replies.append($0.request("receiver info")) }),
        ])
        #expect(replies[0].hasPrefix("ok\nbutton pressed"))
        #expect(replies[1].contains("power     awake (woken by the button"), "\(replies[1])")
        #expect(replies[2].hasPrefix("ok\nthe receiver goes to sleep now"), "\(replies[2])")
        #expect(replies[3].contains("power     asleep for "), "\(replies[3])")
        #expect(replies[4].hasPrefix("ok\nwaking the receiver; it stays up for 30.0s"), "\(replies[4])")
        #expect(replies[5].contains("power     awake (woken by trackctl receiver wake"), "\(replies[5])")
        // Held up for power-save-after (30 s) by the request: no sleep before 83 s.
        let power = harness.daemon.receiver.controller.power
        #expect(power.sleeps >= 2)
        #expect(harness.request("receiver wake").contains("ok"))
    }

    @Test("the in-use input going active wakes the receiver")
    func inUseWakes() throws {
        let harness = try Self.sleeper()
        harness.run(until: 40_000)
        let asleep = harness.daemon.receiver.isAsleep
        #expect(asleep)
        let line = try #require(harness.daemon.board.driver.board.inUse)
        let active: GPIOEdge = harness.daemon.board.driver.settings.inUseActiveHigh ? .rising : .falling
        harness.daemon.board.driver.board.backend.inject(active, on: line, at: .milliseconds(40_000))
        harness.run(until: 42_000)
        let inUse = harness.daemon.board.inUse
        #expect(inUse)
        let wokeBy = harness.daemon.receiver.controller.power.wokeBy
        #expect(wokeBy == .inUse)
        let awake = !harness.daemon.receiver.isAsleep
        #expect(awake)
    }
}

