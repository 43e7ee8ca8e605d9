import CLinux
import Foundation
import Testing
import TestData
import TrackCore
@testable import TrackIO

// The uplink's MQTT client parts against the real broker: Debian's mosquitto 2.0 on a loopback
// port of the test's own, a user and password in a password file made by mosquitto_passwd,
// anonymous access off. Our packets (TrackCore's MQTTWriter and MQTTReader over TrackIO's
// TCPConnection) connect, publish at QoS 1 and are acknowledged; Debian's mosquitto_sub,
// subscribed with a persistent session at QoS 2 as the OwnTracks Recorder subscribes, receives
// exactly the JSON built from a real track log.

private let mosquitto = "/usr/sbin/mosquitto"
private let mosquittoSub = "/usr/bin/mosquitto_sub"
private let mosquittoPasswd = "/usr/bin/mosquitto_passwd"
private let haveMosquitto = [mosquitto, mosquittoSub, mosquittoPasswd].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

/// A private mosquitto: its own config, password file and port; stopped by `stop()`.
final class LoopbackBroker {
    let folder: TemporaryFolder
    let port: UInt16
    let process = Process()

    init(user: String, password: String) throws {
        folder = try TemporaryFolder()
        port = freeLoopbackPort()
        let passwords = folder.file("passwd")
        try runProgram(mosquittoPasswd, ["-c", "-b", passwords, user, password])
        try """
            listener \(port) 127.0.0.1
            allow_anonymous false
            password_file \(passwords)
            persistence false
            log_dest stderr
            """.write(toFile: folder.file("mosquitto.conf"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: mosquitto)
        process.arguments = ["-c", folder.file("mosquitto.conf")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard waitForListener(port) else { throw Errno.connectionRefused }
    }

    func stop() {
        // SIGKILL: a child of the test process may start with SIGTERM blocked (the mask it
        // inherits from the thread that spawned it), and would then never stop.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        folder.remove()
    }

    /// mosquitto_sub as the Recorder subscribes: `owntracks/#`, QoS 2, a persistent session
    /// (`-c`, client id `recorder`); prints `topic<TAB>retain<TAB>payload` lines.
    func subscribe(_ extra: [String]) throws -> (status: Int32, output: String, errors: String) {
        try runProgram(mosquittoSub, ["-h", "127.0.0.1", "-p", String(port), "-u", "tracker", "-P", "s3cret",
                                      "-t", "owntracks/#", "-q", "2", "-F", "%t\t%r\t%p"] + extra)
    }
}

/// CONNECT, then the first packet back.
private func connect(_ client: borrowing BlockingClient, _ options: MQTTConnect) throws -> MQTTPacket? {
    var buffer = TextBuffer()
    try MQTTWriter.writeConnect(options, to: &buffer)
    try client.send(buffer.bytes())
    return try readPackets(from: client, count: 1).first
}

/// The next `count` packets from the broker.
private func readPackets(from client: borrowing BlockingClient, count: Int) throws -> [MQTTPacket] {
    var reader = MQTTReader()
    var packets: [MQTTPacket] = []
    while packets.count < count {
        let bytes = try client.receive()
        guard !bytes.isEmpty else { break }
        var offset = 0
        while let packet = try reader.next(bytes.span, at: &offset) { packets.append(packet) }
    }
    return packets
}

@Suite(.enabled(if: haveMosquitto, "needs Debian's mosquitto and mosquitto-clients (scripts/setup)"), .serialized)
struct UplinkBrokerTests {
    @Test func publishesTheLogAndTheRecorderReceivesExactlyIt() throws {
        let broker = try LoopbackBroker(user: "tracker", password: "s3cret")
        defer { broker.stop() }
        // The Recorder's persistent session, made before anything is published.
        let session = try broker.subscribe(["-c", "-i", "recorder", "-E"])
        #expect(session.status == 0, "\(session.errors)")

        // A real log: fixes, a waypoint, fence events.
        let log = try TemporaryFolder()
        defer { log.remove() }
        var records = SyntheticLog.walk(40)
        records.insert(.waypoint(time: UTCTime(millisecondsSinceEpoch: LogTestRecords.t0 + 10_000),
                                 position: LogPosition(latitudeE7: 481_174_000, longitudeE7: 115_167_000), label: LogLabel("camp 2")!), at: 11)
        records.insert(.fenceEvent(time: UTCTime(millisecondsSinceEpoch: LogTestRecords.t0 + 20_000), fenceID: 3, kind: .enter,
                                   position: LogPosition(latitudeE7: 481_175_000, longitudeE7: 115_167_000)), at: 22)
        var writer = try LogWriter(settings: LogWriterSettings(directory: log.file("log")), files: PosixLogFiles(), now: .at(0))
        for record in records { writer.append(record, now: .at(0)) }
        writer.close(now: .at(1_000))
        let messages = try ownTracksMessages(log.file("log"), base: "owntracks/alice/bike")
        #expect(messages.count == 40 + 1 + 2)

        let client = try BlockingClient("127.0.0.1:\(broker.port)")
        let accepted = try connect(client, MQTTConnect(clientID: "trackd-bike", keepAliveSeconds: 60, username: "tracker", password: "s3cret"))
        #expect(accepted == .connectAcknowledgement(sessionPresent: false, returnCode: .accepted))
        var out: [UInt8] = []
        for (index, message) in messages.enumerated() {
            var buffer = TextBuffer()
            let payload = Array(message.payload.utf8)
            try MQTTWriter.writePublish(topic: message.topic, payload: payload.span, qos: .atLeastOnce, retain: message.retain,
                                        packetID: UInt16(index + 1), to: &buffer)
            out += buffer.bytes()
        }
        try client.send(out)
        // QoS 1: one PUBACK per message, in the order they were published (§4.6).
        let acknowledgements = try readPackets(from: client, count: messages.count)
        #expect(acknowledgements == (1...messages.count).map { .publishAcknowledgement(packetID: UInt16($0)) })
        var ping = TextBuffer()
        try MQTTWriter.writePingRequest(to: &ping)
        try client.send(ping.bytes())
        #expect(try readPackets(from: client, count: 1) == [.pingResponse])
        var goodbye = TextBuffer()
        try MQTTWriter.writeDisconnect(to: &goodbye)
        try client.send(goodbye.bytes())

        // The session's queue, as the Recorder gets it on reconnecting: every message once, in
        // order, byte for byte, not flagged retained (a live delivery, §3.3.1.3).
        let received = try broker.subscribe(["-c", "-i", "recorder", "-C", String(messages.count), "-W", "10"])
        #expect(received.status == 0, "\(received.errors)")
        let lines = received.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines == messages.map { $0.topic + "\t0\t" + $0.payload })
        for message in messages {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any])
            #expect(object["_type"] is String && object["tst"] is NSNumber && object["lat"] is NSNumber && object["lon"] is NSNumber)
        }
        // A new subscriber gets the last location, retained; the transition was not retained.
        let retained = try broker.subscribe(["-C", "1", "-W", "5", "--retained-only"])
        #expect(retained.output == "owntracks/alice/bike\t1\t" + (messages.last { $0.retain }?.payload ?? "") + "\n")
    }

    /// A wrong password is refused in the CONNACK, with the code the service shows in words.
    @Test func refusesAWrongPassword() throws {
        let broker = try LoopbackBroker(user: "tracker", password: "s3cret")
        defer { broker.stop() }
        let client = try BlockingClient("127.0.0.1:\(broker.port)")
        let answer = try connect(client, MQTTConnect(clientID: "trackd-bike", username: "tracker", password: "wrong"))
        guard case .connectAcknowledgement(let session, let code) = answer else {
            Issue.record("no CONNACK: \(String(describing: answer))")
            return
        }
        #expect(!session)
        // mosquitto 2.0.11 answers a 3.1.1 client's bad password with 5, "not authorized".
        #expect(code == .notAuthorized || code == .badUserNameOrPassword)
        #expect(!code.description.isEmpty)
        // Then it closes the connection.
        #expect(try client.receive().isEmpty)
    }
}
