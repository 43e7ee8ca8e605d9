import CLinux
import Foundation
import Testing
import TrackCore
@testable import TrackIO
@testable import TrackctlCommands

/// `trackctl simulate --receiver` on a real pseudo-terminal: commands written on the slave side
/// (where trackd's port is) answered by the simulated receiver, the line's baud (termios on the
/// slave) compared with the receiver's. The suite's name matches `--filter Simulator`.
@Suite struct SimulatorLineTests {
    static let route = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("board/demo-route.gpx").path

    /// The pair, its slave opened raw at `baud` as trackd's SerialPort would, and a simulator.
    struct Rig: ~Copyable {
        let terminal: PseudoTerminal
        let port: FileDescriptor
        var simulator: NMEASimulator

        init(baud: Int) throws {
            let track = try GPXTrack(parsing: try FileDescriptor.readWholeFile(SimulatorLineTests.route))
            let simulator = try NMEASimulator(track: track)
            let terminal = try PseudoTerminal()
            let path = terminal.slavePath
            let port = FileDescriptor(rawValue: try syscall {
                path.withCString { clinux_open($0, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK, 0) }
            })
            try SerialPort.configureRaw(port, baud: baud)
            self.terminal = terminal
            self.port = port
            self.simulator = simulator
        }

        deinit { try? port.close() }

        /// What arrives on trackd's side within a short wait.
        func received() -> [UInt8] {
            var bytes: [UInt8] = []
            while waitReadableBriefly(port) {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { raw in (try? port.readAvailable(into: raw)) ?? 0 }
                if count == 0 { break }
                bytes += chunk[0..<count]
            }
            return bytes
        }

        /// Writes `text` from trackd's side and lets the line answer.
        mutating func command(_ text: String, _ line: inout SimulatedLine) throws {
            try write(Array(text.utf8), to: port)
            try take(text.utf8.count, &line)
        }

        /// Lets the line read the `count` bytes written on trackd's side. The pty counts them
        /// (FIONREAD) before the master can read them: a read at once may find nothing, so
        /// the master is also waited on for input.
        mutating func take(_ count: Int, _ line: inout SimulatedLine) throws {
            waitForQueued(count, on: terminal.master)
            _ = waitReadable(terminal.master)
            try line.takeInput(from: terminal, &simulator)
        }

        /// One epoch as the line sends it.
        mutating func epoch(_ line: inout SimulatedLine) throws {
            var buffer = TextBuffer()
            _ = simulator.writeEpoch(to: &buffer)
            _ = try line.send(&buffer, on: terminal)
        }
    }

    static func waitReadableBriefly(_ descriptor: FileDescriptor) -> Bool {
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 200) == 1
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aMediaTekAnswersChangesBaudAndIsNoiseUntilThePortFollows() throws {
        var rig = try Rig(baud: 9600)
        var line = SimulatedLine(SimulatedReceiver(.mediatek, baud: 9600))
        #expect(try rig.terminal.lineBaud() == 9600)
        try rig.command(sentence("PMTK605") + sentence("PMTK314,0,1,0,1,1,5,0,1,0,0,0,0,0,0,0,0,0,0,0"), &line)
        let answers = Self.text(rig.received())
        #expect(answers.contains("$PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0*6B\r\n"))
        #expect(answers.contains("$PMTK001,314,3*36\r\n"))
        #expect(rig.simulator.outputRates?[.gst] == 1)
        try rig.epoch(&line)
        #expect(Self.text(rig.received()).contains("$GPGST,"))

        try rig.command(sentence("PMTK251,38400"), &line)
        let baud = line.receiver?.baud
        #expect(baud == 38_400)
        try rig.epoch(&line)
        let noise = rig.received()
        #expect(!noise.isEmpty && !noise.contains(UInt8(ascii: "$")), "at 9600 a 38400 receiver is noise")
        try SerialPort.configureRaw(rig.port, baud: 38_400)
        try rig.epoch(&line)
        #expect(Self.text(rig.received()).hasPrefix("$GPRMC,"))
    }

    @Test func commandsAtTheWrongBaudAreNotUnderstood() throws {
        var rig = try Rig(baud: 115_200)
        var line = SimulatedLine(SimulatedReceiver(.ubloxM8, baud: 9600))
        let poll: [UInt8] = [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34]
        try write(poll, to: rig.port)
        try rig.take(poll.count, &line)
        let taken = line.receiver?.commandsTaken
        #expect(taken == 0)
        #expect(!rig.received().contains(0x62))
    }

    @Test func asleepNothingGoesOutAndAByteWakesIt() throws {
        var rig = try Rig(baud: 9600)
        var line = SimulatedLine(SimulatedReceiver(.mediatek, baud: 9600))
        try rig.command(sentence("PMTK161,0"), &line)
        #expect(Self.text(rig.received()) == "$PMTK001,161,3*36\r\n")
        let asleep = !line.isSending
        #expect(asleep)
        try rig.command("\r\n", &line)
        let awake = line.isSending
        #expect(awake)
        #expect(Self.text(rig.received()) == "$PMTK010,002*2D\r\n")
    }

    @Test func withoutAReceiverInputIsDroppedAndAnyBaudDoes() throws {
        var rig = try Rig(baud: 4800)
        var line = SimulatedLine(nil)
        try rig.command(sentence("PMTK605"), &line)
        let read = line.bytesRead
        #expect(read > 0)
        #expect(rig.received().isEmpty)
        try rig.epoch(&line)
        #expect(Self.text(rig.received()).hasPrefix("$GPRMC,"))
    }

    @Test(arguments: [
        (["r.gpx", "--receiver", "ublox-m10"], SimulatedReceiver.Model.ubloxM10, 38_400),
        (["r.gpx", "--receiver", "mediatek", "--baud", "115200"], .mediatek, 115_200),
        (["r.gpx", "--receiver", "quectel"], .quectel, 115_200),
    ] as [([String], SimulatedReceiver.Model, Int)])
    func receiverOptions(arguments: [String], model: SimulatedReceiver.Model, baud: Int) throws {
        guard case .run(let options) = SimulateCommand.parse(arguments) else {
            Issue.record("\(arguments) did not parse")
            return
        }
        #expect(options.simulatedReceiver?.model == model)
        #expect(options.simulatedReceiver?.baud == baud)
    }

    @Test(arguments: [
        (["r.gpx", "--receiver", "sirf"], "--receiver takes ublox-m8, ublox-m10, mediatek, quectel or silent"),
        (["r.gpx", "--receiver", "mediatek", "--baud", "1234"], "--baud takes a rate such as 9600, 38400 or 115200"),
        (["r.gpx", "--baud", "9600"], "--baud and --keep-baud are the simulated receiver's: give --receiver too"),
        (["r.gpx", "--keep-baud"], "--baud and --keep-baud are the simulated receiver's: give --receiver too"),
        (["r.gpx", "--stdout", "--receiver", "silent"],
         "--receiver answers what is written to a pseudo-terminal: not with --stdout"),
    ] as [([String], String)])
    func receiverMistakes(arguments: [String], message: String) {
        #expect(SimulateCommand.parse(arguments) == .usageError(message))
    }
}
