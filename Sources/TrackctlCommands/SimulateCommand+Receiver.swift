import TrackCore
import TrackIO

/// The receiver's end of the pseudo-terminal. With `--receiver`, what trackd writes is read and
/// answered as that receiver would (`SimulatedReceiver`), its answers and epochs go out at the
/// receiver's baud, and when the line's baud (trackd's termios on the slave) is another, both
/// directions are noise — as on a UART whose two ends disagree — until one side follows.
/// Without, what trackd writes is read and dropped and any baud does, as before.
struct SimulatedLine: ~Copyable {
    var receiver: SimulatedReceiver?
    var replies = TextBuffer()
    let input: UnsafeMutableRawBufferPointer
    /// Bytes read from trackd, and answers written, so far.
    private(set) var bytesRead = 0
    private(set) var bytesAnswered = 0

    init(_ receiver: SimulatedReceiver?) {
        self.receiver = receiver
        input = .allocate(byteCount: 1024, alignment: 16)
    }

    deinit { input.deallocate() }

    /// True when trackd's side of the line runs at the receiver's baud (always without a
    /// receiver model).
    func linesAgree(_ terminal: borrowing PseudoTerminal) -> Bool {
        guard let receiver else { return true }
        return (try? terminal.lineBaud()) == receiver.baud
    }

    /// True while the receiver sends epochs (not asleep).
    var isSending: Bool { receiver?.isAsleep != true }

    /// What the receiver prints at start-up, to the line.
    mutating func start(on terminal: borrowing PseudoTerminal) throws(Errno) {
        guard let receiver else { return }
        replies.removeAll()
        receiver.writeStartUp(to: &replies)
        _ = try Self.write(&replies, agree: linesAgree(terminal), on: terminal)
    }

    /// Reads what trackd wrote, lets the receiver answer, writes the answers (at the rate the
    /// receiver had before any baud change they carry), and tells `simulator` the receiver's
    /// new fix interval and sentences.
    mutating func takeInput(from terminal: borrowing PseudoTerminal, _ simulator: inout NMEASimulator) throws(Errno) {
        let count = try terminal.master.readAvailable(into: input)
        guard count > 0 else { return }
        bytesRead += count
        guard var receiver else { return }
        let agree = linesAgree(terminal)
        if !agree {
            for index in 0..<count { input[index] = SimulatedReceiver.garbled(input[index]) }
        }
        replies.removeAll()
        receiver.receive(UnsafeRawBufferPointer(rebasing: input[0..<count]), replies: &replies)
        bytesAnswered += replies.count
        self.receiver = receiver
        _ = try Self.write(&replies, agree: agree, on: terminal)
        receiver.settle()
        self.receiver = receiver
        simulator.outputRates = receiver.sentences
        simulator.setEpochInterval(milliseconds: Int64(receiver.fixIntervalMilliseconds))
    }

    /// Writes `buffer` as the receiver sends it: garbled when the line's baud is another.
    /// Returns false when not all of it went (nobody reading: lost, as on a UART).
    func send(_ buffer: inout TextBuffer, on terminal: borrowing PseudoTerminal) throws(Errno) -> Bool {
        try Self.write(&buffer, agree: linesAgree(terminal), on: terminal)
    }

    /// `send`'s write, `agree` saying whether the two ends' bauds agree.
    static func write(_ buffer: inout TextBuffer, agree: Bool, on terminal: borrowing PseudoTerminal) throws(Errno) -> Bool {
        guard buffer.count > 0 else { return true }
        let written = try buffer.withBytes { (bytes) throws(Errno) -> Int in
            try bytes.withUnsafeBytes { (raw) throws(Errno) -> Int in
                if agree { return try terminal.master.writeAvailable(raw) }
                let noise = UnsafeMutableRawBufferPointer.allocate(byteCount: raw.count, alignment: 1)
                defer { noise.deallocate() }
                for index in 0..<raw.count { noise[index] = SimulatedReceiver.garbled(raw[index]) }
                return try terminal.master.writeAvailable(UnsafeRawBufferPointer(noise))
            }
        }
        return written == buffer.count
    }
}
