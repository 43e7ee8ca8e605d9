/// Where `NMEAReceiver.nextStop` stopped.
public enum NMEAStop: Equatable, Sendable {
    /// The bytes are used up.
    case end
    /// An epoch completed: its fix is `assembler.completed`.
    case fix
    /// The framer's sentence (readable in `framer.sentence` until the next call) is a
    /// proprietary or TXT sentence: a possible reply to a command (`ReceiverReply(sentence:)`).
    case reply
    /// The byte before `offset` was `B5`, which may start a UBX frame.
    case binaryStart
}

/// Which stops `NMEAReceiver.run` makes besides completed epochs; its answers are constants of
/// the type, so the loop is compiled once per policy with the tests folded away.
protocol NMEAStopPolicy {
    static var stopsAtReplies: Bool { get }
}

/// `next`: fixes only.
enum FixesOnly: NMEAStopPolicy {
    static var stopsAtReplies: Bool { false }
}

/// `nextStop`: fixes, reply sentences and UBX sync bytes.
enum FixesAndReplies: NMEAStopPolicy {
    static var stopsAtReplies: Bool { true }
}

extension NMEAReceiver {
    /// Like `next`, and also stops after a proprietary or TXT sentence (`.reply`) and after a
    /// `B5` byte (`.binaryStart`), which the caller hands to a `UBXFrameReader`. The bytes are
    /// judged exactly as by `next`: the stops only hand the caller a turn.
    ///
    ///     var offset = 0
    ///     loop: while true {
    ///         switch receiver.nextStop(bytes, from: &offset) {
    ///         case .end: break loop
    ///         case .fix: handle(receiver.assembler.completed)
    ///         case .reply: read(&receiver.framer.sentence)  // … and so on
    ///         }
    ///     }
    public mutating func nextStop(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> NMEAStop {
        run(bytes, from: &offset, FixesAndReplies.self)
    }

    /// True when `event` framed a proprietary or TXT sentence.
    @inline(__always)
    func isReply(_ event: FrameEvent) -> Bool {
        guard case .sentence = event else { return false }
        let type = framer.sentence.type
        return type == .proprietary || type == .txt
    }
}
